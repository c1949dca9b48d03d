// Checks shared by the operators with one input and one output tensor
// (activations, QUANTIZE, DEQUANTIZE): operand counts, element counts, and the
// wording of "this dtype combination is not supported", so every such kernel
// reports problems the same way. The general helpers (tensor descriptions,
// per-tensor quantisation, required zero points) are in kernel_checks.h.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ir/graph.h"
#include "reference/activation_params.h"
#include "reference/kernel_checks.h"
#include "reference/tensor_store.h"

namespace loupe::reference {

// A supported (input dtype, output dtype) combination.
using DTypePair = std::pair<ir::DType, ir::DType>;

// Exactly one present input and one output with the same number of elements.
std::optional<std::string> checkUnaryOperands(const ir::Graph& graph, const ir::Operator& op);

// The input/output dtype pair is one of `supported`; otherwise names what was
// found and lists what the operator accepts.
std::optional<std::string> checkDTypePair(const ir::Operator& op, const ir::Tensor& input,
                                          const ir::Tensor& output,
                                          std::initializer_list<DTypePair> supported);

// Which operands of a quantised unary operator must be quantised per tensor.
enum class QuantizedOperands { InputOnly, InputAndOutput };

// The checks element-wise unary operators begin with: checkUnaryOperands, the
// dtype pair one of `supported` (by default float32, int8 or int16 in and the
// same out), and unless the input is float32 per-tensor quantisation of the
// input and, with InputAndOutput, the output.
std::optional<std::string> checkElementwiseUnary(
    const ir::Graph& graph, const ir::Operator& op,
    QuantizedOperands quantized = QuantizedOperands::InputAndOutput,
    std::initializer_list<DTypePair> supported = {{ir::DType::Float32, ir::DType::Float32},
                                                  {ir::DType::Int8, ir::DType::Int8},
                                                  {ir::DType::Int16, ir::DType::Int16}});

// The quantised LOGISTIC and TANH checks TFLM makes (after
// checkElementwiseUnary): an int8 input scale of at least 2^-28 for the Q4.27
// rescaling; for int16 zero points of 0, output scale 2^-15 and an input
// multiplier (from `int16Params`) of at most 32767 for the table lookup.
std::optional<std::string> checkSigmoidFamily(const ir::Operator& op, const ir::Tensor& input,
                                              const ir::Tensor& output,
                                              SigmoidInt16Params (*int16Params)(float));

// Applies `function` to every element of the operator's input, writing the
// results to its output (elementwise operators).
template <typename In, typename Out, typename Function>
void mapElements(const ir::Operator& op, TensorStore& store, std::int64_t count,
                 Function function) {
  const In* input = store.data<In>(op.inputs[0]);
  Out* output = store.mutableData<Out>(op.outputs[0]);
  for (std::int64_t i = 0; i < count; ++i) output[i] = function(input[i]);
}

}  // namespace loupe::reference
