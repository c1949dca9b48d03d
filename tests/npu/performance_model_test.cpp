// The NPU performance model: the formulas of docs/npu.md on a hand-checked
// operation, and on kws_ref_model's convolutions an estimate that never grows
// from the 32-MAC to the 256-MAC configuration and whose total falls.
#include <QtTest>

#include "npu_test_support.h"
#include "targets/npu/performance_model.h"

using namespace loupe;
using namespace loupe::npu;

class NpuPerformanceModelTest : public QObject {
  Q_OBJECT

 private slots:
  void theFormulasOnAHandCheckedConvolution() {
    // 1x1 convolution, IFM 5x4x20, OFM 5x4x12.
    NpuOperation op;
    op.kind = NpuOperationKind::Conv2D;
    op.ifm = contiguousFeatureMap(LOUPE_NPU_REGION_IFM, 5, 4, 20);
    op.ofm = contiguousFeatureMap(LOUPE_NPU_REGION_OFM, 5, 4, 12);
    op.weights.length = 200;
    op.scales.length = 120;
    // 256 MACs: micro-block 2x2x8 -> ceil(5/2) * ceil(4/2) * ceil(12/8) = 3*2*2 = 12
    // micro-blocks, each ceil(20/8) = 3 cycles per kernel point.
    const NpuPerformance p = estimatePerformance(op, npuConfig(MacConfig::Macs256));
    QCOMPARE(p.macs, std::int64_t{5 * 4 * 12 * 20});
    QCOMPARE(p.macCycles, std::int64_t{12 * 3});
    QCOMPARE(p.idealMacCycles, 4800.0 / 256.0);
    // IFM 400 + OFM 240 + weights 200 + scales 120 bytes at 8 per cycle.
    QCOMPARE(p.bytesMoved, std::int64_t{960});
    QCOMPARE(p.memoryCycles, std::int64_t{120});
    QCOMPARE(p.estimatedCycles, std::int64_t{120});
    QCOMPARE(p.utilization, (4800.0 / 256.0) / 120.0);
    // 32 MACs: micro-block 1x1x4 -> 5*4*3 = 60 micro-blocks * 3 = 180 cycles, MAC-bound.
    const NpuPerformance small = estimatePerformance(op, npuConfig(MacConfig::Macs32));
    QCOMPARE(small.macCycles, std::int64_t{180});
    QCOMPARE(small.estimatedCycles, std::int64_t{180});
  }

  void depthwiseAndElementwiseUseOneLanePerChannel() {
    NpuOperation dw;
    dw.kind = NpuOperationKind::DepthwiseConv2D;
    dw.ifm = contiguousFeatureMap(LOUPE_NPU_REGION_IFM, 4, 4, 16);
    dw.ofm = dw.ifm;
    dw.kernel.height = dw.kernel.width = 3;
    const NpuPerformance p = estimatePerformance(dw, npuConfig(MacConfig::Macs64));
    QCOMPARE(p.macCycles, std::int64_t{4 * 4 * 2 * 9});  // micro-block 1x1x8
    NpuOperation add;
    add.kind = NpuOperationKind::Add;
    add.ifm = add.ifm2 = add.ofm = contiguousFeatureMap(LOUPE_NPU_REGION_IFM, 4, 4, 16);
    const NpuPerformance a = estimatePerformance(add, npuConfig(MacConfig::Macs64));
    QCOMPARE(a.macCycles, std::int64_t{32});
    QCOMPARE(a.memoryCycles, std::int64_t{3 * 256 / 8});
  }

  void kwsConvolutionsGetNoSlowerAsTheConfigurationGrows() {
    const ir::Graph graph = test::loadModel("kws_ref_model");
    std::vector<std::int64_t> totals;
    std::map<int, std::vector<std::int64_t>> perOperator;
    for (MacConfig config : kAllMacConfigs) {
      std::int64_t total = 0;
      for (const ir::Operator& op : graph.operators) {
        if ((op.type != ir::OpType::Conv2D && op.type != ir::OpType::DepthwiseConv2D) ||
            !test::isNpuEligible(graph, op)) {
          continue;
        }
        const NpuPerformance p = compileNpuOperator(graph, op, config).performance;
        perOperator[op.index].push_back(p.estimatedCycles);
        total += p.estimatedCycles;
        qInfo().noquote() << QString(
                                 "%1 op %2 %3: MACs %4, MAC cycles %5, memory cycles %6, "
                                 "estimate %7, utilisation %8")
                                 .arg(QString::fromStdString(macConfigName(config)))
                                 .arg(op.index)
                                 .arg(QString::fromStdString(op.typeName()))
                                 .arg(p.macs)
                                 .arg(p.macCycles)
                                 .arg(p.memoryCycles)
                                 .arg(p.estimatedCycles)
                                 .arg(p.utilization, 0, 'f', 3);
      }
      qInfo().noquote() << QString("%1 total: %2 cycles")
                               .arg(QString::fromStdString(macConfigName(config)))
                               .arg(total);
      totals.push_back(total);
    }
    QCOMPARE(perOperator.size(), std::size_t{9});
    for (const auto& [index, cycles] : perOperator) {
      for (std::size_t i = 1; i < cycles.size(); ++i) {
        QVERIFY2(cycles[i] <= cycles[i - 1], ("operator " + std::to_string(index)).c_str());
      }
    }
    for (std::size_t i = 1; i < totals.size(); ++i) QVERIFY(totals[i] < totals[i - 1]);
  }
};

QTEST_GUILESS_MAIN(NpuPerformanceModelTest)
#include "performance_model_test.moc"
