// The operator types of the graph IR. Each entry names the TFLite builtin it
// comes from, so the importer, printers and diagnostics share one table; each
// type has its definition in compiler_core/ops (ops/operator_registry.h).
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
  X(DepthToSpace, "DEPTH_TO_SPACE", 5)                              \
  X(Dequantize, "DEQUANTIZE", 6)                                    \
  X(EmbeddingLookup, "EMBEDDING_LOOKUP", 7)                         \
  X(Floor, "FLOOR", 8)                                              \
  X(FullyConnected, "FULLY_CONNECTED", 9)                           \
  X(L2Normalization, "L2_NORMALIZATION", 11)                        \
  X(L2Pool2D, "L2_POOL_2D", 12)                                     \
  X(Logistic, "LOGISTIC", 14)                                       \
  X(MaxPool2D, "MAX_POOL_2D", 17)                                   \
  X(Mul, "MUL", 18)                                                 \
  X(Relu, "RELU", 19)                                               \
  X(Relu6, "RELU6", 21)                                             \
  X(Reshape, "RESHAPE", 22)                                         \
  X(ResizeBilinear, "RESIZE_BILINEAR", 23)                          \
  X(Softmax, "SOFTMAX", 25)                                         \
  X(SpaceToDepth, "SPACE_TO_DEPTH", 26)                             \
  X(Svdf, "SVDF", 27)                                               \
  X(Tanh, "TANH", 28)                                               \
  X(Pad, "PAD", 34)                                                 \
  X(Gather, "GATHER", 36)                                           \
  X(BatchToSpaceNd, "BATCH_TO_SPACE_ND", 37)                        \
  X(SpaceToBatchNd, "SPACE_TO_BATCH_ND", 38)                        \
  X(Transpose, "TRANSPOSE", 39)                                     \
  X(Mean, "MEAN", 40)                                               \
  X(Sub, "SUB", 41)                                                 \
  X(Div, "DIV", 42)                                                 \
  X(Squeeze, "SQUEEZE", 43)                                         \
  X(UnidirectionalSequenceLstm, "UNIDIRECTIONAL_SEQUENCE_LSTM", 44) \
  X(StridedSlice, "STRIDED_SLICE", 45)                              \
  X(Exp, "EXP", 47)                                                 \
  X(Split, "SPLIT", 49)                                             \
  X(LogSoftmax, "LOG_SOFTMAX", 50)                                  \
  X(Cast, "CAST", 53)                                               \
  X(Prelu, "PRELU", 54)                                             \
  X(Maximum, "MAXIMUM", 55)                                         \
  X(ArgMax, "ARG_MAX", 56)                                          \
  X(Minimum, "MINIMUM", 57)                                         \
  X(Less, "LESS", 58)                                               \
  X(Neg, "NEG", 59)                                                 \
  X(PadV2, "PADV2", 60)                                             \
  X(Greater, "GREATER", 61)                                         \
  X(GreaterEqual, "GREATER_EQUAL", 62)                              \
  X(LessEqual, "LESS_EQUAL", 63)                                    \
  X(Slice, "SLICE", 65)                                             \
  X(Sin, "SIN", 66)                                                 \
  X(TransposeConv, "TRANSPOSE_CONV", 67)                            \
  X(ExpandDims, "EXPAND_DIMS", 70)                                  \
  X(Equal, "EQUAL", 71)                                             \
  X(NotEqual, "NOT_EQUAL", 72)                                      \
  X(Log, "LOG", 73)                                                 \
  X(Sum, "SUM", 74)                                                 \
  X(Sqrt, "SQRT", 75)                                               \
  X(Rsqrt, "RSQRT", 76)                                             \
  X(Shape, "SHAPE", 77)                                             \
  X(ArgMin, "ARG_MIN", 79)                                          \
  X(ReduceMax, "REDUCE_MAX", 82)                                    \
  X(Pack, "PACK", 83)                                               \
  X(LogicalOr, "LOGICAL_OR", 84)                                    \
  X(LogicalAnd, "LOGICAL_AND", 86)                                  \
  X(LogicalNot, "LOGICAL_NOT", 87)                                  \
  X(Unpack, "UNPACK", 88)                                           \
  X(ReduceMin, "REDUCE_MIN", 89)                                    \
  X(FloorDiv, "FLOOR_DIV", 90)                                      \
  X(Square, "SQUARE", 92)                                           \
  X(ZerosLike, "ZEROS_LIKE", 93)                                    \
  X(Fill, "FILL", 94)                                               \
  X(FloorMod, "FLOOR_MOD", 95)                                      \
  X(ResizeNearestNeighbor, "RESIZE_NEAREST_NEIGHBOR", 97)           \
  X(LeakyRelu, "LEAKY_RELU", 98)                                    \
  X(SquaredDifference, "SQUARED_DIFFERENCE", 99)                    \
  X(MirrorPad, "MIRROR_PAD", 100)                                   \
  X(Abs, "ABS", 101)                                                \
  X(SplitV, "SPLIT_V", 102)                                         \
  X(Ceil, "CEIL", 104)                                              \
  X(ReverseV2, "REVERSE_V2", 105)                                   \
  X(AddN, "ADD_N", 106)                                             \
  X(GatherNd, "GATHER_ND", 107)                                     \
  X(Cos, "COS", 108)                                                \
  X(Elu, "ELU", 111)                                                \
  X(Quantize, "QUANTIZE", 114)                                      \
  X(Round, "ROUND", 116)                                            \
  X(HardSwish, "HARD_SWISH", 117)                                   \
  X(If, "IF", 118)                                                  \
  X(While, "WHILE", 119)                                            \
  X(SelectV2, "SELECT_V2", 123)                                     \
  X(BatchMatmul, "BATCH_MATMUL", 126)                               \
  X(Cumsum, "CUMSUM", 128)                                          \
  X(CallOnce, "CALL_ONCE", 129)                                     \
  X(BroadcastTo, "BROADCAST_TO", 130)                               \
  X(ReduceAll, "REDUCE_ALL", 140)                                   \
  X(VarHandle, "VAR_HANDLE", 142)                                   \
  X(ReadVariable, "READ_VARIABLE", 143)                             \
  X(AssignVariable, "ASSIGN_VARIABLE", 144)                         \
  X(BroadcastArgs, "BROADCAST_ARGS", 145)                           \
  X(DynamicUpdateSlice, "DYNAMIC_UPDATE_SLICE", 151)

enum class OpType {
#define LOUPE_OP_ENUM(name, tflite, code) name,
  LOUPE_OP_TYPES(LOUPE_OP_ENUM)
#undef LOUPE_OP_ENUM
  // The CUSTOM operator "ethos-u" that Arm's Vela leaves in a model: a
  // precompiled Ethos-U command stream, run by the Ethos-U functional model
  // (runtime_core/crt, loupe/ethosu/). Not a builtin, so outside the table.
  EthosU,
  // An operator Loupe can show but not compile or run: a TFLite CUSTOM
  // operator or a builtin outside the table above (kept when importing for
  // inspection only; see TfliteImporter).
  Opaque,
};

// TFLite spelling ("CONV_2D"); for EthosU, "CUSTOM(ethos-u)" as TFLite's tools
// name it; for Opaque, "OPAQUE".
std::string_view opTypeName(OpType type);

std::optional<OpType> opTypeFromBuiltinCode(int builtinCode);

}  // namespace loupe::ir
