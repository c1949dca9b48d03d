#include "models/board_run.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <optional>

#include "deploy/bundled_tuning.h"
#include "deploy/deploy_error.h"
#include "deploy/reference_check.h"
#include "deploy/run_on_board.h"
#include "models/model_document.h"
#include "models/target_choice.h"
#include "session_error.h"

namespace loupe::models {

using Bytes = std::vector<std::uint8_t>;

// A run's outcome, built on the worker thread and read-only after.
struct BoardRun::Result {
  int generation = 0;
  QString error;
  QString boardName;
  QList<OutputCheck> outputs;
  deploy::DeploymentTimes times;
  deploy::RunProfile profile;
  QList<QList<int>> modelOperators;  // per profile row
  QStringList flash;                 // the firmware's footprint, per memory
  QString plan;                      // the plan fit-first chose, or empty
  std::optional<DebugFindings> debug;
};

namespace {

// A raw tensor file for model input or output `index` ("input", "output"),
// checked against the tensor's size.
Bytes readTensorFile(const QString& path, const ir::Tensor& tensor, const char* role,
                     std::size_t index) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    throw std::runtime_error(std::string("cannot read ") + role + " file " + path.toStdString());
  }
  const QByteArray data = file.readAll();
  if (data.size() != tensor.byteSize()) {
    throw std::runtime_error(QFileInfo(path).fileName().toStdString() + ": " +
                             std::to_string(data.size()) + " bytes, but " + role + " " +
                             std::to_string(index) + " '" + tensor.name + "' needs " +
                             std::to_string(tensor.byteSize()));
  }
  return Bytes(data.begin(), data.end());
}

// A debug run's tensors against the golden dump (or the reference
// interpreter's), per imported-model operator.
BoardRun::DebugFindings compareDebugRun(const ir::Graph& graph, const deploy::BoardRunResult& done,
                                        const std::vector<Bytes>& inputs,
                                        const std::optional<std::filesystem::path>& goldenTensors,
                                        const QString& goldenName) {
  BoardRun::DebugFindings findings;
  auto expected = std::make_shared<deploy::TensorBytes>(
      goldenTensors ? deploy::goldenTensors(graph, *goldenTensors)
                    : deploy::referenceTensors(graph, inputs));
  findings.expectedName = goldenTensors ? BoardRun::tr("TFLite Micro's dump (%1)").arg(goldenName)
                                        : BoardRun::tr("the reference interpreter");
  const deploy::DebugComparison c = deploy::compareBoardTensors(
      graph, done.compilation.model, done.deviceTensors, inputs, *expected, done.profile,
      goldenTensors ? deploy::kMaxFloatUlps : deploy::kMaxReferenceUlps);
  for (const deploy::DebugOperatorRow& row : c.rows) {
    const QString mark = row.differs() ? QStringLiteral("differs") : QStringLiteral("exact");
    for (int m : row.modelOperators) findings.marks.insert(m, mark);
  }
  if (c.firstDiffering) {
    const deploy::DebugOperatorRow& row = c.rows[*c.firstDiffering];
    findings.firstDiffering = row.modelOperators.empty() ? -1 : row.modelOperators.front();
    QString detail;
    for (const deploy::TensorAgreement& a : row.outputs) {
      if (a.verdict == deploy::TensorVerdict::Differs) {
        detail = BoardRun::tr("tensor %1: %2").arg(a.tensor).arg(QString::fromStdString(a.detail));
        break;
      }
    }
    findings.summary =
        BoardRun::tr("first difference: operator %1 %2 (model operator %3), %4")
            .arg(row.operatorIndex)
            .arg(QString::fromStdString(row.type), QString::fromStdString(row.name), detail);
  } else {
    findings.summary = BoardRun::tr("every tensor agrees: %1 compared with %2")
                           .arg(c.agreeingTensors())
                           .arg(findings.expectedName);
  }
  if (!c.notOnBoard.empty()) {
    findings.summary += BoardRun::tr("; %n tensor(s) never held whole on the board", nullptr,
                                     static_cast<int>(c.notOnBoard.size()));
  }
  findings.board = std::make_shared<deploy::TensorBytes>(
      deploy::boardTensors(graph, done.compilation.model, done.deviceTensors, inputs));
  findings.expected = std::move(expected);
  return findings;
}

}  // namespace

