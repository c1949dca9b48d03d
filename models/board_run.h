// "Run on board" for the GUI: compiles the document's model, deploys it to a
// platform (generate, build, start, connect - deploy::Deployment), runs it
// once and checks every output against the reference interpreter (and, on a
// golden set's inputs, against TFLite's outputs of that set), all on a
// worker thread. Progress lines arrive by signal; a failure (DeployError,
// SessionError, anything) becomes a message, never an exception in the
// window. Cancel stops the run in flight (the build is killed, a started
// board closed, any wait for it ended) and drops whatever it had got to.
#pragma once

#include <QFutureWatcher>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <vector>

#include "deploy/board_tensor_check.h"
#include "deploy/deployment.h"
#include "deploy/golden_sets.h"
#include "deploy/registries.h"
#include "deploy/run_profile.h"
#include "lowering/schedule.h"
#include "target/target_string.h"

namespace loupe::models {

class ModelDocument;

// A platform of the registry as the Deploy panel lists it.
struct PlatformChoice {
  QString name;
  QString description;
  bool available = true;
  QStringList missingPackages;  // the Debian packages that would make it available
  bool needsPort = false;       // serial and real boards: a port and a baud rate
  QString cpu;                  // the board's -mcpu ("cortex-m4"); empty: portable C
  bool buildsFirmware = true;   // false: runs firmware flashed by hand (cannot be tuned)
  QString problem;              // why it cannot be used beyond missing packages (a broken server)
  std::vector<deploy::ProjectOption> options;  // its project options (Deploy form fields)
  std::shared_ptr<const deploy::Platform> platform;
};

// How one output of the board compares with the reference interpreter.
struct OutputCheck {
  int index = 0;
  bool agrees = false;    // bit-exact, or float32 within the tolerance (reference_check.h)
  bool bitExact = false;  // the same bytes
  // "agrees ... (bit-exact)", "agrees ... within 3 ulp (...)" or where it differs
  QString message;
  QString metrics;  // "max abs error 0 · MAE 0 · ...", empty when the sizes differ
};

// One profile row: an operator call of the compiled model and the operators
// of the imported model it implements (what selecting it selects).
struct ProfileRow {
  deploy::OperatorTime time;
  QList<int> modelOperators;
};

// Every platform of `registries`, with what it needs and whether it can be
// used here.
QList<PlatformChoice> platformChoices(const deploy::Registries& registries);

class BoardRun : public QObject {
  Q_OBJECT

 public:
  enum class State { Idle, Running, Succeeded, Failed };

  struct Request {
    QString platform = QStringLiteral("host");
    QString port;  // serial and real boards
    quint32 baud = 115200;
    // The platform's project options by name (PlatformChoice::options).
    std::map<std::string, std::string> options;
    // Targets in priority order, as for `loupec run --target`: Ethos-U
    // operators run on the firmware's functional model of the NPU.
    // Empty: the CPU only ("c").
    target::TargetList targets;
    // A tuning log's best schedule per workload (lowering/schedule.h); an
    // operator whose workload has none keeps its default.
    lowering::ScheduleTable schedules;
    // Without those: whether the tuning logs bundled with Loupe offer their
    // schedules measured on the platform (deploy/bundled_tuning.h), as the
    // views were compiled (ModelCompilation::bundledTuning).
    bool bundledTuning = false;
    // Outputs may start inside the inputs that die with them.
    bool overlapOutputs = false;
    // The first operators run strip by strip where that lowers the bound.
    bool patches = false;
    // Debug on board: a debug build sends every tensor back as it is
    // written, and each is compared with the golden set's per-tensor dump
    // (TFLite Micro's tensors/) when the inputs are such a set's, otherwise
    // with the reference interpreter's.
    bool debug = false;
    // With debug, for demos: one weight byte of this operator changed on
    // the board (deploy/weight_fault.h).
    std::optional<int> corruptOperator;
  };

  // What the last debug run found (Request::debug).
  struct DebugFindings {
    QString expectedName;  // "TFLite Micro's dump (real1)", "the reference interpreter"
    // Per imported-model operator that sent its outputs: "exact" or "differs".
    QHash<int, QString> marks;
    int firstDiffering = -1;  // the imported-model operator, -1 when all agree
    QString summary;          // "every tensor agrees: 13 ..." or "first difference: ..."
    // Per imported-model tensor: what the board sent and what was expected.
    std::shared_ptr<const deploy::TensorBytes> board;
    std::shared_ptr<const deploy::TensorBytes> expected;
  };

