// Compile-time parameters shared with the code generator: TFLite's
// QuantizeMultiplier, window geometry (SAME/VALID, stride, dilation),
// quantised activation ranges and the ADD/SUB and MUL parameter sets.
#include <QtTest>

#include "graph_builder.h"
#include "reference/quantized_params.h"
#include "test_group.h"

namespace quantized_params_test {

using namespace loupe;
using loupe::reference::IntRange;
using loupe::reference::QuantizedMultiplier;
using loupe::test::perTensor;

namespace {

ir::Tensor quantised(ir::DType dtype, float scale, std::int64_t zeroPoint) {
  ir::Tensor t;
  t.dtype = dtype;
  t.quantization = perTensor(scale, zeroPoint);
  return t;
}

}  // namespace

class QuantizedParamsTest : public QObject {
  Q_OBJECT

 private slots:
  void quantizeMultiplier() {
    // 0.125 = 0.5 * 2^-2 -> 2^30 with shift -2; 1 = 0.5 * 2^1.
    QCOMPARE(reference::quantizeMultiplier(0.125), (QuantizedMultiplier{1 << 30, -2}));
    QCOMPARE(reference::quantizeMultiplier(1.0), (QuantizedMultiplier{1 << 30, 1}));
    // 0.1 = 0.8 * 2^-3; round(0.8 * 2^31) = 1717986918.
    QCOMPARE(reference::quantizeMultiplier(0.1), (QuantizedMultiplier{1717986918, -3}));
    // A significand that rounds up to 2^31 is halved and the shift raised.
    QCOMPARE(reference::quantizeMultiplier(0.99999999999), (QuantizedMultiplier{1 << 30, 1}));
    // Below 2^-32 everything would be shifted out: flushed to zero.
    QCOMPARE(reference::quantizeMultiplier(1e-12), (QuantizedMultiplier{0, 0}));
    QCOMPARE(reference::quantizeMultiplier(0.0), (QuantizedMultiplier{0, 0}));
  }

  void windowGeometrySame() {
    // 4 wide, filter 3, stride 2: out 2, total padding (2-1)*2 + 3 - 4 = 1,
    // split 0 before and 1 after.
    const auto g = reference::computeWindowGeometry(ir::Padding::Same, 4, 4, 3, 3, 2, 2);
    QCOMPARE(g.outHeight, 2);
    QCOMPARE(g.outWidth, 2);
    QCOMPARE(g.padHeight, 0);
    QCOMPARE(g.padHeightOffset, 1);
    // 5 high, filter 3, dilation 2 (footprint 5), stride 1: out 5, padding
    // 4 = 2 before and 2 after.
    const auto d = reference::computeWindowGeometry(ir::Padding::Same, 5, 5, 3, 3, 1, 1, 2, 2);
    QCOMPARE(d.outHeight, 5);
    QCOMPARE(d.padHeight, 2);
    QCOMPARE(d.padHeightOffset, 0);
  }

  void windowGeometryValid() {
    // (10 + 2 - 4) / 2 = 4 outputs for a 10-wide input, filter 4, stride 2.
    const auto g = reference::computeWindowGeometry(ir::Padding::Valid, 10, 10, 4, 4, 2, 2);
    QCOMPARE(g.outWidth, 4);
    QCOMPARE(g.padWidth, 0);
    // Dilation 3 makes a 2-tap filter 4 wide: (7 + 1 - 4) / 1 = 4.
    const auto d = reference::computeWindowGeometry(ir::Padding::Valid, 7, 7, 2, 2, 1, 1, 3, 3);
    QCOMPARE(d.outWidth, 4);
  }

