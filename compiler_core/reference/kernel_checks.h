// Helpers the core reference kernels share: tensor descriptions for the
// reasons `check` gives ("input 'x' is int16 [1, 4]"), typed access to an
// operator's attributes, and the NumPy-style broadcasting of element-wise
// binary operators.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/graph.h"

namespace loupe::reference {

// "[1, 8, 8, 3]".
std::string shapeText(const ir::Shape& shape);

// "'name' (int8 [1, 8, 8, 3])", or "(int8 [...])" for an unnamed tensor.
std::string describeTensor(const ir::Tensor& tensor);

// "int8 [1, 8, 8, 3]".
std::string typeAndShape(const ir::Tensor& tensor);

template <typename Attrs>
const Attrs* attributesOf(const ir::Operator& op) {
  return std::get_if<Attrs>(&op.attributes);
}

// The reason a tensor that must be quantised with one scale and zero point is
// not, or nullopt.
std::optional<std::string> expectPerTensorQuantization(const ir::Tensor& tensor,
                                                       const std::string& role);

// The element types of an operator with weights (CONV_2D, DEPTHWISE_CONV_2D,
// FULLY_CONNECTED) must be one of the combinations TFLite Micro runs: all
// float32; int8 input/filter/output with int32 bias; or 16x8 (int16
// input/output, int8 filter) with a bias of one of `int16BiasTypes`. The bias
// is optional. Returns the reason when they are not.
std::optional<std::string> checkWeightedDtypes(const ir::Tensor& input, const ir::Tensor& filter,
                                               const ir::Tensor* bias, const ir::Tensor& output,
                                               const std::vector<ir::DType>& int16BiasTypes);

// Quantisation of a quantised operator with weights: per-tensor input and
// output, and a filter with one scale or one per output channel (`channels`
// scales along `channelDimension`).
std::optional<std::string> checkWeightedQuantization(const ir::Tensor& input,
                                                     const ir::Tensor& filter,
                                                     const ir::Tensor& output, int channels,
                                                     int channelDimension);

// The shape two operands broadcast to (NumPy rules, as TFLite), or nullopt
// when they do not broadcast.
std::optional<ir::Shape> broadcastShape(const ir::Shape& a, const ir::Shape& b);

// Calls visit(outputIndex, index1, index2) for every element of `outputShape`
// in row-major order, with the element indices of two inputs broadcast to it.
// The shapes must broadcast to outputShape.
template <typename Visit>
void forEachBroadcastElement(const ir::Shape& outputShape, const ir::Shape& shape1,
                             const ir::Shape& shape2, Visit&& visit) {
  const std::size_t rank = outputShape.size();
  std::int64_t total = 1;
  for (auto d : outputShape) total *= d;
  if (shape1 == outputShape && shape2 == outputShape) {
    for (std::int64_t i = 0; i < total; ++i) visit(i, i, i);
    return;
  }
  // Strides of each input in output dimensions; 0 where the input broadcasts.
  auto stridesOf = [&](const ir::Shape& shape) {
    std::vector<std::int64_t> strides(rank, 0);
    std::int64_t stride = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      const std::size_t dim = shape.size() - 1 - k;
      const std::size_t outDim = rank - 1 - k;
      strides[outDim] = shape[dim] == 1 ? 0 : stride;
      stride *= shape[dim];
    }
    return strides;
  };
  const auto strides1 = stridesOf(shape1);
  const auto strides2 = stridesOf(shape2);
  std::vector<std::int32_t> counter(rank, 0);
  std::int64_t index1 = 0, index2 = 0;
  for (std::int64_t i = 0; i < total; ++i) {
    visit(i, index1, index2);
    // Advance the row-major counter and both input indices.
    for (std::size_t k = rank; k-- > 0;) {
      ++counter[k];
      index1 += strides1[k];
      index2 += strides2[k];
      if (counter[k] < outputShape[k]) break;
      index1 -= strides1[k] * counter[k];
      index2 -= strides2[k] * counter[k];
      counter[k] = 0;
    }
  }
}

}  // namespace loupe::reference
