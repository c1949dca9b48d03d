#include "frontend/operator_spec.h"

#include <array>

namespace loupe::frontend {

namespace {
using ir::OpType;
// Union values of TFLite's BuiltinOptions (see tflite_schema.fbs).
enum : std::uint8_t {
  kNone = 0,
  kConv2D = 1,
  kDepthwiseConv2D = 2,
  kPool2D = 5,
  kSvdf = 6,
  kFullyConnected = 8,
  kSoftmax = 9,
  kConcatenation = 10,
  kAdd = 11,
  kReshape = 17,
  kMul = 21,
  kPad = 22,
  kTranspose = 26,
  kReducer = 27,
  kSub = 28,
  kSqueeze = 30,
  kStridedSlice = 32,
  kDequantize = 38,
  kPadV2 = 43,
  kTransposeConv = 49,
  kExpandDims = 52,
  kSequenceLstm = 71,
  kLeakyRelu = 75,
  kQuantize = 89,
  kHardSwish = 91,
};

// Versions: the newest TFLite defines for each operator; newer ones carry
// semantics Loupe does not know and are refused.
constexpr std::array kSpecs = {
    OperatorSpec{OpType::Add, 2, 2, 1, kAdd, false, 5},
    OperatorSpec{OpType::AveragePool2D, 1, 1, 1, kPool2D, true, 3},
    OperatorSpec{OpType::Concatenation, 1, -1, 1, kConcatenation, true, 4},
    OperatorSpec{OpType::Conv2D, 2, 3, 1, kConv2D, true, 8},
    OperatorSpec{OpType::DepthwiseConv2D, 2, 3, 1, kDepthwiseConv2D, true, 7},
    OperatorSpec{OpType::Dequantize, 1, 1, 1, kDequantize, false, 6},
    OperatorSpec{OpType::FullyConnected, 2, 3, 1, kFullyConnected, false, 12},
    OperatorSpec{OpType::Logistic, 1, 1, 1, kNone, false, 3},
    OperatorSpec{OpType::MaxPool2D, 1, 1, 1, kPool2D, true, 3},
    OperatorSpec{OpType::Mul, 2, 2, 1, kMul, false, 7},
    OperatorSpec{OpType::Relu, 1, 1, 1, kNone, false, 3},
    OperatorSpec{OpType::Relu6, 1, 1, 1, kNone, false, 3},
    OperatorSpec{OpType::Reshape, 1, 2, 1, kReshape, false, 1},
    OperatorSpec{OpType::Softmax, 1, 1, 1, kSoftmax, true, 3},
    OperatorSpec{OpType::Svdf, 5, 5, 1, kSvdf, true, 4},
    OperatorSpec{OpType::Tanh, 1, 1, 1, kNone, false, 3},
    OperatorSpec{OpType::Pad, 2, 2, 1, kPad, false, 4},
    OperatorSpec{OpType::Transpose, 2, 2, 1, kTranspose, false, 6},
    OperatorSpec{OpType::Mean, 2, 2, 1, kReducer, false, 3},
    OperatorSpec{OpType::Sub, 2, 2, 1, kSub, false, 5},
    OperatorSpec{OpType::Squeeze, 1, 1, 1, kSqueeze, false, 2},
    OperatorSpec{OpType::UnidirectionalSequenceLstm, 20, 24, 1, kSequenceLstm, true, 4},
    OperatorSpec{OpType::StridedSlice, 3, 4, 1, kStridedSlice, false, 8},
    OperatorSpec{OpType::PadV2, 2, 3, 1, kPadV2, false, 4},
    OperatorSpec{OpType::TransposeConv, 3, 4, 1, kTransposeConv, true, 5},
    OperatorSpec{OpType::ExpandDims, 2, 2, 1, kExpandDims, false, 1},
    OperatorSpec{OpType::LeakyRelu, 1, 1, 1, kLeakyRelu, false, 2},
    OperatorSpec{OpType::Quantize, 1, 1, 1, kQuantize, false, 3},
    OperatorSpec{OpType::HardSwish, 1, 1, 1, kHardSwish, false, 1},
};
}  // namespace

const OperatorSpec& operatorSpec(ir::OpType type) {
  for (const auto& spec : kSpecs) {
    if (spec.type == type) return spec;
  }
  static const OperatorSpec kOpaque{OpType::Opaque, 0, -1, -1, kNone, false, 0};
  return kOpaque;
}

}  // namespace loupe::frontend
