// What the CONV_2D and DEPTHWISE_CONV_2D lowerings share: the padding of a
// sliding window (taken from one function, so every window lowering agrees),
// the split of an output axis into runs of positions whose windows clip the
// same filter taps (so every loop nest has constant bounds and the interior
// needs no bounds checks), and the arithmetic around the accumulator (its
// type, its starting value with the input zero point folded in, the product
// of one tap and the requantisation of the result) exactly as the reference
// kernels compute it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lowering/lowering_support.h"
#include "lowering/window_padding.h"
#include "reference/quantized_params.h"

namespace loupe::lowering {

// The sizes of one CONV_2D: input, filter [out][h][w][depth], output,
// strides, dilations and groups (input depth / filter depth).
struct ConvDims {
  int batches = 0, inHeight = 0, inWidth = 0, inDepth = 0;
  int outChannels = 0, filterHeight = 0, filterWidth = 0, filterDepth = 0;
  int outHeight = 0, outWidth = 0;
  int strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int groups = 1, filtersPerGroup = 0;
  int windowSize() const { return filterHeight * filterWidth * filterDepth; }
};

ConvDims convDims(const ir::Tensor& input, const ir::Tensor& filter, const ir::Tensor& output,
                  const ir::Conv2DAttrs& attrs);

// Sum of each output channel's filter values (zeros unless the filter is int8):
// rows of a [out][h][w][depth] filter, or of FULLY_CONNECTED's [units][depth]
// weights.
std::vector<std::int64_t> convFilterSums(const ir::Tensor& filter, int outChannels);
// The same for a depthwise [1][h][w][channels] filter: channels innermost.
std::vector<std::int64_t> depthwiseFilterSums(const ir::Tensor& filter, int channels);

// The accumulator arithmetic of one convolution: float32, int8 (input zero
// point, int32 bias) or 16x8 (int32 or int64 bias, no zero points). The
// constant tables it needs are added to the function when first used, so the
// generated C declares no table it does not read.
class ConvArithmetic {
 public:
  // windowWeightSums: per output channel, the sum of all filter values of
  // its window (for folding the input zero point into the interior's
  // starting value); windowSize: the number of products per output element.
  // filterScales: one per output channel, or one for the whole filter.
  // int64Requantization: the 16x8 kernel requantises the 64-bit sum (CONV_2D
  // with an int64 bias or none; DEPTHWISE_CONV_2D always) instead of its low
  // 32 bits.
  ConvArithmetic(FunctionBuilder& fb, const ir::Tensor& input, const ir::Tensor* bias,
                 const ir::Tensor& output, const std::vector<float>& filterScales,
                 ir::Activation activation, const std::vector<std::int64_t>& windowWeightSums,
                 std::int64_t windowSize, bool int64Requantization);

  tir::ScalarType accType() const { return accType_; }
  bool isFloat() const { return isFloat_; }

  // The accumulator's starting value for output channel `oc`: the bias,
  // plus the input zero point when `foldInputOffset` (a window with every
  // tap inside the input: sum (x + off) * w = sum x * w + off * sum w).
  tir::Expr initial(const tir::Expr& oc, bool foldInputOffset);

  // The term one tap adds: filter * input, or filter * (input + offset)
  // with `addInputOffset` (int8 with a nonzero input zero point).
  tir::Expr product(const tir::Expr& filterValue, const tir::Expr& inputValue,
                    bool addInputOffset) const;

  // An input value with the input offset added, as `type` (int16 holds it).
  tir::Expr offsetInput(const tir::Expr& inputValue, tir::ScalarType type) const;

  // The stored value of output channel `oc` from its accumulator: bias added
  // last and clamped (float), or requantised with the channel's multiplier.
  tir::Expr finish(const tir::Expr& acc, const tir::Expr& oc);

  // What a kernel that accumulates and requantises a whole pixel itself
  // needs (loupe/simd_kernels.h), for int8 with an int32 accumulator and
  // every multiplier >= 0 and shift in [-31, 30]; nullopt otherwise.
  struct KernelRequantization {
    std::vector<std::int32_t> accInit;  // bias + input offset * filter sum
    std::vector<std::int32_t> bias;     // the bias alone (windows clipped by padding)
    std::int32_t inputOffset = 0;
    std::vector<std::int32_t> multipliers, shifts;
    std::int32_t outputOffset = 0, actMin = 0, actMax = 0;
  };
  std::optional<KernelRequantization> kernelRequantization() const;

 private:
  tir::Expr channelValue(tir::Buffer& table, const std::string& role,
                         const std::vector<std::int64_t>& values, tir::ScalarType type,
                         const tir::Expr& oc);

  FunctionBuilder& fb_;
  const ir::Tensor* bias_;
  bool isFloat_ = false;
  bool int64Requantization_ = false;
  bool splitShift_ = false;  // loupe_requantize_acc_i32_split_shift fits every channel
  tir::ScalarType accType_ = tir::ScalarType::Int32;
  tir::ScalarType outType_ = tir::ScalarType::Int8;
  std::int64_t inputOffset_ = 0;
  std::int32_t outputOffset_ = 0;
  reference::IntRange range_;
  reference::FloatRange floatRange_;
  std::vector<std::int64_t> biasValues_, interiorValues_, multipliers_, shifts_;
  tir::Buffer biasTable_, interiorTable_, multiplierTable_, shiftTable_, leftShiftTable_,
      rightShiftTable_;
};

}  // namespace loupe::lowering
