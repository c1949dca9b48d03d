// The operator types of the graph IR. Each entry names the TFLite builtin it
// comes from, so the importer, printers and diagnostics share one table.
#pragma once

#include <optional>
#include <string_view>

namespace loupe::ir {

// X(enumerator, TFLite builtin name, TFLite builtin code)
#define LOUPE_OP_TYPES(X)                                           \
  X(Add, "ADD", 0)                                                  \
  X(AveragePool2D, "AVERAGE_POOL_2D", 1)                            \
  X(Concatenation, "CONCATENATION", 2)                              \
  X(Conv2D, "CONV_2D", 3)                                           \
  X(DepthwiseConv2D, "DEPTHWISE_CONV_2D", 4)                        \
  X(Dequantize, "DEQUANTIZE", 6)                                    \
  X(FullyConnected, "FULLY_CONNECTED", 9)                           \
  X(Logistic, "LOGISTIC", 14)                                       \
  X(MaxPool2D, "MAX_POOL_2D", 17)                                   \
  X(Mul, "MUL", 18)                                                 \
  X(Relu, "RELU", 19)                                               \
  X(Relu6, "RELU6", 21)                                             \
  X(Reshape, "RESHAPE", 22)                                         \
  X(Softmax, "SOFTMAX", 25)                                         \
  X(Svdf, "SVDF", 27)                                               \
  X(Tanh, "TANH", 28)                                               \
  X(Pad, "PAD", 34)                                                 \
  X(Transpose, "TRANSPOSE", 39)                                     \
  X(Mean, "MEAN", 40)                                               \
  X(Sub, "SUB", 41)                                                 \
  X(Squeeze, "SQUEEZE", 43)                                         \
  X(UnidirectionalSequenceLstm, "UNIDIRECTIONAL_SEQUENCE_LSTM", 44) \
  X(StridedSlice, "STRIDED_SLICE", 45)                              \
  X(PadV2, "PADV2", 60)                                             \
  X(TransposeConv, "TRANSPOSE_CONV", 67)                            \
  X(ExpandDims, "EXPAND_DIMS", 70)                                  \
  X(LeakyRelu, "LEAKY_RELU", 98)                                    \
  X(Quantize, "QUANTIZE", 114)                                      \
  X(HardSwish, "HARD_SWISH", 117)

enum class OpType {
#define LOUPE_OP_ENUM(name, tflite, code) name,
  LOUPE_OP_TYPES(LOUPE_OP_ENUM)
#undef LOUPE_OP_ENUM
  // An operator Loupe can show but not compile or run: a TFLite CUSTOM
  // operator or a builtin outside the table above (kept when importing for
  // inspection only; see TfliteImporter).
  Opaque,
};

// TFLite spelling ("CONV_2D"); for Opaque, "OPAQUE".
std::string_view opTypeName(OpType type);

std::optional<OpType> opTypeFromBuiltinCode(int builtinCode);

}  // namespace loupe::ir
