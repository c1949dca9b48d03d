// Operator attributes of the graph IR: one plain struct per kind of operator,
// holding what TFLite keeps in the operator's builtin options (and, for
// RESHAPE, the shape operand when it is a constant).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace loupe::ir {

enum class Padding { Same, Valid };

// TFLite's fused activation functions.
enum class Activation { None, Relu, ReluN1To1, Relu6, Tanh, SignBit };

std::string_view paddingName(Padding padding);
std::string_view activationName(Activation activation);

// The padding of a sliding window spelled out, as legalisation leaves it: the
// windows start `top` rows and `left` columns before the first element and
// may reach `bottom` rows and `right` columns past the last one. When an
// operator carries it, it overrides SAME/VALID. Padded positions contribute
// nothing (convolutions skip them, pooling windows are clipped), as TFLite's
// implicit padding does.
struct ExplicitPadding {
  int top = 0, bottom = 0, left = 0, right = 0;
  bool operator==(const ExplicitPadding&) const = default;
};

// "explicit(t=0,b=1,l=0,r=1)".
std::string explicitPaddingToString(const ExplicitPadding& padding);

struct Conv2DAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  int dilationW = 1, dilationH = 1;
  Activation activation = Activation::None;
  std::optional<ExplicitPadding> explicitPadding;  // set by legalisation
};

struct DepthwiseConv2DAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  int dilationW = 1, dilationH = 1;
  int depthMultiplier = 1;
  Activation activation = Activation::None;
  std::optional<ExplicitPadding> explicitPadding;  // set by legalisation
};

struct Pool2DAttrs {
  Padding padding = Padding::Same;
  int strideW = 1, strideH = 1;
  int filterW = 1, filterH = 1;
  Activation activation = Activation::None;
  std::optional<ExplicitPadding> explicitPadding;  // set by legalisation
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

// The options of an operator that carries only a few numbers (SPLIT's
// num_splits, GATHER's axis and batch_dims, RESIZE_BILINEAR's flags, ...),
// named as TFLite's schema names them. Each operator's definition
// (compiler_core/ops) reads and checks them; printers show them as they are.
// Booleans and enumerations are stored as their integer values.
struct OptionAttrs {
  std::vector<std::pair<std::string, std::int64_t>> values;

  // The value of `name`, or `fallback` when the operator does not carry it.
  std::int64_t get(std::string_view name, std::int64_t fallback = 0) const {
    for (const auto& [key, value] : values) {
      if (key == name) return value;
    }
    return fallback;
  }
  OptionAttrs& set(std::string name, std::int64_t value) {
    for (auto& [key, old] : values) {
      if (key == name) {
        old = value;
        return *this;
      }
    }
    values.emplace_back(std::move(name), value);
    return *this;
  }
};

// A TFLite CUSTOM operator (or an unknown builtin), kept for inspection.
struct OpaqueAttrs {
  std::string customCode;  // empty for an unknown builtin
  int builtinCode = 32;    // TFLite's BuiltinOperator; 32 is CUSTOM
  std::vector<std::uint8_t> customOptions;
};

// The Vela operator "ethos-u" (OpType::EthosU), as the importer checked it.
// Its inputs are the driver payload (constant), the flash (constant, or
// kNoTensor when Vela left it empty), then the model's feature maps; Vela's
// scratch and fast-scratch tensors are not operands but the operator's own
// scratch, one arena holding the feature maps at the offsets Vela planned
// (metadata OfflineMemoryAllocation), so they are sizes and offsets here.
struct EthosUAttrs {
  int accelerator = 0;  // enum loupe_ethosu_accelerator, from the payload's OPTIMIZER_CONFIG
  std::int64_t scratchBytes = 0;
  // The fast scratch: its own area of fastScratchBytes, or, when Vela
  // planned it inside the scratch (the U55's shared SRAM), at
  // fastScratchOffset there.
  std::int64_t fastScratchBytes = 0;
  std::int64_t fastScratchOffset = -1;
  // Per feature-map input (operand 2 onwards) and per output: its offset in
  // the scratch arena.
  std::vector<std::int64_t> inputOffsets;
  std::vector<std::int64_t> outputOffsets;
  // int16 values of weight-decoding workspace the functional model needs
  // (the largest OFM block of weights of any operation).
  std::uint32_t workspaceValues = 0;
  std::uint32_t npuOperations = 0;  // operations of the command stream, STOP excluded
  std::int64_t macs = 0;  // of those operations (frontend::ethosuOperationMacs), or of the
                          // model operators a region Loupe compiled stands for
};

// "ethos-u55-128", as Vela's --accelerator-config spells it; "unknown" else.
std::string_view ethosuAcceleratorName(int accelerator);

using Attributes = std::variant<std::monostate, Conv2DAttrs, DepthwiseConv2DAttrs, Pool2DAttrs,
                                FullyConnectedAttrs, SoftmaxAttrs, ConcatenationAttrs,
                                ElementwiseAttrs, ReshapeAttrs, SqueezeAttrs, LeakyReluAttrs,
                                ReducerAttrs, StridedSliceAttrs, TransposeConvAttrs, SvdfAttrs,
                                SequenceLstmAttrs, OptionAttrs, OpaqueAttrs, EthosUAttrs>;

}  // namespace loupe::ir
