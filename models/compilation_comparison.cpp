#include "models/compilation_comparison.h"

#include <QColor>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLocale>
#include <QPointer>
#include <QtConcurrent>
#include <algorithm>
#include <cmath>

#include "deploy/run_on_board.h"
#include "frontend/tflite_importer.h"
#include "models/display_text.h"

namespace loupe::models {

struct CompilationComparison::Result {
  QString error;
  QString labelA, labelB;
  driver::CompilationDiff diff;
  MemoryPlanLayout planA, planB;
  QList<int> differenceOfRow;                              // the diff row of each table row
  QStringList splitRowTypes;                               // per table row
  QList<QList<int>> modelOperatorsOfA, modelOperatorsOfB;  // per table row
  QHash<int, QString> marksA, marksB;
  DeviceMapping mappingA, mappingB;
  std::vector<double> timesA, timesB;  // per imported operator, when measured
  QList<RowCosts> costs;               // per diff row
  QList<CostTotals> costTotals;
};

namespace {

// Compiles one side and, with a platform, runs it there.
deploy::MeasuredCompilation compileSide(const ComparisonSide& side,
                                        const std::shared_ptr<const deploy::Platform>& measureOn,
                                        std::stop_token stop,
                                        const deploy::Deployment::Progress& progress,
                                        const std::string& name) {
  codegen::CompileOptions options;
  options.memory.planner = side.planner.toStdString();
  return deploy::compileForComparison({side.model, side.targets, std::move(options), {}}, measureOn,
                                      name, stop, progress);
}

QList<int> modelOperatorsOf(const driver::Compilation& compilation,
                            const std::optional<driver::ComparedOperator>& op) {
  QList<int> result;
  if (!op) return result;
  for (int m :
       compilation.graph.operators.at(static_cast<std::size_t>(op->index)).modelOperators()) {
    result.append(m);
  }
  return result;
}

// A side's measured time per imported operator: a compiled operator's time
// shared evenly among the imported operators fused into it.
std::vector<double> timesPerModelOperator(const deploy::MeasuredCompilation& side,
                                          std::size_t modelOperators) {
  std::vector<double> times(modelOperators, 0.0);
  const ir::Graph& graph = side.compilation.model.graph;
  const std::vector<double> compiled = side.profile->timePerOperator(graph.operators.size());
  for (std::size_t i = 0; i < compiled.size(); ++i) {
    const auto fused = graph.operators[i].modelOperators();
    for (int m : fused) {
      if (m >= 0 && static_cast<std::size_t>(m) < times.size()) {
        times[static_cast<std::size_t>(m)] += compiled[i] / static_cast<double>(fused.size());
      }
    }
  }
  return times;
}

DeviceMapping mappingOf(const deploy::MeasuredCompilation& side, const ComparisonSide& request,
                        const target::TargetRegistry& registry) {
  const driver::Compilation& c = side.compilation;
  return deviceMappingOf(c.graph, c.devices, request.targets, c.model.devices,
                         QString::fromStdString(c.model.modelName),
                         static_cast<int>(request.model.operators.size()), registry);
}

// What an accessor returns before there is a result.
template <typename T>
const T& emptyValue() {
  static const T empty;
  return empty;
}

QString number(std::int64_t value) {
  return QLocale::system().toString(static_cast<qlonglong>(value));
}

}  // namespace

CompilationComparison::CompilationComparison(const deploy::Registries& registries, QObject* parent)
    : QObject(parent), registries_(registries) {
  connect(&watcher_, &QFutureWatcher<std::shared_ptr<const Result>>::finished, this,
          &CompilationComparison::onFinished);
}

CompilationComparison::~CompilationComparison() {
  stop_.request_stop();
  watcher_.waitForFinished();
}

void CompilationComparison::start(ComparisonSide a, ComparisonSide b,
                                  std::shared_ptr<const deploy::Platform> measureOn) {
  if (running_) {
    pending_ = std::make_unique<Request>(Request{std::move(a), std::move(b), std::move(measureOn)});
    return;
  }
  running_ = true;
  stop_ = std::stop_source();
  emit started();
  // Progress lines cross to the GUI thread as queued signals.
  QPointer<CompilationComparison> self(this);
  auto report = [self](const std::string& side) {
    return [self, side](const std::string& stage, const std::string& detail) {
      const QString line = QStringLiteral("%1 %2: %3")
                               .arg(QString::fromStdString(side), QString::fromStdString(stage),
                                    QString::fromStdString(detail));
      QMetaObject::invokeMethod(
          self.data(),
          [self, line] {
            if (self) emit self->progress(line);
          },
          Qt::QueuedConnection);
    };
  };
  watcher_.setFuture(
      QtConcurrent::run([a = std::move(a), b = std::move(b), measureOn = std::move(measureOn),
                         &registry = registries_.targets, stop = stop_.get_token(),
                         reportA = report("A"), reportB = report("B")]() {
        auto result = std::make_shared<Result>();
        result->labelA = a.label;
        result->labelB = b.label;
        try {
          const deploy::MeasuredCompilation left = compileSide(a, measureOn, stop, reportA, "A");
          const deploy::MeasuredCompilation right = compileSide(b, measureOn, stop, reportB, "B");
          result->diff = driver::diffCompilations(left.compilation, right.compilation);
          const driver::Compilation& l = left.compilation;
          const driver::Compilation& r = right.compilation;
          result->planA = memoryPlanLayout(l.model.graph, l.model.memoryPlan, l.model.memories);
          result->planB = memoryPlanLayout(r.model.graph, r.model.memoryPlan, r.model.memories);
          result->mappingA = mappingOf(left, a, registry);
          result->mappingB = mappingOf(right, b, registry);
          if (measureOn) {
            deploy::addMeasuredTimes(result->diff, left, right, *measureOn);
            result->timesA = timesPerModelOperator(left, a.model.operators.size());
            result->timesB = timesPerModelOperator(right, b.model.operators.size());
          }
          for (std::size_t i = 0; i < result->diff.operators.size(); ++i) {
            const driver::OperatorDifference& d = result->diff.operators[i];
            const QList<int> opsA = modelOperatorsOf(l, d.a);
            const QList<int> opsB = modelOperatorsOf(r, d.b);
            QList<int> sortedA = opsA, sortedB = opsB;
            std::sort(sortedA.begin(), sortedA.end());
            std::sort(sortedB.begin(), sortedB.end());
            if (opsA.size() > 1 && sortedA == sortedB) {
              for (int m : opsA) {
                result->differenceOfRow.append(static_cast<int>(i));
                result->splitRowTypes.append(
                    m >= 0 && static_cast<std::size_t>(m) < a.model.operators.size()
                        ? QString::fromStdString(
                              a.model.operators[static_cast<std::size_t>(m)].typeName())
                        : QString());
                result->modelOperatorsOfA.append(QList<int>{m});
                result->modelOperatorsOfB.append(QList<int>{m});
              }
            } else {
              result->differenceOfRow.append(static_cast<int>(i));
              result->splitRowTypes.append(QString());
              result->modelOperatorsOfA.append(opsA);
              result->modelOperatorsOfB.append(opsB);
            }
            const QString mark = d.added()     ? QStringLiteral("added")
                                 : d.removed() ? QStringLiteral("removed")
                                 : d.merged()  ? QStringLiteral("merged")
                                 : d.changed() ? QStringLiteral("changed")
                                               : QString();
            if (mark.isEmpty()) continue;
            for (int m : opsA) result->marksA.insert(m, mark);
            for (int m : opsB) result->marksB.insert(m, mark);
          }
          result->costs =
              comparisonRowCosts(result->modelOperatorsOfA, result->modelOperatorsOfB,
                                 {result->mappingA.npuCyclesOfModelOperator, result->timesA},
                                 {result->mappingB.npuCyclesOfModelOperator, result->timesB});
          result->costTotals = comparisonCostTotals(result->costs, result->modelOperatorsOfA);
        } catch (const std::exception& error) {
          result->error = QString::fromUtf8(error.what());
        }
        return std::shared_ptr<const Result>(result);
      }));
}

std::optional<ir::Graph> CompilationComparison::importModel(const QString& path, QString* error) {
  try {
    return frontend::importTfliteFile(path.toStdString());
  } catch (const std::exception& failure) {
    *error = QString::fromUtf8(failure.what());
    return std::nullopt;
  }
}

bool CompilationComparison::waitUntilIdle(int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  while (running_ && timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return !running_;
}

void CompilationComparison::onFinished() {
  result_ = watcher_.result();
  running_ = false;
  if (pending_) {
    auto next = std::move(pending_);
    start(std::move(next->a), std::move(next->b), std::move(next->measureOn));
    return;
  }
  emit finished();
}

QString CompilationComparison::error() const {
  return result_ ? result_->error : QString();
}

const driver::CompilationDiff& CompilationComparison::diff() const {
  return result_ ? result_->diff : emptyValue<driver::CompilationDiff>();
}

const MemoryPlanLayout& CompilationComparison::planA() const {
  return result_ ? result_->planA : emptyValue<MemoryPlanLayout>();
}

const MemoryPlanLayout& CompilationComparison::planB() const {
  return result_ ? result_->planB : emptyValue<MemoryPlanLayout>();
}

QString CompilationComparison::labelA() const {
  return result_ ? result_->labelA : QString();
}

QString CompilationComparison::labelB() const {
  return result_ ? result_->labelB : QString();
}

int CompilationComparison::rowCount() const {
  return result_ ? static_cast<int>(result_->differenceOfRow.size()) : 0;
}

const driver::OperatorDifference& CompilationComparison::rowDifference(int row) const {
  return result_->diff.operators.at(static_cast<std::size_t>(result_->differenceOfRow.at(row)));
}

QString CompilationComparison::splitRowType(int row) const {
  return result_ ? result_->splitRowTypes.value(row) : QString();
}

QList<int> CompilationComparison::modelOperatorsOfA(int row) const {
  return result_ ? result_->modelOperatorsOfA.value(row) : QList<int>();
}

QList<int> CompilationComparison::modelOperatorsOfB(int row) const {
  return result_ ? result_->modelOperatorsOfB.value(row) : QList<int>();
}

const QHash<int, QString>& CompilationComparison::marksA() const {
  return result_ ? result_->marksA : emptyValue<QHash<int, QString>>();
}

const QHash<int, QString>& CompilationComparison::marksB() const {
  return result_ ? result_->marksB : emptyValue<QHash<int, QString>>();
}

const DeviceMapping& CompilationComparison::mappingA() const {
  return result_ ? result_->mappingA : emptyValue<DeviceMapping>();
}

const DeviceMapping& CompilationComparison::mappingB() const {
  return result_ ? result_->mappingB : emptyValue<DeviceMapping>();
}

const std::vector<double>& CompilationComparison::operatorTimesA() const {
  return result_ ? result_->timesA : emptyValue<std::vector<double>>();
}

const std::vector<double>& CompilationComparison::operatorTimesB() const {
  return result_ ? result_->timesB : emptyValue<std::vector<double>>();
}

const QList<RowCosts>& CompilationComparison::rowCosts() const {
  return result_ ? result_->costs : emptyValue<QList<RowCosts>>();
}

const QList<CostTotals>& CompilationComparison::costTotals() const {
  return result_ ? result_->costTotals : emptyValue<QList<CostTotals>>();
}

ComparisonTableModel::ComparisonTableModel(const CompilationComparison* comparison, QObject* parent)
    : QAbstractTableModel(parent), comparison_(comparison) {
  connect(comparison, &CompilationComparison::started, this, [this] {
    beginResetModel();
    endResetModel();
  });
  connect(comparison, &CompilationComparison::finished, this, [this] {
    beginResetModel();
    endResetModel();
  });
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : comparison_->rowCount();
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString ComparisonTableModel::status(int row) const {
  const driver::OperatorDifference& d = comparison_->rowDifference(row);
  return d.added()     ? QStringLiteral("added")
         : d.removed() ? QStringLiteral("removed")
         : d.merged()  ? QStringLiteral("merged")
         : d.changed() ? QStringLiteral("changed")
                       : QStringLiteral("same");
}

QList<CostKind> ComparisonTableModel::costKinds(bool sideB) const {
  QList<CostKind> kinds;
  for (const RowCosts& row : comparison_->rowCosts()) {
    const std::optional<OperatorCost>& cost = sideB ? row.b : row.a;
    if (cost && !kinds.contains(cost->kind)) kinds.append(cost->kind);
  }
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const driver::OperatorDifference& d = comparison_->rowDifference(index.row());
  const QString splitType = comparison_->splitRowType(index.row());
  const QString state = status(index.row());
  if (role == Qt::BackgroundRole) {
    if (state == QLatin1String("added")) return QColor(0xdf, 0xf3, 0xdc);
    if (state == QLatin1String("removed")) return QColor(0xf8, 0xdc, 0xdc);
    if (state == QLatin1String("changed") || state == QLatin1String("merged")) {
      return QColor(0xfd, 0xf0, 0xcc);
    }
    return {};
  }
  const RowCosts costs = comparison_->rowCosts().value(index.row());
  const QString unit = QString::fromStdString(comparison_->diff().timeUnit);
  if (role == Qt::TextAlignmentRole) {
    return index.column() >= CostAColumn && index.column() <= TimeDeltaColumn
               ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
               : QVariant();
  }
  if (role == Qt::ToolTipRole && index.column() >= CostAColumn &&
      index.column() <= CostRatioColumn) {
    if (!costs.a || !costs.b) return {};
    return tr("B's %1 %2 / A's %3 %4%5")
        .arg(groupedNumber(std::llround(costs.b->value)), costKindText(costs.b->kind, unit),
             groupedNumber(std::llround(costs.a->value)), costKindText(costs.a->kind, unit),
             costs.a->kind == costs.b->kind ? QString() : tr(": not the same unit"));
  }
  if (role == Qt::ToolTipRole) {
    QStringList changes;
    for (const std::string& c : d.changes) changes << QString::fromStdString(c);
    return changes.isEmpty() ? QVariant() : QVariant(tr("changed: %1").arg(changes.join(", ")));
  }
  if (role != Qt::DisplayRole) return {};
  const driver::ComparedOperator& any = d.a ? *d.a : *d.b;
  auto both = [&](auto field) -> std::pair<QString, QString> {
    return {d.a ? field(*d.a) : QString(), d.b ? field(*d.b) : QString()};
  };
  auto cycles = [](const driver::ComparedOperator& op) {
    return op.estimatedCycles ? number(*op.estimatedCycles) : QStringLiteral("-");
  };
  switch (index.column()) {
    case StatusColumn:
      return state;
    case IndexColumn: {
      const auto [a, b] = both([](const auto& op) { return QStringLiteral("#%1").arg(op.index); });
      const QString pair =
          a == b ? a
                 : QStringLiteral("%1 \u2192 %2").arg(a.isEmpty() ? "-" : a, b.isEmpty() ? "-" : b);
      // A row of a split pair: which of its model operators.
      return splitType.isEmpty() ? pair
                                 : QStringLiteral("%1 op %2")
                                       .arg(pair)
                                       .arg(comparison_->modelOperatorsOfA(index.row()).value(0));
    }
    case TensorColumn:
      return QString::fromStdString(any.name);
    case TypeColumn:
      if (!splitType.isEmpty()) {
        return QStringLiteral("%1 in %2").arg(splitType, QString::fromStdString(any.type));
      }
      return d.a && d.b && d.a->type != d.b->type
                 ? QStringLiteral("%1 \u2192 %2")
                       .arg(QString::fromStdString(d.a->type), QString::fromStdString(d.b->type))
                 : QString::fromStdString(any.type);
    case TargetColumn: {
      const auto [a, b] = both([](const auto& op) { return QString::fromStdString(op.target); });
      return a == b
                 ? a
                 : QStringLiteral("%1 \u2192 %2").arg(a.isEmpty() ? "-" : a, b.isEmpty() ? "-" : b);
    }
    case CostAColumn:
    case CostBColumn: {
      const bool sideB = index.column() == CostBColumn;
      const std::optional<OperatorCost>& cost = sideB ? costs.b : costs.a;
      if (!cost) return QString();
      const QString value = groupedNumber(std::llround(cost->value));
      // A column of both kinds says each figure's.
      return costKinds(sideB).size() > 1
                 ? QStringLiteral("%1 %2").arg(value, costKindAbbreviation(cost->kind, unit))
                 : value;
    }
    case CostRatioColumn:
      if (!costs.a || !costs.b) return QString();
      // Nothing to divide by: a view of its input's bytes (no call, no operation).
      if (costs.a->value <= 0) return QStringLiteral("\u2013");
      return QStringLiteral("\u00d7%1").arg(costRatioText(costs.b->value / costs.a->value));
    case MacsAColumn:
      return d.a ? number(d.a->macs) : QString();
    case MacsBColumn:
      return d.b ? number(d.b->macs) : QString();
    case WeightsAColumn:
      return d.a ? number(d.a->parameterBytes) : QString();
    case WeightsBColumn:
      return d.b ? number(d.b->parameterBytes) : QString();
    case OutputAColumn:
      return d.a ? number(d.a->outputBytes) : QString();
    case OutputBColumn:
      return d.b ? number(d.b->outputBytes) : QString();
    case CyclesAColumn:
      return d.a ? cycles(*d.a) : QString();
    case CyclesBColumn:
      return d.b ? cycles(*d.b) : QString();
    case CyclesDeltaColumn:
      if (d.a && d.b && d.a->estimatedCycles && d.b->estimatedCycles) {
        const std::int64_t delta = *d.b->estimatedCycles - *d.a->estimatedCycles;
        return (delta > 0 ? QStringLiteral("+") : QString()) + number(delta);
      }
      return QString();
    case TimeAColumn:
      return d.a && d.a->measuredTime ? number(std::llround(*d.a->measuredTime)) : QString();
    case TimeBColumn:
      return d.b && d.b->measuredTime ? number(std::llround(*d.b->measuredTime)) : QString();
    case TimeDeltaColumn:
      if (d.a && d.b && d.a->measuredTime && d.b->measuredTime) {
        const std::int64_t delta = std::llround(*d.b->measuredTime - *d.a->measuredTime);
        return (delta > 0 ? QStringLiteral("+") : QString()) + number(delta);
      }
      return QString();
    default:
      return {};
  }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
  if (orientation != Qt::Horizontal) return {};
  const QString unit = QString::fromStdString(comparison_->diff().timeUnit);
  if (role == Qt::ToolTipRole && section >= CostAColumn && section <= CostRatioColumn) {
    return tr(
        "Each side's one figure per operator: the estimated NPU cycles of the Ethos-U's "
        "performance model where the NPU runs it, else the time measured on the board. "
        "Cycles and instructions are different units: a ratio between them says how many "
        "NPU cycles the estimate gives per measured CPU instruction.");
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case StatusColumn:
      return tr("Status");
    case IndexColumn:
      return tr("Operator");
    case TensorColumn:
      return tr("Tensor written");
    case TypeColumn:
      return tr("Type");
    case TargetColumn:
      return tr("Target A \u2192 B");
    case CostAColumn:
    case CostBColumn: {
      // Named by what the column holds, never one unit passed off as
      // another; on two lines, so the numbers' column stays narrow.
      const bool sideB = section == CostBColumn;
      QStringList how, units;
      for (CostKind kind : costKinds(sideB)) {
        how << (kind == CostKind::EstimatedNpuCycles ? tr("estimated") : tr("measured"));
        units << (kind == CostKind::EstimatedNpuCycles ? tr("NPU cycles") : unit);
      }
      const QString side = sideB ? tr("B") : tr("A");
      return how.isEmpty() ? side
                           : QStringLiteral("%1 %2\n%3")
                                 .arg(side, how.join(QStringLiteral(" | ")),
                                      units.join(QStringLiteral(" | ")));
    }
    case CostRatioColumn: {
      const QList<CostKind> a = costKinds(false), b = costKinds(true);
      return a.size() == 1 && a == b ? tr("B / A") : tr("B / A\n(units differ)");
    }
    case MacsAColumn:
      return tr("MACs A");
    case MacsBColumn:
      return tr("MACs B");
    case WeightsAColumn:
      return tr("Weights A");
    case WeightsBColumn:
      return tr("Weights B");
    case OutputAColumn:
      return tr("Output A");
    case OutputBColumn:
      return tr("Output B");
    case CyclesAColumn:
      return tr("Est. cycles A");
    case CyclesBColumn:
      return tr("Est. cycles B");
    case CyclesDeltaColumn:
      return tr("\u0394 cycles");
    case TimeAColumn:
    case TimeBColumn:
    case TimeDeltaColumn: {
      const QString what = section == TimeAColumn   ? tr("Time A")
                           : section == TimeBColumn ? tr("Time B")
                                                    : tr("\u0394 time");
      return unit.isEmpty() ? what : QStringLiteral("%1 (%2)").arg(what, unit);
    }
    default:
      return {};
  }
}

}  // namespace loupe::models
