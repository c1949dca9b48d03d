// Loupe's Ethos-U cycle estimate, set against Vela's own for the files of
// tests/data/models/vela (tests/data/models/README.md, section vela/: Vela
// 3.10.0, default system configuration), and the properties that hold for
// any operation: a faster array computes no slower, no kernel beats its MACs
// over the array's MACs per cycle, the engines' timeline is no shorter than
// either engine and no longer than both end to end, and a weight DMA costs
// only what the operator before it does not hide. The system is NXP's Vela
// default (nxpVelaDefaultSystem), which compiled the files. The files are read as
// Loupe reads any model: the importer's EthosU operator and its decoded
// payload (analysis::ethosuPayloadOf).
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "analysis/ethosu_command_listing.h"
#include "frontend/tflite_importer.h"
#include "ir/graph.h"
#include "targets/ethos_u/ethosu_performance.h"
#include "test_data.h"

using namespace loupe::ethosu;

namespace {

struct Reference {
  const char* file;
  double velaNpuCycles;
  // The band the estimate must stay in, as a ratio to Vela's. The goal is
  // 0.75-1.25; the model follows Vela's estimator on NXP's default system
  // closely enough to hold every file 3.10 compiled to 1%.
  double lowest, highest;
};

// Vela's "NPU cycles" (README table). person_detect_vela.tflite (Vela 3.11)
// has no recorded estimate: 3.10's for the same model and NPU stands in, so
// it gets a wider band.
const Reference kReferences[] = {
    {"ethos-u55-128/kws_ref_model_vela.tflite", 82966, 0.99, 1.01},
    {"ethos-u55-256/kws_ref_model_vela.tflite", 47980, 0.99, 1.01},
    {"ethos-u55-128/vww_96_int8_vela.tflite", 204435, 0.99, 1.01},
    {"ethos-u55-256/vww_96_int8_vela.tflite", 126456, 0.99, 1.01},
    {"ethos-u55-128/ic_resnet8_int8_vela.tflite", 183639, 0.99, 1.01},
    {"ethos-u55-256/ic_resnet8_int8_vela.tflite", 114849, 0.99, 1.01},
    {"ethos-u55-128/ad01_int8_vela.tflite", 58847, 0.99, 1.01},
    {"ethos-u55-256/ad01_int8_vela.tflite", 58847, 0.99, 1.01},
    {"ethos-u55-128/person_detect_vela.tflite", 246050, 0.99, 1.01},
    {"ethos-u55-256/person_detect_vela.tflite", 199241, 0.99, 1.01},
    {"person_detect_vela.tflite", 199241, 0.97, 1.03},
};

// A Vela file as the importer reads it; the payload points into the graph.
struct VelaFile {
  loupe::ir::Graph graph;
  loupe::frontend::EthosUPayload payload;
};

std::unique_ptr<VelaFile> load(const std::string& file) {
  auto v = std::make_unique<VelaFile>();
  v->graph = loupe::frontend::importTfliteFile(loupe::test::modelsDir() / "vela" / file);
  int found = 0;
  for (const auto& op : v->graph.operators) {
    if (op.type != loupe::ir::OpType::EthosU) continue;
    v->payload = loupe::analysis::ethosuPayloadOf(v->graph, op);
    ++found;
  }
  if (found != 1) throw std::runtime_error(file + ": expected one ethos-u operator");
  return v;
}

StreamEstimate estimate(const std::string& file, loupe_ethosu_npu_config* npuOut = nullptr) {
  const auto v = load(file);
  const auto npu = npuConfigOf(v->payload);
  if (npuOut != nullptr) *npuOut = npu;
  return estimatePayload(v->payload, nxpVelaDefaultSystem(npu));
}

loupe_ethosu_npu_config npuOf(int accelerator) {
  loupe_ethosu_npu_config c;
  loupe_ethosu_npu_config_init(&c, accelerator);
  return c;
}

bool isKernel(std::uint8_t kind) {
  return kind == LOUPE_ETHOSU_OPERATION_CONV || kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
         kind == LOUPE_ETHOSU_OPERATION_POOL || kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
}

// A 1x1 int8 convolution in SRAM (region 1), weights and scales at `weights`
// in region `weightRegion`.
loupe_ethosu_operation pointwise(std::uint32_t index, std::uint32_t depth, std::uint64_t ifmBase,
                                 std::uint64_t ofmBase, std::uint8_t weightRegion,
                                 std::uint64_t weights, std::uint32_t weightBytes) {
  loupe_ethosu_operation op;
  std::memset(&op, 0, sizeof op);
  op.index = index;
  op.kind = LOUPE_ETHOSU_OPERATION_CONV;
  for (auto* f : {&op.ifm, &op.ofm}) {
    f->region = 1;
    f->precision_bits = 8;
    f->is_signed = 1;
    f->height = 16;
    f->width = 16;
    f->depth = depth;
    f->stride_c = 1;
    f->stride_x = depth;
    f->stride_y = 16 * depth;
  }
  op.ifm.base[0] = ifmBase;
  op.ofm.base[0] = ofmBase;
  op.kernel_height = op.kernel_width = 1;
  op.stride_x = op.stride_y = op.dilation_x = op.dilation_y = 1;
  op.block_height = 16;
  op.block_width = 16;
  op.block_depth = 16;
  op.weight_streams = 1;
  op.weights[0] = {weightRegion, weights, weightBytes};
  op.scales[0] = {weightRegion, weights + weightBytes, 10 * depth};
  op.activation_min = -128;
  op.activation_max = 127;
  return op;
}

loupe_ethosu_operation dma(std::uint32_t index, std::uint64_t from, std::uint64_t to,
                           std::uint64_t bytes) {
  loupe_ethosu_operation op;
  std::memset(&op, 0, sizeof op);
  op.index = index;
  op.kind = LOUPE_ETHOSU_OPERATION_DMA;
  op.dma_src_region = 0;
  op.dma_src = from;
  op.dma_dst_region = 1;
  op.dma_dst = to;
  op.dma_length = bytes;
  return op;
}

}  // namespace

