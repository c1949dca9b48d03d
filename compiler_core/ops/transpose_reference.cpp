// TRANSPOSE: output dimension k is input dimension perm[k]. Only elements are
// moved, so one byte-generic implementation serves every supported dtype (as
// in TFLite Micro, which dispatches on the element size).
#include <algorithm>

#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

constexpr int kMaxTransposeRank = 5;

std::optional<std::string> checkTranspose(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "TRANSPOSE", 2)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& permTensor = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8 &&
      input.dtype != ir::DType::Int16) {
    return "input dtype " + describeDtype(input.dtype) +
           " is not supported (expected float32, int8 or int16)";
  }
  if (output.dtype != input.dtype) {
    return "output dtype " + describeDtype(output.dtype) + " differs from input dtype " +
           describeDtype(input.dtype);
  }
  const int rank = static_cast<int>(input.shape.size());
  if (rank < 1 || rank > kMaxTransposeRank) {
    return "input rank " + std::to_string(rank) + " is not supported (expected 1 to 5)";
  }
  if (permTensor.dtype != ir::DType::Int32) {
    return "perm operand '" + permTensor.name + "' has dtype " + describeDtype(permTensor.dtype) +
           " (expected int32)";
  }
  if (permTensor.shape.size() != 1 || permTensor.shape[0] != rank) {
    return "perm operand '" + permTensor.name + "' has shape " +
           ir::shapeToString(permTensor.shape) + " (expected [" + std::to_string(rank) +
           "] for an input of rank " + std::to_string(rank) + ")";
  }
  const auto perm = constantIntegers(permTensor);
  if (!perm) return "perm operand '" + permTensor.name + "' is not a constant";
  std::vector<bool> used(static_cast<std::size_t>(rank), false);
  ir::Shape expected;
  for (std::int64_t p : *perm) {
    if (p < 0 || p >= rank || used[static_cast<std::size_t>(p)]) {
      return "perm " + ir::shapeToString(ir::Shape(perm->begin(), perm->end())) +
             " is not a permutation of 0.." + std::to_string(rank - 1);
    }
    used[static_cast<std::size_t>(p)] = true;
    expected.push_back(input.shape[static_cast<std::size_t>(p)]);
  }
  if (expected != output.shape) {
    return "transposing input shape " + ir::shapeToString(input.shape) + " gives " +
           ir::shapeToString(expected) + " but output '" + output.name + "' has shape " +
           ir::shapeToString(output.shape);
  }
  return std::nullopt;
}

void evalTranspose(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = graph.tensor(op.inputs[0]);
  const ir::Tensor& output = graph.output(op, 0);
  const auto perm = *constantIntegers(graph.tensor(op.inputs[1]));
  const std::size_t rank = input.shape.size();
  const std::size_t elementSize = ir::dtypeSize(input.dtype);

  // Input strides (in elements), read in the output's dimension order.
  std::vector<std::int64_t> inputStrides(rank, 1);
  for (std::size_t d = rank - 1; d > 0; --d) {
    inputStrides[d - 1] = inputStrides[d] * input.shape[d];
  }
  std::vector<std::int64_t> strideForOutputDim(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    strideForOutputDim[k] = inputStrides[static_cast<std::size_t>(perm[k])];
  }

  auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  std::vector<std::int32_t> index(rank, 0);
  const std::int64_t count = output.elementCount();
  for (std::int64_t o = 0; o < count; ++o) {
    std::int64_t source = 0;
    for (std::size_t k = 0; k < rank; ++k) source += index[k] * strideForOutputDim[k];
    std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(source * elementSize), elementSize,
                out.begin() + static_cast<std::ptrdiff_t>(o * elementSize));
    // Next output index in row-major order.
    for (std::size_t k = rank; k-- > 0;) {
      if (++index[k] < output.shape[k]) break;
      index[k] = 0;
    }
  }
}

}  // namespace

extern const Kernel kTransposeKernel{ir::OpType::Transpose, checkTranspose, evalTranspose};

}  // namespace loupe::reference
