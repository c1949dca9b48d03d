// Which device runs each operator of the compiled model and what it costs
// there, as plain Qt data for the Device Mapping view, the graph's target
// colours and Properties: target::deviceReport of the partitioned graph (the
// numbers `loupec compile --report` prints), the members of the generated
// `struct tvmgen_<name>_devices`, and the NPU's cycles in every MAC
// configuration. Rows are the partitioned (fused) graph's operators; each
// knows the model operators it came from, so a row selects the operator the
// other views show.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/npu_stream_listing.h"
#include "target/operator_estimate.h"
#include "target/target_registry.h"

namespace loupe::ir {
struct Graph;
}
namespace loupe::target {
struct DeviceReport;
class Target;
}  // namespace loupe::target

namespace loupe::models {

struct DeviceOperatorRow {
  int operatorIndex = -1;     // in the partitioned graph
  QList<int> modelOperators;  // the imported operators it was fused from
  QString type;               // "CONV_2D"
  QString target;             // "ethos-u", "c"; empty when no target took it
  QString targetDisplayName;  // "Ethos-U ethos-u55-128"
  QString device;             // "ethos-u", "host"
  QString region;             // "ethos-u_0"; empty in main
  qint64 macs = 0;
  // The target's estimate; none on a target without a cycle model.
  std::optional<target::OperatorEstimate> estimate;
  // Why other targets refused it: "ethos-u: ...", one per reason.
  QStringList rejections;
  // An Ethos-U operator the compiler made of a region: its command stream,
  // listed with every command (the Command Stream view shows it for each
  // operator of the region); null for every other operator.
  std::shared_ptr<const NpuStreamListing> npuStream;
  // Such an operator whose stream could not be split among its model
  // operators (targets/ethos_u/ethosu_operator_cycles.h): why.
  QString npuCyclesError;
};

struct DeviceTotalsRow {
  QString device;       // "ethos-u"
  QString target;       // "ethos-u -accelerator_config=ethos-u55-128"
  QString displayName;  // "Ethos-U ethos-u55-128"
  int operators = 0;
  qint64 macs = 0;
  std::optional<qint64> estimatedCycles;  // none: the target has no cycle model
};

// One MAC configuration of a target with a performance model.
struct ConfigurationCycles {
  QString label;  // "ethos-u55-32"
  // Per row of DeviceMapping::operators; none for operators the target does not run.
  QList<std::optional<qint64>> cyclesByRow;
  qint64 total = 0;
};

struct DeviceMapping {
  QString targetString;  // "ethos-u -accelerator_config=ethos-u55-128, c"
  QList<DeviceTotalsRow> devices;
  QString devicesStruct;      // "tvmgen_default_devices"
  QStringList deviceMembers;  // empty: the run function takes no devices
  QList<DeviceOperatorRow> operators;
  QString configurationsTarget;  // the display name of the target the sweep is of
  QList<ConfigurationCycles> configurations;
  // Row of `operators` per imported operator, -1 when none (folded away).
  QList<int> rowOfModelOperator;
  // Per imported operator, the estimated NPU cycles of the operations an
  // Ethos-U operator compiled from a region runs for it (the performance
  // model's per-operation NPU cycles, a view's 0); none for operators the
  // NPU does not run. A region's figures add up to its estimate's
  // computeCycles.
  QList<std::optional<qint64>> npuCyclesOfModelOperator;

  bool isEmpty() const { return operators.isEmpty(); }
  // The row holding imported operator `modelOperator`, or nullptr.
  const DeviceOperatorRow* rowFor(int modelOperator) const;
};

// `targets` are the ones the graph was partitioned for; `devices` the
// compiled model's device names; `modelName` the generated code's <name>;
// `modelOperatorCount` the imported graph's operator count; `registry` makes
// the target in each of its configurations for the sweep.
DeviceMapping deviceMappingOf(const ir::Graph& partitioned, const target::DeviceReport& report,
                              const std::vector<std::shared_ptr<const target::Target>>& targets,
                              const std::vector<std::string>& devices, const QString& modelName,
                              int modelOperatorCount, const target::TargetRegistry& registry);

}  // namespace loupe::models
