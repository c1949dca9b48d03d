// AVERAGE_POOL_2D: the mean of each window clipped to the input (padding
// elements are not counted). Follows TFLite Micro's reference kernels: float
// sum divided by the float count; for int8/int16 an int32 sum of the stored
// values divided by the count with rounding half away from zero, then the
// fused activation's clamp. No rescaling between input and output.
#include <cstdint>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "ops/pool2d_common.h"
#include "reference/kernel.h"

namespace loupe::reference {

namespace {

template <typename T>
void averagePoolInteger(const PoolShape& s, const T* input, T* output, IntRange range) {
  forEachPoolWindow(s, [&](std::int64_t outIndex, auto&& visit) {
    std::int32_t sum = 0;
    std::int32_t count = 0;
    visit([&](std::int64_t inIndex) {
      sum += input[inIndex];
      ++count;
    });
    // An empty window cannot occur with TFLite's padding; TFLite Micro would
    // stop there, the oracle writes the lowest value instead of dividing by 0.
    const std::int32_t average = count > 0 ? loupe_average_pool_round(sum, count) : range.min;
    output[outIndex] = static_cast<T>(loupe_clamp_i32(average, range.min, range.max));
  });
}

void evalAveragePool2D(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::Pool2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const PoolShape s = poolShape(input, output, attrs);
  switch (input.dtype) {
    case ir::DType::Float32: {
      const FloatRange range = floatActivationRange(attrs.activation);
      const float* in = store.data<float>(op.inputs[0]);
      float* out = store.mutableData<float>(op.outputs[0]);
      forEachPoolWindow(s, [&](std::int64_t outIndex, auto&& visit) {
        float total = 0.0f;
        float count = 0.0f;
        visit([&](std::int64_t inIndex) {
          total += in[inIndex];
          count += 1.0f;
        });
        out[outIndex] = loupe_clamp_f32(total / count, range.min, range.max);
      });
      break;
    }
    case ir::DType::Int8:
      averagePoolInteger(s, store.data<std::int8_t>(op.inputs[0]),
                         store.mutableData<std::int8_t>(op.outputs[0]),
                         quantizedActivationRange(attrs.activation, output));
      break;
    default:
      averagePoolInteger(s, store.data<std::int16_t>(op.inputs[0]),
                         store.mutableData<std::int16_t>(op.outputs[0]),
                         quantizedActivationRange(attrs.activation, output));
      break;
  }
}

}  // namespace

extern const Kernel kAveragePool2DKernel{ir::OpType::AveragePool2D, checkPool2D, evalAveragePool2D};

}  // namespace loupe::reference
