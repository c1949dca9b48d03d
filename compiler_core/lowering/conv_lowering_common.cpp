#include "lowering/conv_lowering_common.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace loupe::lowering {

using namespace tir;

namespace {

std::int64_t maxAbs(const std::vector<std::int64_t>& values) {
  std::int64_t m = 0;
  for (std::int64_t v : values) m = std::max(m, v < 0 ? -v : v);
  return m;
}

bool allEqual(const std::vector<std::int64_t>& values) {
  return std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) == values.end();
}

}  // namespace

ConvDims convDims(const ir::Tensor& input, const ir::Tensor& filter, const ir::Tensor& output,
                  const ir::Conv2DAttrs& attrs) {
  ConvDims d;
  d.batches = input.shape[0];
  d.inHeight = input.shape[1];
  d.inWidth = input.shape[2];
  d.inDepth = input.shape[3];
  d.outChannels = filter.shape[0];
  d.filterHeight = filter.shape[1];
  d.filterWidth = filter.shape[2];
  d.filterDepth = filter.shape[3];
  d.outHeight = output.shape[1];
  d.outWidth = output.shape[2];
  d.strideH = attrs.strideH;
  d.strideW = attrs.strideW;
  d.dilationH = attrs.dilationH;
  d.dilationW = attrs.dilationW;
  d.groups = d.inDepth / d.filterDepth;
  d.filtersPerGroup = d.outChannels / d.groups;
  return d;
}

std::vector<std::int64_t> convFilterSums(const ir::Tensor& filter, int outChannels) {
  std::vector<std::int64_t> sums(static_cast<std::size_t>(outChannels), 0);
  if (filter.dtype != ir::DType::Int8 || sums.empty()) return sums;
  const std::vector<std::int8_t> values = tensorValues<std::int8_t>(filter);
  const std::size_t perChannel = values.size() / sums.size();
  for (std::size_t k = 0; k < values.size(); ++k) sums[k / perChannel] += values[k];
  return sums;
}

std::vector<std::int64_t> depthwiseFilterSums(const ir::Tensor& filter, int channels) {
  std::vector<std::int64_t> sums(static_cast<std::size_t>(channels), 0);
  if (filter.dtype != ir::DType::Int8 || sums.empty()) return sums;
  const std::vector<std::int8_t> values = tensorValues<std::int8_t>(filter);
  for (std::size_t k = 0; k < values.size(); ++k) sums[k % sums.size()] += values[k];
  return sums;
}

ConvArithmetic::ConvArithmetic(FunctionBuilder& fb, const ir::Tensor& input, const ir::Tensor* bias,
                               const ir::Tensor& output, const std::vector<float>& filterScales,
                               ir::Activation activation,
                               const std::vector<std::int64_t>& windowWeightSums,
                               std::int64_t windowSize, bool int64Requantization)
    : fb_(fb), bias_(bias), int64Requantization_(int64Requantization) {
  const auto channels = static_cast<int>(windowWeightSums.size());
  outType_ = fromDType(output.dtype);
  if (input.dtype == ir::DType::Float32) {
    isFloat_ = true;
    accType_ = ScalarType::Float32;
    floatRange_ = reference::floatActivationRange(activation);
    return;
  }
  const bool int16Input = input.dtype == ir::DType::Int16;
  biasValues_.assign(static_cast<std::size_t>(channels), 0);
  if (bias != nullptr && bias->dtype == ir::DType::Int64) {
    const auto values = tensorValues<std::int64_t>(*bias);
    std::copy(values.begin(), values.end(), biasValues_.begin());
  } else if (bias != nullptr) {
    const auto values = tensorValues<std::int32_t>(*bias);
    std::copy(values.begin(), values.end(), biasValues_.begin());
  }
  // TFLite Micro's 16x8 kernels apply no zero points.
  inputOffset_ = int16Input ? 0 : -static_cast<std::int64_t>(input.quantization.zeroPoint());
  outputOffset_ = int16Input ? 0 : output.quantization.zeroPoint();
  interiorValues_ = biasValues_;
  for (int oc = 0; oc < channels; ++oc) {
    interiorValues_[static_cast<std::size_t>(oc)] +=
        inputOffset_ * windowWeightSums[static_cast<std::size_t>(oc)];
  }

  // The reference sums in 64 bits and keeps the low 32 (or all 64) bits. An
  // int32 accumulator gives the same sum when no partial sum can leave the
  // int32 range: |product| <= 2^15 for int8 (even with the offset added),
  // 2^22 for int16 x int8. Otherwise accumulate in int64 as the reference.
  const std::int64_t productBound = int16Input ? (std::int64_t{1} << 22) : (std::int64_t{1} << 15);
  const std::int64_t bound =
      std::max(maxAbs(biasValues_), maxAbs(interiorValues_)) + windowSize * productBound;
  accType_ =
      bound <= std::numeric_limits<std::int32_t>::max() ? ScalarType::Int32 : ScalarType::Int64;

  const auto multipliers = reference::perChannelMultipliers(
      input.quantization.scale(), filterScales, output.quantization.scale(), channels);
  splitShift_ = !int64Requantization_;
  for (const auto& m : multipliers) {
    multipliers_.push_back(m.multiplier);
    shifts_.push_back(m.shift);
    splitShift_ = splitShift_ && m.multiplier >= 0 && m.shift >= -31 && m.shift <= 30;
  }
  range_ = reference::quantizedActivationRange(activation, output);
}

