// Operator attributes of the graph IR: one plain struct per kind of operator,
// holding what TFLite keeps in the operator's builtin options (and, for
// RESHAPE, the shape operand when it is a constant).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace loupe::ir {

enum class Padding { Same, Valid };

// TFLite's fused activation functions.
enum class Activation { None, Relu, ReluN1To1, Relu6, Tanh, SignBit };

std::string_view paddingName(Padding padding);
std::string_view activationName(Activation activation);

struct Conv2DAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  int dilationW = 1, dilationH = 1;
  Activation activation = Activation::None;
};

struct DepthwiseConv2DAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  int dilationW = 1, dilationH = 1;
  int depthMultiplier = 1;
  Activation activation = Activation::None;
};

struct Pool2DAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  int filterW = 1, filterH = 1;
  Activation activation = Activation::None;
};

struct FullyConnectedAttrs {
  Activation activation = Activation::None;
  bool keepNumDims = false;
  bool asymmetricQuantizeInputs = false;
};

struct SoftmaxAttrs {
  float beta = 1.0f;
};

struct ConcatenationAttrs {
  int axis = 0;
  Activation activation = Activation::None;
};

// ADD, SUB and MUL.
struct ElementwiseAttrs {
  Activation activation = Activation::None;
  // ADD/SUB with int16: TFLite's pot_scale_int16 (power-of-two scales path).
  bool potScaleInt16 = true;
};

struct ReshapeAttrs {
  std::vector<std::int32_t> newShape;  // empty when given only by the shape operand
};

struct SqueezeAttrs {
  std::vector<std::int32_t> squeezeDims;
};

struct LeakyReluAttrs {
  float alpha = 0.2f;
};

// MEAN (and other reductions later).
struct ReducerAttrs {
  bool keepDims = false;
};

struct StridedSliceAttrs {
  int beginMask = 0, endMask = 0, ellipsisMask = 0, newAxisMask = 0, shrinkAxisMask = 0;
  bool offset = false;
};

struct TransposeConvAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  Activation activation = Activation::None;
};

struct SvdfAttrs {
  int rank = 1;
  Activation activation = Activation::None;
  bool asymmetricQuantizeInputs = false;
};

struct SequenceLstmAttrs {
  Activation activation = Activation::Tanh;
  float cellClip = 0.0f;
  float projClip = 0.0f;
  bool timeMajor = false;
  bool asymmetricQuantizeInputs = false;
  bool diagonalRecurrentTensors = false;
};

// A TFLite CUSTOM operator (or an unknown builtin), kept for inspection.
struct OpaqueAttrs {
  std::string customCode;  // empty for an unknown builtin
  int builtinCode = 32;    // TFLite's BuiltinOperator; 32 is CUSTOM
  std::vector<std::uint8_t> customOptions;
};

using Attributes =
    std::variant<std::monostate, Conv2DAttrs, DepthwiseConv2DAttrs, Pool2DAttrs,
                 FullyConnectedAttrs, SoftmaxAttrs, ConcatenationAttrs, ElementwiseAttrs,
                 ReshapeAttrs, SqueezeAttrs, LeakyReluAttrs, ReducerAttrs, StridedSliceAttrs,
                 TransposeConvAttrs, SvdfAttrs, SequenceLstmAttrs, OpaqueAttrs>;

}  // namespace loupe::ir
