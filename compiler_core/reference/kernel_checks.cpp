#include "reference/kernel_checks.h"

#include <algorithm>

namespace loupe::reference {

std::string shapeText(const ir::Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

std::string typeAndShape(const ir::Tensor& tensor) {
  return std::string(ir::dtypeName(tensor.dtype)) + " " + shapeText(tensor.shape);
}

std::string describeTensor(const ir::Tensor& tensor) {
  const std::string details = "(" + typeAndShape(tensor) + ")";
  if (tensor.name.empty()) return details;
  return "'" + tensor.name + "' " + details;
}

std::optional<std::string> expectPerTensorQuantization(const ir::Tensor& tensor,
                                                       const std::string& role) {
  if (!tensor.quantization.isQuantized()) {
    return role + " " + describeTensor(tensor) + " has no quantisation parameters";
  }
  if (tensor.quantization.isPerChannel()) {
    return role + " " + describeTensor(tensor) + " has " +
           std::to_string(tensor.quantization.scales.size()) +
           " scales; expected one (per-tensor quantisation)";
  }
  if (!(tensor.quantization.scale() > 0.0f)) {
    return role + " " + describeTensor(tensor) + " has scale " +
           std::to_string(tensor.quantization.scale()) + "; expected a positive scale";
  }
  return std::nullopt;
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

}  // namespace loupe::reference

namespace loupe::reference {

std::optional<std::string> checkWeightedDtypes(const ir::Tensor& input, const ir::Tensor& filter,
                                               const ir::Tensor* bias, const ir::Tensor& output,
                                               const std::vector<ir::DType>& int16BiasTypes) {
  using ir::DType;
  const auto found = [&] {
    std::string text = "input " + std::string(ir::dtypeName(input.dtype)) + ", filter " +
                       std::string(ir::dtypeName(filter.dtype)) + ", bias " +
                       (bias ? std::string(ir::dtypeName(bias->dtype)) : std::string("none")) +
                       ", output " + std::string(ir::dtypeName(output.dtype));
    std::string int16Biases;
    for (std::size_t i = 0; i < int16BiasTypes.size(); ++i) {
      if (i > 0) int16Biases += i + 1 == int16BiasTypes.size() ? " or " : ", ";
      int16Biases += ir::dtypeName(int16BiasTypes[i]);
    }
    return "unsupported element types (" + text +
           "); expected float32 throughout, int8 with an int32 bias, or int16 input/output "
           "with int8 filter and " +
           int16Biases + " bias";
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
  if (auto problem = expectPerTensorQuantization(input, "input")) return problem;
  if (auto problem = expectPerTensorQuantization(output, "output")) return problem;
  const auto& q = filter.quantization;
  if (!q.isQuantized()) {
    return "filter " + describeTensor(filter) + " has no quantisation parameters";
  }
  if (q.isPerChannel()) {
    if (static_cast<int>(q.scales.size()) != channels) {
      return "filter " + describeTensor(filter) + " has " + std::to_string(q.scales.size()) +
             " per-channel scales; expected 1 or " + std::to_string(channels) +
             " (one per output channel)";
    }
    if (q.quantizedDimension != channelDimension) {
      return "filter " + describeTensor(filter) + " is quantised along dimension " +
             std::to_string(q.quantizedDimension) + "; expected dimension " +
             std::to_string(channelDimension);
    }
  }
  for (float scale : q.scales) {
    if (!(scale >= 0.0f)) {
      return "filter " + describeTensor(filter) + " has an invalid scale " + std::to_string(scale);
    }
  }
  return std::nullopt;
}

}  // namespace loupe::reference
