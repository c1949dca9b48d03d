// Loupe's Ethos-U cycle estimate, set against Vela's own for the files of
// tests/data/models/vela (tests/data/models/README.md, section vela/: Vela
// 3.10.0, default system configuration), and the properties that hold for
// any operation: a faster array computes no slower, no kernel beats its MACs
// over the array's MACs per cycle, the engines' timeline is no shorter than
// either engine and no longer than both end to end.
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "targets/ethos_u/ethosu_performance.h"
#include "targets/ethos_u/ethosu_vela_file.h"
#include "test_data.h"

using namespace loupe::ethosu;

namespace {

struct Reference {
  const char* file;
  double velaNpuCycles;
};

// Vela's "NPU cycles" (README table). person_detect_vela.tflite (Vela 3.11)
// has no recorded estimate: 3.10's for the same model and NPU stands in.
const Reference kReferences[] = {
    {"ethos-u55-128/kws_ref_model_vela.tflite", 82966},
    {"ethos-u55-256/kws_ref_model_vela.tflite", 47980},
    {"ethos-u55-128/vww_96_int8_vela.tflite", 204435},
    {"ethos-u55-256/vww_96_int8_vela.tflite", 126456},
    {"ethos-u55-128/ic_resnet8_int8_vela.tflite", 183639},
    {"ethos-u55-256/ic_resnet8_int8_vela.tflite", 114849},
    {"ethos-u55-128/ad01_int8_vela.tflite", 58847},
    {"ethos-u55-256/ad01_int8_vela.tflite", 58847},
    {"ethos-u55-128/person_detect_vela.tflite", 246050},
    {"ethos-u55-256/person_detect_vela.tflite", 199241},
    {"person_detect_vela.tflite", 199241},
};

VelaCustomOperator load(const std::string& file) {
  const auto ops = readVelaCustomOperators(loupe::test::modelsDir() / "vela" / file);
  if (ops.size() != 1) throw std::runtime_error(file + ": expected one ethos-u operator");
  return ops.front();
}

StreamEstimate estimate(const VelaCustomOperator& op, loupe_ethosu_npu_config* npuOut = nullptr) {
  const auto npu = payloadNpuConfig(op.payload.data(), op.payload.size());
  if (npuOut != nullptr) *npuOut = npu;
  return estimatePayload(op.payload.data(), op.payload.size(), npu, velaDefaultSystem(npu));
}

loupe_ethosu_npu_config npuOf(int accelerator) {
  loupe_ethosu_npu_config c;
  loupe_ethosu_npu_config_init(&c, accelerator);
  return c;
}

// Every decoded operation of a file's payload.
std::vector<loupe_ethosu_operation> operationsOf(const VelaCustomOperator& op) {
  const std::uint8_t* stream = nullptr;
  std::uint32_t words = 0;
  loupe_ethosu_error err;
  if (loupe_ethosu_payload_parse(op.payload.data(), op.payload.size(), nullptr, &stream, &words,
                                 &err) != 0) {
    throw std::runtime_error(err.message);
  }
  std::vector<loupe_ethosu_operation> ops;
  loupe_ethosu_command_decoder decoder;
  loupe_ethosu_command_decoder_init(&decoder, stream, words);
  loupe_ethosu_operation o;
  while (loupe_ethosu_command_decoder_next(&decoder, &o, &err) == 1) ops.push_back(o);
  return ops;
}

bool isKernel(std::uint8_t kind) {
  return kind == LOUPE_ETHOSU_OPERATION_CONV || kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
         kind == LOUPE_ETHOSU_OPERATION_POOL || kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
}

}  // namespace

class EthosuEstimateTest : public QObject {
  Q_OBJECT

