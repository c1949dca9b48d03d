#include "ir/storage_view.h"

#include <algorithm>
#include <cstring>

namespace loupe::ir {

namespace {

// The values of a constant int32 operand, or none.
std::optional<std::vector<std::int64_t>> int32Values(const Tensor* t) {
  if (t == nullptr || !t->isConstant || t->dtype != DType::Int32 ||
      t->data.size() != static_cast<std::size_t>(t->elementCount()) * 4) {
    return std::nullopt;
  }
  std::vector<std::int64_t> values;
  for (std::size_t i = 0; i < t->data.size(); i += 4) {
    std::int32_t v = 0;
    std::memcpy(&v, t->data.data() + i, 4);
    values.push_back(v);
  }
  return values;
}

std::int64_t bytesAfter(const Shape& shape, std::size_t dim, DType dtype) {
  std::int64_t bytes = static_cast<std::int64_t>(dtypeSize(dtype));
  for (std::size_t d = dim + 1; d < shape.size(); ++d) bytes *= shape[d];
  return bytes;
}

bool sameStorageType(const Tensor& a, const Tensor& b) {
  return a.dtype == b.dtype && a.quantization == b.quantization;
}

}  // namespace

std::optional<std::int64_t> sliceViewOffset(const Graph& graph, const Operator& op) {
  if (!op.isView || op.type != OpType::Slice || op.outputs.size() != 1) return std::nullopt;
  const Tensor* input = graph.input(op, 0);
  const auto begin = int32Values(graph.input(op, 1));
  if (input == nullptr || !begin || input->isConstant || input->isVariable) return std::nullopt;
  const Tensor& output = graph.output(op, 0);
  const Shape& in = input->shape;
  if (!sameStorageType(*input, output) || output.isVariable || output.shape.size() != in.size() ||
      begin->size() != in.size()) {
    return std::nullopt;
  }
  // The last dimension the slice cuts: every one after it is whole (begins
  // at 0), every one before it a single element.
  std::size_t cut = 0;
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (output.shape[d] != in[d]) cut = d;
  }
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < in.size(); ++d) {
    const std::int64_t from = (*begin)[d];
    if (from < 0 || from + output.shape[d] > in[d]) return std::nullopt;
    if (d > cut && from != 0) return std::nullopt;
    if (d < cut && output.shape[d] != 1) return std::nullopt;
    offset += from * bytesAfter(in, d, input->dtype);
  }
  return offset;
}

std::optional<std::vector<std::int64_t>> concatViewOffsets(const Graph& graph, const Operator& op) {
  if (!op.isView || op.type != OpType::Concatenation || op.outputs.size() != 1) {
    return std::nullopt;
  }
  const auto* attrs = std::get_if<ConcatenationAttrs>(&op.attributes);
  const Tensor& output = graph.output(op, 0);
  if (attrs == nullptr || attrs->activation != Activation::None || output.isVariable) {
    return std::nullopt;
  }
  const int rank = static_cast<int>(output.shape.size());
  const int axis = attrs->axis < 0 ? attrs->axis + rank : attrs->axis;
  if (axis < 0 || axis >= rank) return std::nullopt;
  for (int d = 0; d < axis; ++d) {
    if (output.shape[static_cast<std::size_t>(d)] != 1) return std::nullopt;
  }
  const auto isModelTensor = [&](int t) {
    return std::find(graph.inputs.begin(), graph.inputs.end(), t) != graph.inputs.end() ||
           std::find(graph.outputs.begin(), graph.outputs.end(), t) != graph.outputs.end();
  };
  // Each input's producer writes it into storage of its own (no view), and
  // the output is no other in-place concatenation's input.
  auto producedInOwnStorage = [&](int t) {
    for (const Operator& other : graph.operators) {
      if (std::find(other.outputs.begin(), other.outputs.end(), t) == other.outputs.end()) continue;
      return !isNoCopyView(graph, other) && !sliceViewOffset(graph, other) &&
             !(other.isView && other.type == OpType::Concatenation);
    }
    return false;
  };
  for (const Operator& other : graph.operators) {
    if (other.isView && other.type == OpType::Concatenation && &other != &op &&
        std::find(other.inputs.begin(), other.inputs.end(), op.outputs[0]) != other.inputs.end()) {
      return std::nullopt;
    }
  }
  std::vector<std::int64_t> offsets;
  std::int64_t offset = 0;
  for (int t : op.inputs) {
    if (t < 0 || isModelTensor(t) || !producedInOwnStorage(t) ||
        std::count(op.inputs.begin(), op.inputs.end(), t) != 1) {
      return std::nullopt;
    }
    const Tensor& input = graph.tensor(t);
    if (input.isConstant || input.isVariable || !sameStorageType(input, output) ||
        input.shape.size() != output.shape.size()) {
      return std::nullopt;
    }
    offsets.push_back(offset);
    offset += input.byteSize();
  }
  if (offset != output.byteSize()) return std::nullopt;
  return offsets;
}

}  // namespace loupe::ir
