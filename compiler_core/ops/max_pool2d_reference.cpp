// MAX_POOL_2D: the largest element of each window clipped to the input, then
// the fused activation's clamp. Follows TFLite Micro's reference kernels; the
// integer kernels compare stored values and never rescale.
#include <cstdint>
#include <limits>

#include "loupe/fused_activation.h"
#include "ops/pool2d_common.h"
#include "reference/kernel.h"

namespace loupe::reference {

namespace {

template <typename T>
void maxPoolInteger(const PoolShape& s, const T* input, T* output, IntRange range) {
  forEachPoolWindow(s, [&](std::int64_t outIndex, auto&& visit) {
    T largest = std::numeric_limits<T>::lowest();
    visit([&](std::int64_t inIndex) { largest = std::max(largest, input[inIndex]); });
    output[outIndex] = static_cast<T>(loupe_clamp_i32(largest, range.min, range.max));
  });
}

void evalMaxPool2D(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
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
        float largest = std::numeric_limits<float>::lowest();
        visit([&](std::int64_t inIndex) { largest = std::max(largest, in[inIndex]); });
        out[outIndex] = loupe_clamp_f32(largest, range.min, range.max);
      });
      break;
    }
    case ir::DType::Int8:
      maxPoolInteger(s, store.data<std::int8_t>(op.inputs[0]),
                     store.mutableData<std::int8_t>(op.outputs[0]),
                     quantizedActivationRange(attrs.activation, output));
      break;
    default:
      maxPoolInteger(s, store.data<std::int16_t>(op.inputs[0]),
                     store.mutableData<std::int16_t>(op.outputs[0]),
                     quantizedActivationRange(attrs.activation, output));
      break;
  }
}

}  // namespace

extern const Kernel kMaxPool2DKernel{ir::OpType::MaxPool2D, checkPool2D, evalMaxPool2D};

}  // namespace loupe::reference
