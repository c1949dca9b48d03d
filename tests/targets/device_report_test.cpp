// The device report of a partitioned model (target/device_report): every
// operator's device and estimate, per-device totals that add up, the NPU's
// estimates falling as its MAC configuration grows, and the totals in the
// device mapping that metadata.json carries. On kws_ref_model, whose
// convolutions all go to the NPU.
#include <QtTest>

#include "analysis/device_mapping.h"
#include "analysis/operator_cost.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "target/device_report.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;

namespace {

struct Partitioned {
  ir::Graph graph;
  target::TargetList targets;
};

Partitioned kwsPartitionedFor(const char* targetString) {
  Partitioned result;
  result.targets = target::parseTargetString(targetString, targets::builtinTargetRegistry());
  passes::StageTimeline timeline;
  passes::PassContext context;
  const ir::Graph imported =
      frontend::importTfliteFile(test::modelsDir() / "kws_ref_model" / "model.tflite");
  result.graph = passes::runPartitionPipeline(passes::runGraphPipeline(imported, timeline, context),
                                              result.targets, timeline, context);
  return result;
}

}  // namespace

class DeviceReport : public QObject {
  Q_OBJECT

 private slots:
  void everyOperatorHasItsDeviceAndTheTotalsAddUp() {
    const Partitioned kws = kwsPartitionedFor("npu -config=npu-128, c");
    const target::DeviceReport report = target::deviceReport(kws.graph, kws.targets);
    QCOMPARE(report.operators.size(), kws.graph.operators.size());
    QCOMPARE(report.devices.size(), std::size_t{2});
    const target::DeviceTotals& npu = report.devices[0];
    const target::DeviceTotals& host = report.devices[1];
    QCOMPARE(npu.device, std::string("npu"));
    QCOMPARE(npu.displayName, std::string("NPU (Ethos-U55-like) npu-128"));
    QCOMPARE(host.device, std::string(target::kHostDeviceName));
    QVERIFY(!host.estimatedCycles);  // the CPU has no cycle model

    int npuOperators = 0;
    std::int64_t npuCycles = 0;
    std::int64_t macs = 0;
    for (const target::OperatorPlacementRow& row : report.operators) {
      const ir::Operator& op = kws.graph.operators[static_cast<std::size_t>(row.operatorIndex)];
      QCOMPARE(row.macs, analysis::operatorCost(kws.graph, op).macs);
      macs += row.macs;
      if (op.type == ir::OpType::Conv2D || op.type == ir::OpType::DepthwiseConv2D) {
        QCOMPARE(row.device, std::string("npu"));
      }
      if (row.device == "npu") {
        ++npuOperators;
        QVERIFY2(row.estimate, row.type.c_str());
        QCOMPARE(row.estimate->estimatedCycles,
                 std::max(row.estimate->computeCycles, row.estimate->memoryCycles));
        QVERIFY(row.estimate->utilization > 0.0 && row.estimate->utilization <= 1.0);
        QCOMPARE(row.region.rfind("npu_", 0), std::size_t{0});
        npuCycles += row.estimate->estimatedCycles;
      } else {
        QCOMPARE(row.device, std::string("host"));
        QVERIFY(!row.estimate);
        QVERIFY(row.region.empty());
        QVERIFY2(!row.rejections.empty(), row.type.c_str());  // the NPU said why not
        QCOMPARE(row.rejections.front().rfind("npu: ", 0), std::size_t{0});
      }
    }
    QCOMPARE(npu.operators, npuOperators);
    QCOMPARE(npu.operators + host.operators, static_cast<int>(kws.graph.operators.size()));
    QCOMPARE(npu.macs + host.macs, macs);
    QCOMPARE(npu.macs + host.macs, analysis::graphCost(kws.graph).macs);
    QVERIFY(npu.estimatedCycles);
    QCOMPARE(*npu.estimatedCycles, npuCycles);
  }

  void estimatesFallAsTheMacConfigurationGrows() {
    const Partitioned kws = kwsPartitionedFor("npu -config=npu-64, c");
    const auto sweep = target::estimatesAcrossConfigurations(kws.graph, *kws.targets[0],
                                                             targets::builtinTargetRegistry());
    QCOMPARE(sweep.size(), std::size_t{4});
    const char* labels[] = {"npu-32", "npu-64", "npu-128", "npu-256"};
    std::int64_t previousTotal = 0;
    for (std::size_t c = 0; c < sweep.size(); ++c) {
      QCOMPARE(sweep[c].label, std::string(labels[c]));
      QCOMPARE(sweep[c].configuration, std::string("npu -config=") + labels[c]);
      std::int64_t total = 0;
      for (std::size_t i = 0; i < kws.graph.operators.size(); ++i) {
        const auto cycles = sweep[c].cyclesByOperator[i];
        QCOMPARE(bool(cycles), kws.graph.operators[i].placement.target == "npu");
        if (!cycles) continue;
        total += *cycles;
        if (c > 0) QVERIFY(*cycles <= *sweep[c - 1].cyclesByOperator[i]);
      }
      if (c > 0) QVERIFY2(total < previousTotal, labels[c]);
      previousTotal = total;
    }
    // The chosen configuration's column is the report's estimate.
    const target::DeviceReport report = target::deviceReport(kws.graph, kws.targets);
    QCOMPARE(*report.devices[0].estimatedCycles, [&] {
      std::int64_t sum = 0;
      for (const auto& cycles : sweep[1].cyclesByOperator) sum += cycles.value_or(0);
      return sum;
    }());
  }

  void theCpuAloneHasNoEstimatesAndNoConfigurations() {
    const Partitioned kws = kwsPartitionedFor("c");
    const target::DeviceReport report = target::deviceReport(kws.graph, kws.targets);
    QCOMPARE(report.devices.size(), std::size_t{1});
    QCOMPARE(report.devices[0].operators, static_cast<int>(kws.graph.operators.size()));
    QVERIFY(target::estimatesAcrossConfigurations(kws.graph, *kws.targets[0],
                                                  targets::builtinTargetRegistry())
                .empty());
  }

  void theDeviceMappingCarriesTheTotalsAndEstimates() {
    const Partitioned kws = kwsPartitionedFor("npu -config=npu-128, c");
    const target::DeviceReport report = target::deviceReport(kws.graph, kws.targets);
    nlohmann::json mapping = analysis::deviceMappingJson(kws.graph);
    target::addDeviceReport(mapping, report);
    QCOMPARE(mapping["devices"].size(), std::size_t{2});
    QCOMPARE(mapping["devices"][0]["estimated_cycles"].get<std::int64_t>(),
             *report.devices[0].estimatedCycles);
    QVERIFY(mapping["devices"][1]["estimated_cycles"].is_null());
    for (const nlohmann::json& op : mapping["operators"]) {
      const bool onNpu = op["target"] == "npu";
      QCOMPARE(op["device"].get<std::string>(), std::string(onNpu ? "npu" : "host"));
      QCOMPARE(op["estimate"].is_null(), !onNpu);
      if (onNpu) QVERIFY(op["estimate"]["estimated_cycles"].get<std::int64_t>() > 0);
    }
  }
};

QTEST_APPLESS_MAIN(DeviceReport)
#include "device_report_test.moc"