BoardRun::BoardRun(ModelDocument* document, const deploy::Registries& registries, QObject* parent)
    : QObject(parent), document_(document), registries_(registries) {
  connect(&watcher_, &QFutureWatcherBase::finished, this, &BoardRun::onDone);
  findGoldenSets();
  connect(document_, &ModelDocument::modelLoaded, this, [this] {
    cancel();
    inputFiles_.clear();
    findGoldenSets();
    state_ = State::Idle;
    error_.clear();
    outputs_.clear();
    clearProfile();
  });
}

BoardRun::~BoardRun() {
  // The window closing mid-run stops it as Cancel does: make and its
  // compilers are killed, QEMU is closed and their folders are removed before
  // the window is gone, instead of running on to the end.
  stop_.request_stop();
  watcher_.waitForFinished();
}

QList<PlatformChoice> BoardRun::platforms() const {
  return platformChoices(registries_);
}

QList<PlatformChoice> platformChoices(const deploy::Registries& registries) {
  QList<PlatformChoice> choices;
  for (const auto& platform : registries.platforms.all()) {
    PlatformChoice choice;
    choice.name = QString::fromStdString(platform->name());
    choice.description = QString::fromStdString(platform->description());
    for (const auto& tool : deploy::missingTools(*platform)) {
      const QString package = QString::fromStdString(tool.debianPackage);
      if (!choice.missingPackages.contains(package)) choice.missingPackages << package;
    }
    choice.problem = QString::fromStdString(platform->problem());
    choice.available = choice.missingPackages.isEmpty() && choice.problem.isEmpty();
    choice.options = platform->projectOptions();
    choice.needsPort = platform->usesSerialPort();
    choice.cpu = QString::fromStdString(platform->cpu());
    choice.buildsFirmware = platform->buildsFirmware();
    choice.platform = platform;
    choices << choice;
  }
  return choices;
}

void BoardRun::findGoldenSets() {
  golden_ = {};
  if (document_->isLoaded()) {
    golden_ = deploy::findGoldenSets(document_->filePath().toStdString(), document_->graph());
  }
  goldenSet_ = golden_.sets.empty() ? QString() : QString::fromStdString(golden_.sets[0].name);
}

void BoardRun::setInputFiles(const QStringList& files) {
  inputFiles_ = files;
  goldenSet_.clear();
}

QStringList BoardRun::goldenSetNames() const {
  QStringList names;
  for (const deploy::GoldenSet& set : golden_.sets) names << QString::fromStdString(set.name);
  return names;
}

QStringList BoardRun::skippedGoldenSets() const {
  QStringList reasons;
  for (const std::string& reason : golden_.skipped) reasons << QString::fromStdString(reason);
  return reasons;
}

bool BoardRun::setGoldenSet(const QString& name) {
  if (!name.isEmpty() && !goldenSetNames().contains(name)) return false;
  goldenSet_ = name;
  inputFiles_.clear();
  return true;
}

QString BoardRun::inputsDescription() const {
  if (!goldenSet_.isEmpty()) {
    return tr("golden set %1 (TFLite's inputs; outputs also compared with TFLite's)")
        .arg(goldenSet_);
  }
  if (inputFiles_.isEmpty()) return tr("random bytes (seed 1)");
  QStringList names;
  for (const QString& file : inputFiles_) names << QFileInfo(file).fileName();
  return names.join(QStringLiteral(", "));
}

bool BoardRun::outputsAgree() const {
  if (outputs_.isEmpty()) return false;
  for (const OutputCheck& check : outputs_) {
    if (!check.agrees) return false;
  }
  return true;
}

void BoardRun::clearProfile() {
  const bool had = !rows_.isEmpty();
  rows_.clear();
  flash_.clear();
  operatorTimes_.clear();
  unit_.clear();
  total_ = 0;
  peak_ = 0;
  if (had) emit profileChanged();
}