std::optional<ConvArithmetic::KernelRequantization> ConvArithmetic::kernelRequantization() const {
  if (isFloat_ || outType_ != ScalarType::Int8 || accType_ != ScalarType::Int32 || !splitShift_) {
    return std::nullopt;
  }
  KernelRequantization k;
  for (std::size_t c = 0; c < interiorValues_.size(); ++c) {
    k.accInit.push_back(static_cast<std::int32_t>(interiorValues_[c]));
    k.bias.push_back(static_cast<std::int32_t>(biasValues_[c]));
    k.multipliers.push_back(static_cast<std::int32_t>(multipliers_[c]));
    k.shifts.push_back(static_cast<std::int32_t>(shifts_[c]));
  }
  k.inputOffset = static_cast<std::int32_t>(inputOffset_);
  k.outputOffset = outputOffset_;
  k.actMin = range_.min;
  k.actMax = range_.max;
  return k;
}

Expr ConvArithmetic::channelValue(Buffer& table, const std::string& role,
                                  const std::vector<std::int64_t>& values, ScalarType type,
                                  const Expr& oc) {
  // Equal values for every channel (per-tensor quantisation, no bias) become
  // immediates; otherwise a constant table indexed by the channel.
  if (allEqual(values)) return intImm(values.empty() ? 0 : values.front(), type);
  if (!table) {
    if (type == ScalarType::Int64) {
      table = fb_.constant(role, type, values);
    } else {
      std::vector<std::int32_t> narrow;
      for (std::int64_t v : values) narrow.push_back(static_cast<std::int32_t>(v));
      table = fb_.constant(role, type, narrow);
    }
  }
  return load(table, oc);
}

Expr ConvArithmetic::initial(const Expr& oc, bool foldInputOffset) {
  if (isFloat_) return floatImm(0.0);
  if (foldInputOffset && inputOffset_ != 0) {
    return channelValue(interiorTable_, "acc_init", interiorValues_, accType_, oc);
  }
  return channelValue(biasTable_, "bias", biasValues_, accType_, oc);
}

Expr ConvArithmetic::product(const Expr& filterValue, const Expr& inputValue,
                             bool addInputOffset) const {
  if (isFloat_) return inputValue * filterValue;
  Expr x = cast(accType_, inputValue);
  if (addInputOffset && inputOffset_ != 0) x = x + intImm(inputOffset_, accType_);
  return cast(accType_, filterValue) * x;
}

Expr ConvArithmetic::offsetInput(const Expr& inputValue, ScalarType type) const {
  if (inputOffset_ == 0) return cast(type, inputValue);
  return cast(type, cast(ScalarType::Int32, inputValue) + intImm(inputOffset_));
}

Expr ConvArithmetic::finish(const Expr& acc, const Expr& oc) {
  if (isFloat_) {
    // The reference adds the bias (0.0f without one) last, then clamps.
    if (bias_ != nullptr && !biasTable_) biasTable_ = fb_.constant(*bias_, "bias");
    const Expr biasValue = bias_ != nullptr ? load(biasTable_, oc) : floatImm(0.0);
    return callIntrinsic("loupe.clamp_f32", ScalarType::Float32,
                         {acc + biasValue, floatImm(floatRange_.min), floatImm(floatRange_.max)});
  }
  const Expr multiplier =
      channelValue(multiplierTable_, "multiplier", multipliers_, ScalarType::Int32, oc);
  Expr requantized;
  if (splitShift_) {
    // The branch-free form; shifts equal for every channel become constants
    // (usually every left shift is 0).
    std::vector<std::int64_t> leftShifts, rightShifts;
    for (std::int64_t s : shifts_) {
      leftShifts.push_back(std::max<std::int64_t>(s, 0));
      rightShifts.push_back(std::max<std::int64_t>(-s, 0));
    }
    const Expr left =
        channelValue(leftShiftTable_, "left_shift", leftShifts, ScalarType::Int32, oc);
    const Expr right =
        channelValue(rightShiftTable_, "right_shift", rightShifts, ScalarType::Int32, oc);
    requantized = callIntrinsic("loupe.requantize_i32_split_shift", ScalarType::Int32,
                                {cast(ScalarType::Int32, acc), multiplier, left, right,
                                 intImm(outputOffset_), intImm(range_.min), intImm(range_.max)});
    return cast(outType_, requantized);
  }
  const Expr shift = channelValue(shiftTable_, "shift", shifts_, ScalarType::Int32, oc);
  if (int64Requantization_) {
    requantized = callIntrinsic(
        "loupe.requantize_i64", ScalarType::Int32,
        {cast(ScalarType::Int64, acc), multiplier, shift, intImm(range_.min), intImm(range_.max)});
  } else {
    requantized = callIntrinsic("loupe.requantize_i32", ScalarType::Int32,
                                {cast(ScalarType::Int32, acc), multiplier, shift,
                                 intImm(outputOffset_), intImm(range_.min), intImm(range_.max)});
  }
  return cast(outType_, requantized);
}

}  // namespace loupe::lowering
