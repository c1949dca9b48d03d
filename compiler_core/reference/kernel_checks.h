// Helpers the reference kernels share for their `check` functions and for
// reading operands: tensor and dtype descriptions for the reasons `check`
// gives ("input 'x' (int16 [1,4])"), operand counts, per-tensor quantisation,
// typed access to an operator's attributes, constant integer operands, and the
// NumPy-style broadcasting of element-wise binary operators. Shapes are written
// by ir::shapeToString.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/graph.h"
#include "ir/graph_printer.h"

namespace loupe::reference {

// "int8".
std::string describeDtype(ir::DType type);

// "int8, int16 or int32".
std::string describeDtypes(const std::vector<ir::DType>& types);

// "input 'name' (int8 [1,8,8,3])", or "input (int8 [1,8,8,3])" for an unnamed
// tensor; `role` says which operand it is ("input", "filter", "input 1").
std::string describeTensor(std::string_view role, const ir::Tensor& tensor);

// Whether input `slot` of the operator is present.
bool hasInput(const ir::Operator& op, std::size_t slot);

// Checks the operator has present inputs in slots [0, inputs) and exactly
// `outputs` outputs; returns the reason otherwise.
std::optional<std::string> checkArity(const ir::Operator& op, const char* opName,
                                      std::size_t inputs, std::size_t outputs = 1);

// Reads a constant int32 or int64 operand as int64 values; nullopt when the
// tensor is not constant, not integer, or its data is short.
std::optional<std::vector<std::int64_t>> constantIntegers(const ir::Tensor& tensor);

// The product of dimensions [begin, end) of a shape.
std::int64_t dimensionProduct(const ir::Shape& shape, std::size_t begin, std::size_t end);

template <typename Attrs>
const Attrs* attributesOf(const ir::Operator& op) {
  return std::get_if<Attrs>(&op.attributes);
}

// The reason a tensor that must be quantised with one positive, finite scale
// and one zero point for the whole tensor is not, or nullopt.
std::optional<std::string> checkPerTensorQuantization(std::string_view role,
                                                      const ir::Tensor& tensor);

// `tensor` has the zero point TFLM requires (the reason says who requires it).
std::optional<std::string> checkZeroPoint(std::string_view role, const ir::Tensor& tensor,
                                          std::int32_t expected, std::string_view why);

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
