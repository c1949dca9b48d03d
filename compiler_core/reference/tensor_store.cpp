#include "reference/tensor_store.h"

#include <cstring>

namespace loupe::reference {

TensorStore::TensorStore(const ir::Graph& graph) : graph_(graph), buffers_(graph.tensors.size()) {
  for (const auto& tensor : graph.tensors) {
    if (tensor.isConstant && !tensor.isVariable) continue;
    const auto bytes = static_cast<std::size_t>(tensor.byteSize());
    auto& buffer = buffers_[static_cast<std::size_t>(tensor.index)];
    buffer.assign((bytes + 7) / 8, 0);
    // TFLite Micro's ResetVariableTensors fills int8 variable tensors (SVDF,
    // LSTM state) with their zero point; every other tensor starts at zero.
    if (tensor.isVariable && tensor.dtype == ir::DType::Int8) {
      std::memset(buffer.data(), static_cast<std::uint8_t>(tensor.quantization.zeroPoint()), bytes);
    }
    if (tensor.isVariable && tensor.initialContents.size() == bytes) {
      std::memcpy(buffer.data(), tensor.initialContents.data(), bytes);
    }
  }
}

std::span<const std::uint8_t> TensorStore::bytes(int tensorIndex) const {
  const auto& tensor = graph_.tensor(tensorIndex);
  if (tensor.isConstant && !tensor.isVariable) return tensor.data;
  const auto& buffer = buffers_.at(static_cast<std::size_t>(tensorIndex));
  return {reinterpret_cast<const std::uint8_t*>(buffer.data()),
          static_cast<std::size_t>(tensor.byteSize())};
}

std::span<std::uint8_t> TensorStore::mutableBytes(int tensorIndex) {
  const auto& tensor = graph_.tensor(tensorIndex);
  auto& buffer = buffers_.at(static_cast<std::size_t>(tensorIndex));
  return {
      reinterpret_cast<std::uint8_t*>(buffer.data()),
      tensor.isConstant && !tensor.isVariable ? 0 : static_cast<std::size_t>(tensor.byteSize())};
}

}  // namespace loupe::reference
