// Shape and type rules: what an operator's outputs must be, given its inputs
// and attributes. Each operator's definition (operator_definition.h) holds
// its rule; the importer and the infer_shapes_and_types pass both apply it.
// The helpers below are the vocabulary the rules are written in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::ops {

// What a rule derives for an operator's outputs.
struct InferredOutput {
  ir::Shape shape;  // output 0
  // The element types the outputs may have; empty when any is acceptable
  // (QUANTIZE's output type is the model's choice).
  std::vector<ir::DType> dtypes;
  // Outputs 1, 2, ... of an operator with several (SPLIT, UNPACK), with the
  // same element types as output 0.
  std::vector<ir::Shape> moreShapes;
  // Set instead when the inputs contradict each other or the attributes
  // (shapes that do not broadcast, a filter deeper than the input, ...):
  // what the rule expected, as in "two inputs".
  std::string problem;
};

InferredOutput shapeProblem(std::string expected);
InferredOutput shaped(ir::Shape shape, std::vector<ir::DType> dtypes);

// "tensor 3 'conv' int8[1,8,8,4] q(0.5, 3)".
std::string tensorText(const ir::Tensor& tensor);

// A constant integer operand, or nullopt when absent or not constant.
std::optional<std::vector<std::int64_t>> constantOperand(const ir::Graph& graph,
                                                         const ir::Operator& op, std::size_t slot);

// Output 0 has input 0's shape and one of `dtypes`.
InferredOutput sameShapeAsInput(const ir::Graph& graph, const ir::Operator& op,
                                std::vector<ir::DType> dtypes);

// Output 0 is input 0's shape and type (element-wise unary operators).
std::optional<InferredOutput> sameAsInput(const ir::Graph& graph, const ir::Operator& op);

// Output 0 is the broadcast of inputs 0 and 1, of input 0's type (or of
// `dtype` when given: comparisons give bool).
InferredOutput broadcastOfInputs(const ir::Graph& graph, const ir::Operator& op,
                                 std::optional<ir::DType> dtype = std::nullopt);

// CONV_2D, DEPTHWISE_CONV_2D and the pools: [batch, outHeight, outWidth,
// channels] of input 0, or a problem when no window fits.
InferredOutput windowedOutput(const ir::Tensor& input, std::int64_t outHeight,
                              std::int64_t outWidth, std::int32_t channels);

// Dimension `axis` of `tensor`, or 0 when absent (for cost formulas).
std::int64_t dimensionOf(const ir::Tensor* tensor, std::size_t axis);

// The cost of element-wise arithmetic: one per element of output 0.
std::int64_t oneMacPerOutputElement(const ir::Graph& graph, const ir::Operator& op);

// An axis in [-rank, rank) made non-negative, or nullopt when outside.
std::optional<int> normalizedAxis(std::int64_t axis, int rank);

// The one axis of `input` a constant operand names (negative counts from the
// end), or in `problem` what the operator needs instead.
struct ConstantAxis {
  std::size_t axis = 0;
  std::string problem;
};
ConstantAxis constantAxis(const ir::Graph& graph, const ir::Operator& op, std::size_t slot,
                          const ir::Tensor& input);

}  // namespace loupe::ops
