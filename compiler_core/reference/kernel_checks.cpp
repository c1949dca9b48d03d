#include "reference/kernel_checks.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace loupe::reference {

std::string describeDtype(ir::DType type) {
  return std::string(ir::dtypeName(type));
}

std::string describeDtypes(const std::vector<ir::DType>& types) {
  std::string text;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i > 0) text += i + 1 == types.size() ? " or " : ", ";
    text += ir::dtypeName(types[i]);
  }
  return text;
}

std::string describeTensor(std::string_view role, const ir::Tensor& tensor) {
  std::string text(role);
  if (!tensor.name.empty()) text += " '" + tensor.name + "'";
  return text + " (" + describeDtype(tensor.dtype) + " " + ir::shapeToString(tensor.shape) + ")";
}

bool hasInput(const ir::Operator& op, std::size_t slot) {
  return slot < op.inputs.size() && op.inputs[slot] != ir::kNoTensor;
}

std::optional<std::string> checkArity(const ir::Operator& op, const char* opName,
                                      std::size_t inputs, std::size_t outputs) {
  for (std::size_t slot = 0; slot < inputs; ++slot) {
    if (!hasInput(op, slot)) {
      return std::string(opName) + " needs input " + std::to_string(slot) + " (expected " +
             std::to_string(inputs) + " inputs, found " + std::to_string(op.inputs.size()) + ")";
    }
  }
  if (op.outputs.size() != outputs) {
    return std::string(opName) + " expects " + std::to_string(outputs) + " output(s), found " +
           std::to_string(op.outputs.size());
  }
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> constantIntegers(const ir::Tensor& tensor) {
  if (!tensor.isConstant) return std::nullopt;
  const auto count = static_cast<std::size_t>(tensor.elementCount());
  std::vector<std::int64_t> values(count);
  if (tensor.dtype == ir::DType::Int32) {
    if (tensor.data.size() < count * 4) return std::nullopt;
    for (std::size_t i = 0; i < count; ++i) {
      std::int32_t v;
      std::memcpy(&v, tensor.data.data() + i * 4, 4);
      values[i] = v;
    }
    return values;
  }
  if (tensor.dtype == ir::DType::Int64) {
    if (tensor.data.size() < count * 8) return std::nullopt;
    for (std::size_t i = 0; i < count; ++i) {
      std::int64_t v;
      std::memcpy(&v, tensor.data.data() + i * 8, 8);
      values[i] = v;
    }
    return values;
  }
  return std::nullopt;
}

std::int64_t dimensionProduct(const ir::Shape& shape, std::size_t begin, std::size_t end) {
  std::int64_t product = 1;
  for (std::size_t i = begin; i < end && i < shape.size(); ++i) product *= shape[i];
  return product;
}

std::optional<std::string> checkPerTensorQuantization(std::string_view role,
                                                      const ir::Tensor& tensor) {
  const auto& quant = tensor.quantization;
  const std::string what = describeTensor(role, tensor);
  if (!quant.isQuantized()) {
    return what + " has no quantisation parameters; expected a scale and a zero point";
  }
  if (quant.isPerChannel() || quant.zeroPoints.size() > 1) {
    return what + " is quantised per channel (" + std::to_string(quant.scales.size()) +
           " scales); expected one scale and zero point for the whole tensor";
  }
  const float scale = quant.scale();
  if (!(scale > 0.0f) || !std::isfinite(scale)) {
    return what + " has scale " + std::to_string(scale) + "; expected a positive finite scale";
  }
  return std::nullopt;
}

std::optional<std::string> checkZeroPoint(std::string_view role, const ir::Tensor& tensor,
                                          std::int32_t expected, std::string_view why) {
  const std::int32_t found = tensor.quantization.zeroPoint();
  if (found == expected) return std::nullopt;
  return describeTensor(role, tensor) + " must have zero point " + std::to_string(expected) + " (" +
         std::string(why) + "), found " + std::to_string(found);
}

std::optional<ir::Shape> broadcastShape(const ir::Shape& a, const ir::Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  ir::Shape result(rank, 1);
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int32_t da = k < a.size() ? a[a.size() - 1 - k] : 1;
    const std::int32_t db = k < b.size() ? b[b.size() - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    result[rank - 1 - k] = da == 1 ? db : da;
  }
  return result;
}

std::optional<std::string> checkWeightedDtypes(const ir::Tensor& input, const ir::Tensor& filter,
                                               const ir::Tensor* bias, const ir::Tensor& output,
                                               const std::vector<ir::DType>& int16BiasTypes) {
  using ir::DType;
  const auto found = [&] {
    const std::string text = "input " + describeDtype(input.dtype) + ", filter " +
                             describeDtype(filter.dtype) + ", bias " +
                             (bias ? describeDtype(bias->dtype) : std::string("none")) +
                             ", output " + describeDtype(output.dtype);
    return "unsupported element types (" + text +
           "); expected float32 throughout, int8 with an int32 bias, or int16 input/output "
           "with int8 filter and " +
           describeDtypes(int16BiasTypes) + " bias";
  };
  bool ok = false;
  switch (input.dtype) {
    case DType::Float32:
      ok = filter.dtype == DType::Float32 && output.dtype == DType::Float32 &&
           (!bias || bias->dtype == DType::Float32);
      break;
    case DType::Int8:
      ok = filter.dtype == DType::Int8 && output.dtype == DType::Int8 &&
           (!bias || bias->dtype == DType::Int32);
      break;
    case DType::Int16:
      ok = filter.dtype == DType::Int8 && output.dtype == DType::Int16 &&
           (!bias || std::find(int16BiasTypes.begin(), int16BiasTypes.end(), bias->dtype) !=
                         int16BiasTypes.end());
      break;
    default:
      break;
  }
  if (!ok) return found();
  return std::nullopt;
}

std::optional<std::string> checkWeightedQuantization(const ir::Tensor& input,
                                                     const ir::Tensor& filter,
                                                     const ir::Tensor& output, int channels,
                                                     int channelDimension) {
  if (auto problem = checkPerTensorQuantization("input", input)) return problem;
  if (auto problem = checkPerTensorQuantization("output", output)) return problem;
  const auto& q = filter.quantization;
  if (!q.isQuantized()) {
    return describeTensor("filter", filter) + " has no quantisation parameters";
  }
  if (q.isPerChannel()) {
    if (static_cast<int>(q.scales.size()) != channels) {
      return describeTensor("filter", filter) + " has " + std::to_string(q.scales.size()) +
             " per-channel scales; expected 1 or " + std::to_string(channels) +
             " (one per output channel)";
    }
    if (q.quantizedDimension != channelDimension) {
      return describeTensor("filter", filter) + " is quantised along dimension " +
             std::to_string(q.quantizedDimension) + "; expected dimension " +
             std::to_string(channelDimension);
    }
  }
  for (float scale : q.scales) {
    if (!(scale >= 0.0f)) {
      return describeTensor("filter", filter) + " has an invalid scale " + std::to_string(scale);
    }
  }
  return std::nullopt;
}

}  // namespace loupe::reference
