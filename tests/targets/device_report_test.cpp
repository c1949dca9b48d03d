// The device report of a partitioned model (target/device_report): every
// operator's device and estimate, per-device totals that add up, the
// Ethos-U's estimates falling as its MAC configuration grows, and the totals
// in the device mapping that metadata.json carries. On kws_ref_model, all of
// whose operators but the SOFTMAX become one Ethos-U operator.
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
    const Partitioned kws = kwsPartitionedFor("ethos-u -accelerator_config=ethos-u55-128, c");
    const target::DeviceReport report = target::deviceReport(kws.graph, kws.targets);
    QCOMPARE(report.operators.size(), kws.graph.operators.size());
    QCOMPARE(report.devices.size(), std::size_t{2});
    const target::DeviceTotals& npu = report.devices[0];
    const target::DeviceTotals& host = report.devices[1];
    QCOMPARE(npu.device, std::string("ethos-u"));
    QCOMPARE(npu.displayName, std::string("Ethos-U ethos-u55-128"));
    QCOMPARE(report.operators.size(), std::size_t{1});  // the Ethos-U operator, SOFTMAX in it
    QCOMPARE(host.device, std::string(target::kHostDeviceName));
    QVERIFY(!host.estimatedCycles);  // the CPU has no cycle model

    int npuOperators = 0;
    std::int64_t npuCycles = 0;
    std::int64_t macs = 0;
    for (const target::OperatorPlacementRow& row : report.operators) {
      const ir::Operator& op = kws.graph.operators[static_cast<std::size_t>(row.operatorIndex)];
      QCOMPARE(row.macs, analysis::operatorCost(kws.graph, op).macs);
      macs += row.macs;
      QCOMPARE(row.device, std::string(op.type == ir::OpType::EthosU ? "ethos-u" : "host"));
      if (row.device == "ethos-u") {
        ++npuOperators;
        QVERIFY2(row.estimate, row.type.c_str());
        QCOMPARE(row.estimate->estimatedCycles,
                 std::max(row.estimate->computeCycles, row.estimate->memoryCycles));
        QVERIFY(row.estimate->utilization > 0.0 && row.estimate->utilization <= 1.0);
        QCOMPARE(row.region, std::string("ethos-u_0"));
        npuCycles += row.estimate->estimatedCycles;
      } else {
        QCOMPARE(row.device, std::string("host"));
        QVERIFY(!row.estimate);
        QVERIFY(row.region.empty());
        QVERIFY2(!row.rejections.empty(), row.type.c_str());  // the NPU said why not
        QCOMPARE(row.rejections.front().rfind("ethos-u: ", 0), std::size_t{0});
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
    const Partitioned kws = kwsPartitionedFor("ethos-u -accelerator_config=ethos-u55-64, c");
    const auto sweep = target::estimatesAcrossConfigurations(kws.graph, *kws.targets[0],
                                                             targets::builtinTargetRegistry());
    QCOMPARE(sweep.size(), std::size_t{6});
    const char* labels[] = {"ethos-u55-32",  "ethos-u55-64",  "ethos-u55-128",
                            "ethos-u55-256", "ethos-u65-256", "ethos-u65-512"};
    std::int64_t previousTotal = 0;
    // The U55s from 32 to 256 MACs; the U65 after them has other memories.
    for (std::size_t c = 0; c < 4; ++c) {
      QCOMPARE(sweep[c].label, std::string(labels[c]));
      QCOMPARE(sweep[c].configuration, std::string("ethos-u -accelerator_config=") + labels[c]);
      std::int64_t total = 0;
      for (std::size_t i = 0; i < kws.graph.operators.size(); ++i) {
        const auto cycles = sweep[c].cyclesByOperator[i];
        QCOMPARE(bool(cycles), kws.graph.operators[i].placement.target == "ethos-u");
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
    const Partitioned kws = kwsPartitionedFor("ethos-u -accelerator_config=ethos-u55-128, c");
    const target::DeviceReport report = target::deviceReport(kws.graph, kws.targets);
    nlohmann::json mapping = analysis::deviceMappingJson(kws.graph);
    target::addDeviceReport(mapping, report);
    QCOMPARE(mapping["devices"].size(), std::size_t{2});
    QCOMPARE(mapping["devices"][0]["estimated_cycles"].get<std::int64_t>(),
             *report.devices[0].estimatedCycles);
    QVERIFY(mapping["devices"][1]["estimated_cycles"].is_null());
    for (const nlohmann::json& op : mapping["operators"]) {
      const bool onNpu = op["target"] == "ethos-u";
      QCOMPARE(op["device"].get<std::string>(), std::string(onNpu ? "ethos-u" : "host"));
      QCOMPARE(op["estimate"].is_null(), !onNpu);
      if (onNpu) QVERIFY(op["estimate"]["estimated_cycles"].get<std::int64_t>() > 0);
    }
  }
};

QTEST_APPLESS_MAIN(DeviceReport)
#include "device_report_test.moc"
