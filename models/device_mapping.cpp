#include "models/device_mapping.h"

#include <exception>
#include <optional>

#include "ir/graph.h"
#include "target/device_report.h"
#include "targets/ethos_u/ethosu_operator_cycles.h"
#include "targets/ethos_u/ethosu_target.h"

namespace loupe::models {

const DeviceOperatorRow* DeviceMapping::rowFor(int modelOperator) const {
  const int row = rowOfModelOperator.value(modelOperator, -1);
  return row >= 0 ? &operators[row] : nullptr;
}

DeviceMapping deviceMappingOf(const ir::Graph& partitioned, const target::DeviceReport& report,
                              const std::vector<std::shared_ptr<const target::Target>>& targets,
                              const std::vector<std::string>& devices, const QString& modelName,
                              int modelOperatorCount, const target::TargetRegistry& registry) {
  DeviceMapping mapping;
  mapping.targetString = QString::fromStdString(target::targetListString(targets));
  for (const target::DeviceTotals& d : report.devices) {
    mapping.devices.append({QString::fromStdString(d.device), QString::fromStdString(d.target),
                            QString::fromStdString(d.displayName), d.operators, d.macs,
                            d.estimatedCycles});
  }
  mapping.devicesStruct = QStringLiteral("tvmgen_%1_devices").arg(modelName);
  for (const std::string& d : devices) mapping.deviceMembers.append(QString::fromStdString(d));

  mapping.rowOfModelOperator = QList<int>(modelOperatorCount, -1);
  mapping.npuCyclesOfModelOperator = QList<std::optional<qint64>>(modelOperatorCount);
  // The report's rows follow the graph's operators one to one.
  for (std::size_t i = 0; i < report.operators.size(); ++i) {
    const target::OperatorPlacementRow& r = report.operators[i];
    DeviceOperatorRow row;
    row.operatorIndex = r.operatorIndex;
    for (int m : partitioned.operators.at(i).modelOperators()) {
      row.modelOperators.append(m);
      if (m >= 0 && m < modelOperatorCount) mapping.rowOfModelOperator[m] = static_cast<int>(i);
    }
    row.type = QString::fromStdString(r.type);
    row.target = QString::fromStdString(r.target);
    for (const auto& t : targets) {
      if (t->name() == r.target) row.targetDisplayName = QString::fromStdString(t->displayName());
    }
    row.device = QString::fromStdString(r.device);
    row.region = QString::fromStdString(r.region);
    row.macs = r.macs;
    row.estimate = r.estimate;
    for (const std::string& reason : r.rejections)
      row.rejections.append(QString::fromStdString(reason));
    if (partitioned.operators.at(i).type == ir::OpType::EthosU) {
      row.npuStream = std::make_shared<const NpuStreamListing>(
          npuStreamListing(partitioned, static_cast<int>(i), true));
      try {
        // The memories the Ethos-U target compiled for (its -system_config).
        std::optional<ethosu::SystemConfig> system;
        for (const auto& t : targets) {
          if (const auto* npu = dynamic_cast<const targets::ethos_u::EthosUTarget*>(t.get())) {
            system = npu->system();
          }
        }
        for (const auto& figure : targets::ethos_u::npuCyclesPerModelOperator(
                 partitioned, partitioned.operators[i], system ? &*system : nullptr)) {
          if (figure.modelOperator >= 0 && figure.modelOperator < modelOperatorCount) {
            mapping.npuCyclesOfModelOperator[figure.modelOperator] =
                static_cast<qint64>(figure.npuCycles);
          }
        }
      } catch (const std::exception& error) {
        // A Vela operator, or a stream that does not follow its region:
        // its operators go without a figure rather than with a wrong one.
        row.npuCyclesError = QString::fromUtf8(error.what());
      }
    }
    mapping.operators.append(row);
  }

  // The sweep over MAC configurations, of the first target that has one.
  for (const auto& t : targets) {
    const auto sweep = target::estimatesAcrossConfigurations(partitioned, *t, registry);
    if (sweep.empty()) continue;
    mapping.configurationsTarget = QString::fromStdString(t->displayName());
    for (const target::ConfigurationEstimates& column : sweep) {
      ConfigurationCycles cycles;
      cycles.label = QString::fromStdString(column.label);
      for (const auto& value : column.cyclesByOperator) {
        cycles.cyclesByRow.append(value);
        cycles.total += value.value_or(0);
      }
      mapping.configurations.append(cycles);
    }
    break;
  }
  return mapping;
}

}  // namespace loupe::models