 private slots:
  // kws, vww and ic_resnet8 on both NPUs: within 15% of Vela (the goal is 25%).
  void convolutionalNetworksAreWithinFifteenPercentOfVela_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("vela");
    for (const auto& r : kReferences) {
      const std::string f = r.file;
      if (f.find("kws") != std::string::npos || f.find("vww") != std::string::npos ||
          f.find("resnet") != std::string::npos) {
        QTest::newRow(r.file) << QString(r.file) << r.velaNpuCycles;
      }
    }
  }
  void convolutionalNetworksAreWithinFifteenPercentOfVela() {
    QFETCH(QString, file);
    QFETCH(double, vela);
    const auto e = estimate(load(file.toStdString()));
    const double ratio = static_cast<double>(e.npuCycles) / vela;
    QVERIFY2(ratio >= 0.85 && ratio <= 1.15, qPrintable(QString("ratio %1").arg(ratio)));
    // Their compute alone is Vela's number within 15% too: Vela hides most
    // of the weight DMA under the previous operation, as the timeline does.
    const double computeRatio = static_cast<double>(e.computeCycles) / vela;
    QVERIFY2(computeRatio >= 0.85 && computeRatio <= 1.15,
             qPrintable(QString("compute ratio %1").arg(computeRatio)));
  }

  // ad01 (fully connected layers, weights read from flash by the kernel, no
  // DMA): the same on u55-128 and u55-256 as Vela's, because a 1x1 OFM
  // leaves the array weight-bound; but 31% below Vela's 58,847 (not found why).
  void fullyConnectedNetworkIsWeightBoundOnBothNpus() {
    const auto e128 = estimate(load("ethos-u55-128/ad01_int8_vela.tflite"));
    const auto e256 = estimate(load("ethos-u55-256/ad01_int8_vela.tflite"));
    QCOMPARE(e128.npuCycles, e256.npuCycles);
    QCOMPARE(e128.dmaCycles, std::uint64_t{0});
    QVERIFY(e128.npuCycles > 0.6 * 58847 && e128.npuCycles < 58847);
    // Its weights stream from flash at 1 byte/cycle: memory bound overall.
    QVERIFY(e128.totalCycles > 3 * e128.npuCycles);
  }

  // person_detect's weights (230 KiB) are DMA'd from flash at 1 byte/cycle:
  // more cycles than Vela's whole estimate on u55-256. The timeline cannot
  // finish before its DMAs, so it stays above Vela (by 36-46%), which leaves
  // DMA time of cascaded operations out of its sum.
  void personDetectIsBoundByItsWeightDma_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("vela");
    for (const auto& r : kReferences) {
      if (std::string(r.file).find("person_detect") != std::string::npos) {
        QTest::newRow(r.file) << QString(r.file) << r.velaNpuCycles;
      }
    }
  }
  void personDetectIsBoundByItsWeightDma() {
    QFETCH(QString, file);
    QFETCH(double, vela);
    const auto e = estimate(load(file.toStdString()));
    QVERIFY(e.npuCycles >= e.dmaCycles);
    QVERIFY(e.npuCycles > vela);
    QVERIFY(e.npuCycles < 1.5 * vela);
  }

  void timelineLiesBetweenEitherEngineAndBothEndToEnd_data() {
    QTest::addColumn<QString>("file");
    for (const auto& r : kReferences) QTest::newRow(r.file) << QString(r.file);
  }
  void timelineLiesBetweenEitherEngineAndBothEndToEnd() {
    QFETCH(QString, file);
    const auto e = estimate(load(file.toStdString()));
    QVERIFY(e.npuCycles >= std::max(e.computeCycles, e.dmaCycles));
    QVERIFY(e.npuCycles <= e.computeCycles + e.dmaCycles);
    // Per operation the NPU cycles add up to the stream's (plus a DMA tail).
    std::uint64_t sum = 0;
    for (const auto& op : e.operations) sum += op.npuCycles;
    QVERIFY(sum <= e.npuCycles);
    QVERIFY(e.totalCycles >= e.npuCycles);
  }

  void noKernelBeatsItsMacsOverTheArray_data() {
    QTest::addColumn<QString>("file");
    for (const auto& r : kReferences) QTest::newRow(r.file) << QString(r.file);
  }
  void noKernelBeatsItsMacsOverTheArray() {
    QFETCH(QString, file);
    loupe_ethosu_npu_config npu;
    const auto e = estimate(load(file.toStdString()), &npu);
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
    const auto ops = operationsOf(load("ethos-u55-128/kws_ref_model_vela.tflite"));
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
