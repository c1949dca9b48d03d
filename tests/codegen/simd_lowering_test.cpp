// The SIMD lowerings of CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD
// (lowering/simd_*.cpp) byte for byte against the reference interpreter, on random operators that
// reach the kernels' edges (support/simd_kernel_cases.h). On the host the
// kernels of loupe/simd_kernels.h compile to their portable C, so this
// checks what the lowering gathers and passes (patches, clipped windows,
// folded offsets, requantisation parameters); the DSP and MVE code itself
// runs on the boards in deploy_simd_kernels.
#include <QtTest>

#include <string>

#include "codegen_checks.h"
#include "simd_kernel_cases.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace simd_lowering_test {

using namespace loupe;

namespace {

// How many functions of the compiled model call `intrinsic`.
int functionsCalling(const codegen::CompiledModel& model, const std::string& intrinsic) {
  int count = 0;
  for (const auto& function : model.functions) {
    if (tir::printPrimFunc(function).find(intrinsic) != std::string::npos) ++count;
  }
  return count;
}

int operatorsOfType(const ir::Graph& graph, ir::OpType type) {
  int count = 0;
  for (const ir::Operator& op : graph.operators) count += op.type == type ? 1 : 0;
  return count;
}

}  // namespace

class SimdLowering : public QObject {
  Q_OBJECT

 private slots:
  void randomOperatorsMatchReference_data() {
    QTest::addColumn<int>("isa");
    QTest::addColumn<int>("seed");
    for (int seed = 1; seed <= 6; ++seed) {
      QTest::newRow(qPrintable(QString("thumb seed %1").arg(seed)))
          << static_cast<int>(target::CpuIsa::Thumb) << seed;
      QTest::newRow(qPrintable(QString("dsp seed %1").arg(seed)))
          << static_cast<int>(target::CpuIsa::Dsp) << seed;
      QTest::newRow(qPrintable(QString("mve seed %1").arg(seed)))
          << static_cast<int>(target::CpuIsa::Mve) << seed;
    }
  }

  // The random cases of the seeds above reach MVE's four-channel
  // convolution and its sixteen-channel depthwise windows, inside and
  // clipped, so a wrong byte in any of them fails the test above.
  void randomCasesReachEveryMveKernel() {
    int fourChannels = 0, inside = 0, clipped = 0;
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
      codegen::CompileOptions options;
      options.isa = target::CpuIsa::Mve;
      const codegen::CompiledModel model =
          codegen::compileToC(test::randomSimdKernelGraph(seed, 16), options);
      fourChannels += functionsCalling(model, "loupe.mve.conv_pixels_4ch_s8");
      inside += functionsCalling(model, "loupe.mve.dw_3x3_x16_s8");
      clipped += functionsCalling(model, "loupe.mve.dw_3x3_clipped_x16_s8");
    }
    QVERIFY(fourChannels > 0);
    QVERIFY(inside > 0);
    QVERIFY(clipped > 0);
  }

  void randomOperatorsMatchReference() {
    QFETCH(int, isa);
    QFETCH(int, seed);
    try {
      check(static_cast<target::CpuIsa>(isa), static_cast<std::uint32_t>(seed));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

 private:
  static void check(target::CpuIsa isa, std::uint32_t seed) {
    const ir::Graph graph = test::randomSimdKernelGraph(seed, 16);
    codegen::CompileOptions options;
    options.isa = isa;
    const codegen::CompiledModel model = codegen::compileToC(graph, options);

    // Every operator took the SIMD path (a test passing through the scalar
    // lowering would prove nothing): every convolution and fully-connected
    // layer calls a convolution kernel, with the DSP extension, MVE and
    // plain Thumb every depthwise convolution its own, and with MVE every ADD.
    const int convs = operatorsOfType(graph, ir::OpType::Conv2D) +
                      operatorsOfType(graph, ir::OpType::FullyConnected);
    const int depthwise = operatorsOfType(graph, ir::OpType::DepthwiseConv2D);
    QVERIFY(operatorsOfType(graph, ir::OpType::FullyConnected) > 0 && depthwise > 0 &&
            operatorsOfType(graph, ir::OpType::Add) > 0);
    if (options.isa != target::CpuIsa::Mve) {
      const std::string kernel = options.isa == target::CpuIsa::Dsp ? "loupe.dsp.conv_pixel_s8"
                                                                    : "loupe.thumb.conv_pixel_s8";
      QCOMPARE(functionsCalling(model, kernel), convs);
      QCOMPARE(functionsCalling(model, "loupe.dsp.dw_"),
               options.isa == target::CpuIsa::Dsp ? depthwise : 0);
      QCOMPARE(functionsCalling(model, "loupe.mve."), 0);
      if (options.isa == target::CpuIsa::Thumb)
        QCOMPARE(functionsCalling(model, "loupe.thumb.dw_"), depthwise);
    } else {
      // One pixel (conv_pixel_s8) or several per call (conv_pixels_s8).
      QCOMPARE(functionsCalling(model, "loupe.mve.conv_pixel"), convs);
      QCOMPARE(functionsCalling(model, "loupe.mve.dw_"), depthwise);
      QCOMPARE(functionsCalling(model, "loupe.mve.add_s8"),
               operatorsOfType(graph, ir::OpType::Add));
    }

    for (std::uint32_t inputSeed : {1u, 2u}) {
      const auto inputs = test::randomInputs(graph, inputSeed);
      const auto expected = test::runReference(graph, inputs);
      const auto actual = test::runGeneratedC(graph, inputs, options);
      QCOMPARE(actual.size(), expected.size());
      for (std::size_t i = 0; i < actual.size(); ++i) {
        const std::string difference = test::firstDifference(actual[i], expected[i]);
        QVERIFY2(difference.empty(), qPrintable(QString("inputs %1, operator %2: %3")
                                                    .arg(inputSeed)
                                                    .arg(i)
                                                    .arg(QString::fromStdString(difference))));
      }
    }
  }

 private slots:
  void portableCodeKeepsTheLoopNests() {
    const ir::Graph graph = test::randomSimdKernelGraph(7, 6);
    const codegen::CompiledModel model = codegen::compileToC(graph, {});
    QCOMPARE(functionsCalling(model, "loupe.thumb."), 0);
    QCOMPARE(functionsCalling(model, "loupe.dsp."), 0);
    QCOMPARE(functionsCalling(model, "loupe.mve."), 0);
  }
};

LOUPE_TEST_GUILESS_MAIN(SimdLowering)

}  // namespace simd_lowering_test

#include "simd_lowering_test.moc"