bool BoardRun::start(Request request) {
  if (running_ || !document_->isLoaded()) return false;
  const int generation = ++generation_;
  runningGeneration_ = generation;
  running_ = true;
  state_ = State::Running;
  error_.clear();
  outputs_.clear();
  platform_ = request.platform;
  debug_.reset();
  emit runningChanged(true);
  emit started(platform_);

  ir::Graph graph = document_->graph();
  if (request.targets.empty()) {
    request.targets = target::parseTargetString(kDefaultTargetString, registries_.targets);
  }
  QStringList files = inputFiles_;
  std::vector<std::filesystem::path> goldenOutputs;
  // The golden set's per-tensor dump, when it has one.
  std::optional<std::filesystem::path> goldenTensors;
  QString goldenName;
  for (const deploy::GoldenSet& set : golden_.sets) {
    if (QString::fromStdString(set.name) != goldenSet_) continue;
    for (const auto& input : set.inputs) files << QString::fromStdString(input.string());
    goldenOutputs = set.outputs;
    goldenName = QString::fromStdString(set.name);
    if (!set.inputs.empty()) {
      const auto dump = set.inputs.front().parent_path() / "tensors";
      if (std::filesystem::exists(dump / "index.json")) goldenTensors = dump;
    }
  }
  stop_ = std::stop_source();
  // Progress is reported from the worker; the lines are delivered on this
  // object's thread and dropped once the run has been cancelled.
  QPointer<BoardRun> self(this);
  // `boardLine`: a LOG line from the board, also emitted on its own.
  auto report = [self, generation](const QString& line, std::optional<QString> boardLine) {
    QMetaObject::invokeMethod(
        self.data(),
        [self, generation, line, boardLine] {
          if (!self || self->generation_ != generation) return;
          emit self->progress(line);
          if (boardLine) emit self->boardLog(*boardLine);
        },
        Qt::QueuedConnection);
  };
  watcher_.setFuture(
      QtConcurrent::run([graph = std::move(graph), files, goldenOutputs, goldenTensors, goldenName,
                         request, &platforms = registries_.platforms, generation, report,
                         stop = stop_.get_token()]() -> std::shared_ptr<const Result> {
        auto result = std::make_shared<Result>();
        result->generation = generation;
        try {
          std::vector<Bytes> inputs;
          if (!files.isEmpty() && static_cast<std::size_t>(files.size()) != graph.inputs.size()) {
            throw std::runtime_error("the model has " + std::to_string(graph.inputs.size()) +
                                     " input(s) but " + std::to_string(files.size()) +
                                     " input file(s) were loaded");
          }
          if (files.isEmpty()) inputs = deploy::randomInputs(graph);
          for (qsizetype i = 0; i < files.size(); ++i) {
            const auto input = static_cast<std::size_t>(i);
            inputs.push_back(
                readTensorFile(files[i], graph.tensor(graph.inputs[input]), "input", input));
          }
          deploy::BoardRunRequest run;
          run.platform = platforms.find(request.platform.toStdString());
          run.compile = {graph, request.targets, {}, {}};
          run.compile.options.schedules = request.schedules;
          run.compile.offeredSchedules = offeredSchedules(request);
          run.compile.options.memory.overlapOutputs = request.overlapOutputs;
          run.compile.options.memory.patches = request.patches;
          // Fit first, as loupec run: with neither switch on, a board gets
          // overlapped outputs, or the first plan that fits when those do
          // not ("[plan]" line), and a refusal names a board the model fits.
          run.compile.fitToMemories = true;
          run.compile.options.debugTensors = request.debug;
          if (request.debug) run.corruptOperator = request.corruptOperator;
          run.knownBoards = &platforms;
          run.inputs = inputs;
          for (std::size_t i = 0; i < goldenOutputs.size(); ++i) {
            run.goldenOutputs.push_back(
                readTensorFile(QString::fromStdString(goldenOutputs[i].string()),
                               graph.tensor(graph.outputs[i]), "output", i));
          }
          run.deployment.start.port = request.port.toStdString();
          run.deployment.start.baud = request.baud;
          run.deployment.start.options = request.options;
          run.deployment.stop = stop;
          run.progress = [&report](const std::string& stage, const std::string& detail) {
            const QString text = QString::fromStdString(detail);
            report(QStringLiteral("[%1] %2").arg(QString::fromStdString(stage), text),
                   stage == "board" ? std::optional<QString>(text) : std::nullopt);
          };
          const deploy::BoardRunResult done = deploy::runOnBoard(std::move(run));
          result->boardName = QString::fromStdString(done.boardName);
          result->plan =
              QString::fromStdString(done.compilation.fit.summary(done.compilation.model));
          result->times = done.times;
          if (done.footprint) {
            for (const std::string& line : deploy::footprintLines(*done.footprint)) {
              result->flash << QString::fromStdString(line);
            }
          }
          result->profile = done.profile;
          const ir::Graph& compiled = done.compilation.model.graph;
          for (const auto& op : result->profile.operators) {
            // A region call (one NPU function) stands for all its operators.
            QList<int> modelOps;
            for (int index : op.operators) {
              if (index < 0 || static_cast<std::size_t>(index) >= compiled.operators.size())
                continue;
              for (int m : compiled.operators[static_cast<std::size_t>(index)].modelOperators()) {
                modelOps << m;
              }
            }
            result->modelOperators << modelOps;
          }
          if (request.debug) {
            result->debug = compareDebugRun(graph, done, inputs, goldenTensors, goldenName);
          }
          for (const deploy::OutputCheck& checked : done.checks) {
            result->outputs << OutputCheck{
                static_cast<int>(checked.index), checked.agrees, checked.bitExact,
                QString::fromStdString(checked.message),
                checked.metrics
                    ? QString::fromStdString(deploy::validationMetricsSummary(*checked.metrics))
                    : QString()};
          }
        } catch (const deploy::DeployError& error) {
          result->error = QString::fromUtf8(error.what());
        } catch (const host::SessionError& error) {
          result->error = BoardRun::tr("session: %1").arg(QString::fromUtf8(error.what()));
        } catch (const std::exception& error) {
          result->error = QString::fromUtf8(error.what());
        }
        return result;
      }));
  return true;
}