  void quantizedActivationRanges() {
    const auto int8Out = quantised(ir::DType::Int8, 0.05f, -20);
    // RELU6: [zp, zp + round(6 / 0.05)] = [-20, 100].
    QCOMPARE(reference::quantizedActivationRange(ir::Activation::Relu6, int8Out),
             (IntRange{-20, 100}));
    // RELU_N1_TO_1: [-20 - 20, -20 + 20].
    QCOMPARE(reference::quantizedActivationRange(ir::Activation::ReluN1To1, int8Out),
             (IntRange{-40, 0}));
    // RELU6 beyond the int8 range is cut at 127.
    const auto coarse = quantised(ir::DType::Int8, 0.01f, 0);
    QCOMPARE(reference::quantizedActivationRange(ir::Activation::Relu6, coarse),
             (IntRange{0, 127}));
    const auto int16Out = quantised(ir::DType::Int16, 1.0f / 4096, 0);
    QCOMPARE(reference::quantizedActivationRange(ir::Activation::None, int16Out),
             (IntRange{-32768, 32767}));
    QCOMPARE(reference::quantizedActivationRange(ir::Activation::Relu6, int16Out),
             (IntRange{0, 24576}));
  }

  void addSubParamsUseLeftShift20And15() {
    const auto a = quantised(ir::DType::Int8, 0.5f, 2);
    const auto b = quantised(ir::DType::Int8, 0.25f, -1);
    const auto out8 = quantised(ir::DType::Int8, 0.5f, 10);
    const auto p8 = reference::addSubParams(ir::OpType::Add, a, b, out8, ir::Activation::None);
    QCOMPARE(p8.left_shift, 20);
    QCOMPARE(p8.input1_offset, -2);
    QCOMPARE(p8.input2_offset, 1);
    QCOMPARE(p8.output_offset, 10);
    // 0.5 / 1 and 0.25 / 1: 2^30 with shifts 0 and -1.
    QCOMPARE(p8.input1_multiplier, 1 << 30);
    QCOMPARE(p8.input1_shift, 0);
    QCOMPARE(p8.input2_shift, -1);
    // 1 / (2^20 * 0.5) = 2^-19 = 0.5 * 2^-18.
    QCOMPARE(p8.output_shift, -18);

    const auto a16 = quantised(ir::DType::Int16, 0.5f, 0);
    const auto b16 = quantised(ir::DType::Int16, 0.25f, 0);
    const auto out16 = quantised(ir::DType::Int16, 0.5f, 0);
    const auto p16 =
        reference::addSubParams(ir::OpType::Add, a16, b16, out16, ir::Activation::None);
    QCOMPARE(p16.left_shift, 15);
    QCOMPARE(p16.output_shift, -13);
    QCOMPARE(p16.act_min, -32768);
    QCOMPARE(p16.act_max, 32767);
  }

  void mulParams() {
    const auto a = quantised(ir::DType::Int8, 0.5f, 1);
    const auto b = quantised(ir::DType::Int8, 0.25f, -2);
    const auto out = quantised(ir::DType::Int8, 0.25f, 3);
    const auto p = reference::mulParams(a, b, out, ir::Activation::Relu);
    QCOMPARE(p.input1_offset, -1);
    QCOMPARE(p.input2_offset, 2);
    QCOMPARE(p.output_offset, 3);
    QCOMPARE(p.output_multiplier, 1 << 30);
    QCOMPARE(p.output_shift, 0);
    QCOMPARE(p.act_min, 3);
    QCOMPARE(p.act_max, 127);
  }

  void perChannelMultipliersBroadcastPerTensorScale() {
    const auto one = reference::perChannelMultipliers(0.5f, {0.25f}, 1.0f, 3);
    QCOMPARE(one.size(), std::size_t{3});
    QCOMPARE(one[2], (QuantizedMultiplier{1 << 30, -2}));
    const auto many = reference::perChannelMultipliers(0.5f, {0.25f, 0.5f}, 1.0f, 2);
    QCOMPARE(many[1], (QuantizedMultiplier{1 << 30, -1}));
  }
};

LOUPE_TEST_APPLESS_MAIN(QuantizedParamsTest)

}  // namespace quantized_params_test

#include "quantized_params_test.moc"
