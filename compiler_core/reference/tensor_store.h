// Storage for every tensor of a graph while the reference interpreter runs:
// a zero-initialised buffer per non-constant tensor (so variable state starts
// at zero, or at the zero point for int8 variables, as after TFLite Micro's
// AllocateTensors) and views of constant data. A variable tensor that carries
// data in the model gets a buffer too and starts the same way: TFLite
// Micro's AllocateVariables gives every variable fresh arena memory and
// never reads its serialised buffer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ir/graph.h"

namespace loupe::reference {

class TensorStore {
 public:
  explicit TensorStore(const ir::Graph& graph);

  std::span<const std::uint8_t> bytes(int tensorIndex) const;
  std::span<std::uint8_t> mutableBytes(int tensorIndex);

  template <typename T>
  const T* data(int tensorIndex) const {
    return reinterpret_cast<const T*>(bytes(tensorIndex).data());
  }
  template <typename T>
  T* mutableData(int tensorIndex) {
    return reinterpret_cast<T*>(mutableBytes(tensorIndex).data());
  }

 private:
  const ir::Graph& graph_;
  // Owned buffers of non-constant tensors; 8-byte elements keep any dtype aligned.
  std::vector<std::vector<std::uint64_t>> buffers_;
};

}  // namespace loupe::reference