  // Deploys to the platforms of `registries`, which outlive the BoardRun.
  BoardRun(ModelDocument* document, const deploy::Registries& registries,
           QObject* parent = nullptr);
  ~BoardRun() override;  // stops a run in flight and waits for its worker

  QList<PlatformChoice> platforms() const;

  // Inputs: raw files in model input order, or none for random bytes (seed 1).
  // Choosing files leaves the golden set.
  void setInputFiles(const QStringList& files);
  const QStringList& inputFiles() const { return inputFiles_; }
  // The golden sets beside the opened model (deploy/golden_sets.h), real
  // inputs first; a model that has them runs the first by default, and its
  // outputs are also compared with TFLite's.
  QStringList goldenSetNames() const;
  // Why golden folders beside the model were left out ("seed4: ...").
  QStringList skippedGoldenSets() const;
  // Runs on that set's inputs (false when there is no such set); "" for none.
  bool setGoldenSet(const QString& name);
  const QString& goldenSet() const { return goldenSet_; }
  QString inputsDescription() const;

  // Starts a run; false when one is running or no model is open.
  bool start(Request request);
  // Stops the run in flight; its result, if any arrives, is ignored.
  void cancel();

  State state() const { return state_; }
  bool isRunning() const { return running_; }
  QString errorMessage() const { return error_; }
  QString platform() const { return platform_; }
  QString boardName() const { return boardName_; }
  // The memory plan the last run had on a board with memories of its own
  // ("fits with overlapped outputs, every board's default: 8,640 of 10,912
  // workspace bytes ..."); empty on the host or when the user chose the plan.
  QString planNote() const { return plan_; }
  const QList<OutputCheck>& outputChecks() const { return outputs_; }
  bool outputsAgree() const;
  const deploy::DeploymentTimes& times() const { return times_; }
  // What the last run's firmware loads into each memory, measured from its
  // link map ("ITCM: 65,156 of 524,288 bytes loaded (model code ...)");
  // empty for a host build.
  const QStringList& flashFootprint() const { return flash_; }
  // The profile of the last successful run (empty rows before).
  const QString& profileUnit() const { return unit_; }
  double profileTotal() const { return total_; }
  // The core's int8 MACs per instruction (deploy/mac_peak.h); 0 when unknown.
  double profilePeak() const { return peak_; }
  // A row's MACs per instruction against that peak, in percent, or nothing.
  std::optional<double> percentOfPeak(const ProfileRow& row) const;
  const QList<ProfileRow>& profileRows() const { return rows_; }
  // Board time per imported-model operator (fused calls split evenly).
  const std::vector<double>& operatorTimes() const { return operatorTimes_; }
  // The last successful run's debug findings; none after a plain run.
  const std::optional<DebugFindings>& debugFindings() const { return debug_; }

  bool waitUntilIdle(int timeoutMs = 300000);
  // Whether the worker of a run, a cancelled one too, is still busy.
  bool isWorking() const { return watcher_.isRunning(); }

 signals:
  void started(const QString& platform);
  void progress(const QString& line);
  // A LOG line the board sent during the run (also a "[board] ..." progress line).
  void boardLog(const QString& line);
  void finished();  // succeeded or failed; state() says which
  void failed(const QString& message);
  void profileChanged();
  void runningChanged(bool running);

 private:
  struct Result;
  void onDone();
  void clearProfile();
  // The golden sets of the opened model; the first becomes the inputs.
  void findGoldenSets();

  ModelDocument* document_;
  const deploy::Registries& registries_;
  QStringList inputFiles_;
  deploy::GoldenSets golden_;
  QString goldenSet_;
  State state_ = State::Idle;
  bool running_ = false;
  int generation_ = 0;
  int runningGeneration_ = 0;
  QString error_;
  QString platform_;
  QString boardName_;
  QStringList flash_;
  QString plan_;
  QList<OutputCheck> outputs_;
  deploy::DeploymentTimes times_;
  QString unit_;
  double total_ = 0;
  double peak_ = 0;
  QList<ProfileRow> rows_;
  std::vector<double> operatorTimes_;
  std::optional<DebugFindings> debug_;
  std::stop_source stop_;
  QFutureWatcher<std::shared_ptr<const Result>> watcher_;
};

// What the bundled tuning logs offer a compilation for `request`'s platform
// (driver::CompileRequest::offeredSchedules): their best schedules measured
// on it when request.bundledTuning and no schedules of the user's; else none.
lowering::ScheduleTable offeredSchedules(const BoardRun::Request& request);

}  // namespace loupe::models
