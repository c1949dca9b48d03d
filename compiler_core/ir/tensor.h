// A tensor of the graph IR: its type, shape and quantisation, and for constants
// (weights, biases, shape operands) the raw little-endian bytes from the model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/constant_bytes.h"
#include "ir/dtype.h"
#include "ir/quantization.h"

namespace loupe::ir {

using Shape = std::vector<std::int32_t>;

std::int64_t elementCount(const Shape& shape);

struct Tensor {
  int index = -1;  // position in the graph's tensor table (TFLite tensor index)
  std::string name;
  DType dtype = DType::Float32;
  Shape shape;
  Quantization quantization;
  // Non-empty for constants; shared by the copies of the tensor (its graph's
  // stage snapshots, the lowered functions' constants, the MLF's parameters).
  ConstantBytes data;
  bool isConstant = false;
  bool isVariable = false;  // state updated in place (SVDF, LSTM, resource variables)
  // A variable's bytes at start-up and after a reset, where they are not
  // TFLite Micro's default (zero, or the zero point of int8): the values a
  // resource variable's init subgraph assigns.
  std::vector<std::uint8_t> initialContents;

  std::int64_t elementCount() const { return ir::elementCount(shape); }
  std::int64_t byteSize() const {
    return elementCount() * static_cast<std::int64_t>(dtypeSize(dtype));
  }
};

}  // namespace loupe::ir