class EthosuEstimateTest : public QObject {
  Q_OBJECT

 private slots:
  void everyFileIsNearVelasEstimate_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("vela");
    QTest::addColumn<double>("lowest");
    QTest::addColumn<double>("highest");
    for (const auto& r : kReferences) {
      QTest::newRow(r.file) << QString(r.file) << r.velaNpuCycles << r.lowest << r.highest;
    }
  }
  void everyFileIsNearVelasEstimate() {
    QFETCH(QString, file);
    QFETCH(double, vela);
    QFETCH(double, lowest);
    QFETCH(double, highest);
    const auto e = estimate(file.toStdString());
    const double ratio = static_cast<double>(e.npuCycles) / vela;
    QVERIFY2(ratio >= lowest && ratio <= highest, qPrintable(QString("ratio %1").arg(ratio)));
  }

  // ad01 (fully connected layers): Vela buffers no weights of a fully
  // connected layer, so the stream has no DMA and the kernels read their
  // weights from DRAM; a 1x1 OFM leaves each block waiting on its bias and
  // scale fetch (DRAM's 500-cycle latency) or the weight decoder, the same
  // on u55-128 and u55-256, as in Vela's estimate. Its weights stream from
  // DRAM at 1.875 bytes/cycle: memory bound overall.
  void fullyConnectedNetworkIsWeightBoundOnBothNpus() {
    const auto e128 = estimate("ethos-u55-128/ad01_int8_vela.tflite");
    const auto e256 = estimate("ethos-u55-256/ad01_int8_vela.tflite");
    QCOMPARE(e128.npuCycles, e256.npuCycles);
    QCOMPARE(e128.dmaCycles, std::uint64_t{0});
    QVERIFY(e128.totalCycles > 3 * e128.npuCycles / 2);
  }

  // person_detect on u55-256: Vela cut the pointwise and depthwise layers of
  // 128 channels into depth slices (weights double-buffered); each slice
  // belongs to the operator of its first slice, and the operators are fewer
  // than the kernel operations.
  void depthSlicesAreCostedAsTheirOperator() {
    const auto e = estimate("ethos-u55-256/person_detect_vela.tflite");
    QVERIFY(e.networkOperators < e.kernelOperations);
    int slices = 0;
    for (const auto& op : e.operations) {
      if (!isKernel(op.kind)) continue;
      QVERIFY(op.operatorStart <= op.index);
      if (op.operatorStart < op.index) ++slices;
    }
    QCOMPARE(static_cast<std::uint32_t>(slices), e.kernelOperations - e.networkOperators);
  }

  // A weight DMA from flash costs what the operator before it does not hide
  // (single buffer): none after a long one, its whole transfer after none.
  void weightDmaCostsWhatThePreviousOperatorDoesNotHide() {
    const auto npu = npuOf(LOUPE_ETHOSU_U55_128);
    const auto system = velaDefaultSystem(npu);
    const auto first = pointwise(0, 64, 0, 16384, 0, 0, 4096);
    const auto firstAlone = estimateOperation(first, npu, system).computeCycles;
    // 512 bytes of weights and 160 of scales, 672 + 64 cycles from flash.
    std::vector<loupe_ethosu_operation> ops = {first, dma(1, 8192, 32768, 672),
                                               pointwise(2, 16, 16384, 0, 1, 32768, 512)};
    const auto secondAlone = estimateOperation(ops[2], npu, system).computeCycles;
    QVERIFY(firstAlone > 672 + 64);
    auto e = estimateOperations(ops, npu, system);
    QCOMPARE(e.npuCycles, firstAlone + secondAlone);
    QCOMPARE(e.networkOperators, std::uint32_t{2});
    // First in the stream, nothing hides it.
    std::vector<loupe_ethosu_operation> alone = {dma(0, 8192, 32768, 672),
                                                 pointwise(1, 16, 16384, 0, 1, 32768, 512)};
    e = estimateOperations(alone, npu, system);
    QCOMPARE(e.npuCycles, secondAlone + 672 + 64);
    QCOMPARE(e.operations.at(0).npuCycles, std::uint64_t{0});
  }

  void timelineLiesBetweenEitherEngineAndBothEndToEnd_data() {
    QTest::addColumn<QString>("file");
    for (const auto& r : kReferences) QTest::newRow(r.file) << QString(r.file);
  }
  void timelineLiesBetweenEitherEngineAndBothEndToEnd() {
    QFETCH(QString, file);
    const auto e = estimate(file.toStdString());
    QVERIFY(e.timelineCycles >= std::max(e.computeCycles, e.dmaCycles));
    QVERIFY(e.timelineCycles <= e.computeCycles + e.dmaCycles);
    // Per operation the NPU cycles add up to the stream's.
    std::uint64_t sum = 0;
    for (const auto& op : e.operations) sum += op.npuCycles;
    QCOMPARE(sum, e.npuCycles);
    QVERIFY(e.totalCycles >= e.npuCycles);
  }

  void noKernelBeatsItsMacsOverTheArray_data() {
    QTest::addColumn<QString>("file");
    for (const auto& r : kReferences) QTest::newRow(r.file) << QString(r.file);
  }
  void noKernelBeatsItsMacsOverTheArray() {
    QFETCH(QString, file);
    loupe_ethosu_npu_config npu;
    const auto e = estimate(file.toStdString(), &npu);
    const std::uint64_t macsPerCycle = std::uint64_t{1} << npu.log2_macs;
    int kernels = 0;
    for (const auto& op : e.operations) {
      if (!isKernel(op.kind)) continue;
      ++kernels;
      QVERIFY2(op.computeCycles * macsPerCycle >= op.macs,
               qPrintable(QString("operation %1 (%2): %3 cycles for %4 MACs")
                              .arg(op.index)
                              .arg(QString::fromStdString(op.name))
                              .arg(op.computeCycles)
                              .arg(op.macs)));
      QVERIFY(op.computeCycles > 0);
    }
    QVERIFY(kernels > 0);
  }

  // The same operations on a bigger array (same micro-block depth, same
  // system): never slower once they have work for the array (10,000 MACs;
  // below that memory latency rules, and an IFM block rounded to the wider
  // micro-block can cost a cycle more), and kws's convolutions together at least a third
  // faster from 64 to 256 MACs/cycle. (u55-32's micro-blocks are 4 deep: it
  // takes weights in half the cycles per micro-block, so a tiny weight-bound
  // layer, kws's last, is faster there than on u55-64, in Vela's model too.)
  void moreMacsPerCycleNeverComputeSlower() {
    const auto v = load("ethos-u55-128/kws_ref_model_vela.tflite");
    const auto& ops = v->payload.streams.at(0).operations;
    const int accelerators[] = {LOUPE_ETHOSU_U55_64, LOUPE_ETHOSU_U55_128, LOUPE_ETHOSU_U55_256};
    std::uint64_t conv64 = 0, conv256 = 0;
    int compared = 0;
    for (const auto& op : ops) {
      if (!isKernel(op.kind)) continue;
      {
        const auto npu = npuOf(LOUPE_ETHOSU_U55_64);
        if (estimateOperation(op, npu, velaDefaultSystem(npu)).macs < 10000) continue;
      }
      ++compared;
      std::uint64_t previous = UINT64_MAX;
      for (int a : accelerators) {
        const auto npu = npuOf(a);
        const auto cycles = estimateOperation(op, npu, velaDefaultSystem(npu)).computeCycles;
        QVERIFY2(cycles <= previous, qPrintable(QString("operation %1").arg(op.index)));
        previous = cycles;
        if (op.kind == LOUPE_ETHOSU_OPERATION_CONV && a == LOUPE_ETHOSU_U55_64) conv64 += cycles;
        if (op.kind == LOUPE_ETHOSU_OPERATION_CONV && a == LOUPE_ETHOSU_U55_256) conv256 += cycles;
      }
    }
    QVERIFY(compared >= 10);
    QVERIFY(conv256 * 3 <= conv64 * 2);
  }

  // A DMA from flash: a byte per cycle after the flash's 64-cycle latency;
  // from SRAM to SRAM 8 bytes per cycle after 32.
  void dmaCostsItsBytesAtTheSlowerSide() {
    loupe_ethosu_operation op;
    std::memset(&op, 0, sizeof op);
    op.kind = LOUPE_ETHOSU_OPERATION_DMA;
    op.dma_length = 4096;
    op.dma_src_region = 0;
    op.dma_dst_region = 1;
    const auto npu = npuOf(LOUPE_ETHOSU_U55_128);
    const auto system = velaDefaultSystem(npu);
    auto e = estimateOperation(op, npu, system);
    QCOMPARE(e.dmaCycles, std::uint64_t{4096 + 64});
    QCOMPARE(e.memory.at(1).bytesRead, std::uint64_t{4096});
    QCOMPARE(e.memory.at(0).bytesWritten, std::uint64_t{4096});
    op.dma_src_region = 1;
    e = estimateOperation(op, npu, system);
    QCOMPARE(e.dmaCycles, std::uint64_t{4096 / 8 + 32});
  }

  // A 1x1 convolution, 64x64x64 to 64x64x64, int8, in 16 blocks of 16x16x64
  // on u55-256: 16,777,216 MACs, and cycles within 25% of the array's 65,536
  // (4 cycles per micro-block and 32 IFM channels; the output unit, as fast
  // here, overlaps all blocks but one).
  void pointwiseConvolutionRunsNearTheArraysPeak() {
    loupe_ethosu_operation op;
    std::memset(&op, 0, sizeof op);
    op.kind = LOUPE_ETHOSU_OPERATION_CONV;
    for (auto* f : {&op.ifm, &op.ofm}) {
      f->region = 1;
      f->precision_bits = 8;
      f->is_signed = 1;
      f->height = 64;
      f->width = 64;
      f->depth = 64;
    }
    op.kernel_height = op.kernel_width = 1;
    op.stride_x = op.stride_y = op.dilation_x = op.dilation_y = 1;
    op.block_height = 16;
    op.block_width = 16;
    op.block_depth = 64;
    op.weight_streams = 1;
    op.weights[0] = {1, 0, 4096};
    op.scales[0] = {1, 4096, 640};
    op.activation_min = -128;
    op.activation_max = 127;
    const auto npu = npuOf(LOUPE_ETHOSU_U55_256);
    const auto e = estimateOperation(op, npu, velaDefaultSystem(npu));
    QCOMPARE(e.macs, std::uint64_t{64 * 64 * 64 * 64});
    const double ideal = static_cast<double>(e.macs) / 256.0;
    QVERIFY2(e.computeCycles >= ideal && e.computeCycles <= 1.25 * ideal,
             qPrintable(QString::number(e.computeCycles)));
  }

  void malformedPayloadsAreNamedErrors() {
    const std::uint8_t notAPayload[8] = {'T', 'F', 'L', '3', 0, 0, 0, 0};
    const auto npu = npuOf(LOUPE_ETHOSU_U55_128);
    QVERIFY_THROWS_EXCEPTION(EstimateError, estimatePayload(notAPayload, sizeof notAPayload, npu,
                                                            velaDefaultSystem(npu)));
    QVERIFY_THROWS_EXCEPTION(EstimateError, payloadNpuConfig(notAPayload, sizeof notAPayload));
  }
};

QTEST_APPLESS_MAIN(EthosuEstimateTest)
#include "estimate_test.moc"