void BoardRun::cancel() {
  if (!running_) return;
  stop_.request_stop();
  ++generation_;  // the result and progress of the run in flight are dropped
  running_ = false;
  state_ = State::Failed;
  error_ = tr("cancelled");
  emit progress(tr("[cancel] the run was cancelled: its build, board and session are stopped"));
  emit runningChanged(false);
  emit finished();
}

void BoardRun::onDone() {
  std::shared_ptr<const Result> result = watcher_.result();
  if (result->generation != generation_) return;  // cancelled
  running_ = false;
  if (!result->error.isEmpty()) {
    state_ = State::Failed;
    error_ = result->error;
    emit progress(tr("[error] %1").arg(error_));
    emit runningChanged(false);
    emit failed(error_);
    emit finished();
    return;
  }
  state_ = State::Succeeded;
  boardName_ = result->boardName;
  flash_ = result->flash;
  plan_ = result->plan;
  outputs_ = result->outputs;
  debug_ = result->debug;
  times_ = result->times;
  unit_ = QString::fromStdString(result->profile.unit);
  total_ = result->profile.total;
  peak_ = result->profile.peakMacsPerUnit;
  rows_.clear();
  operatorTimes_.assign(static_cast<std::size_t>(document_->operatorCount()), 0.0);
  for (qsizetype i = 0; i < result->modelOperators.size(); ++i) {
    const auto& op = result->profile.operators[static_cast<std::size_t>(i)];
    rows_.append({op, result->modelOperators[i]});
    const auto& modelOps = result->modelOperators[i];
    for (int m : modelOps) {
      if (m >= 0 && static_cast<std::size_t>(m) < operatorTimes_.size()) {
        operatorTimes_[static_cast<std::size_t>(m)] += op.time / modelOps.size();
      }
    }
  }
  for (const OutputCheck& check : outputs_) emit progress(check.message);
  if (debug_) emit progress(tr("[debug] %1").arg(debug_->summary));
  emit progress(tr("[done] generate %1 s, build %2 s, flash %3 s, run %4 s")
                    .arg(times_.generate, 0, 'f', 2)
                    .arg(times_.build, 0, 'f', 2)
                    .arg(times_.flash, 0, 'f', 2)
                    .arg(times_.run, 0, 'f', 3));
  emit runningChanged(false);
  emit profileChanged();
  emit finished();
}

bool BoardRun::waitUntilIdle(int timeoutMs) {
  QDeadlineTimer deadline(timeoutMs);
  while (running_ && !deadline.hasExpired()) {
    QEventLoop loop;
    connect(this, &BoardRun::runningChanged, &loop, &QEventLoop::quit);
    QTimer::singleShot(std::min<qint64>(200, std::max<qint64>(1, deadline.remainingTime())), &loop,
                       &QEventLoop::quit);
    loop.exec();
  }
  return !running_;
}

std::optional<double> BoardRun::percentOfPeak(const ProfileRow& row) const {
  return deploy::percentOfPeak(row.time, peak_);
}

lowering::ScheduleTable offeredSchedules(const BoardRun::Request& request) {
  if (!request.bundledTuning || !request.schedules.empty()) return {};
  return deploy::bundledSchedules(deploy::bundledTuningLogs().records,
                                  request.platform.toStdString());
}

}  // namespace loupe::models
