#include "deploy/float_model_comparison.h"

#include <cstring>
#include <map>
#include <stdexcept>

#include "reference/reference_interpreter.h"

namespace loupe::deploy {

namespace {

using Buffer = std::vector<std::uint8_t>;

Buffer floatModelInput(const ir::Tensor& quantized, const ir::Tensor& real, const Buffer& bytes,
                       std::size_t index) {
  const std::string which = "input " + std::to_string(index) + " '" + real.name + "'";
  if (real.elementCount() != quantized.elementCount()) {
    throw std::invalid_argument(
        "the float model's " + which + " has " + std::to_string(real.elementCount()) +
        " elements, the quantized model's " + std::to_string(quantized.elementCount()));
  }
  if (real.dtype == ir::DType::Float32 && !real.quantization.isQuantized()) {
    const std::vector<double> values = tensorValues(quantized, bytes, "the input");
    Buffer converted(values.size() * sizeof(float));
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto value = static_cast<float>(values[i]);
      std::memcpy(converted.data() + i * sizeof(float), &value, sizeof(float));
    }
    return converted;
  }
  if (real.dtype == quantized.dtype && real.quantization == quantized.quantization) return bytes;
  throw std::invalid_argument(
      "the float model's " + which + " is " + std::string(ir::dtypeName(real.dtype)) +
      ", neither float32 nor the quantized model's " + std::string(ir::dtypeName(quantized.dtype)));
}

}  // namespace

FloatModelComparison compareWithFloatModel(const ir::Graph& quantized, const ir::Graph& floatModel,
                                           const std::vector<Buffer>& inputs) {
  if (floatModel.inputs.size() != quantized.inputs.size()) {
    throw std::invalid_argument("the float model has " + std::to_string(floatModel.inputs.size()) +
                                " input(s), the quantized model " +
                                std::to_string(quantized.inputs.size()));
  }
  reference::ReferenceInterpreter quantizedRun(quantized);
  reference::ReferenceInterpreter floatRun(floatModel);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    quantizedRun.setInput(i, inputs[i]);
    floatRun.setInput(i, floatModelInput(quantized.tensor(quantized.inputs[i]),
                                         floatModel.tensor(floatModel.inputs[i]), inputs[i], i));
  }
  quantizedRun.invoke();
  floatRun.invoke();

  std::map<std::string, const ir::Tensor*> floatTensors;
  for (const ir::Tensor& tensor : floatModel.tensors) {
    if (!tensor.isConstant && !tensor.name.empty()) floatTensors.emplace(tensor.name, &tensor);
  }
  FloatModelComparison comparison;
  for (const ir::Operator& op : quantized.operators) {
    for (const int output : op.outputs) {
      const ir::Tensor& tensor = quantized.tensor(output);
      if (tensor.byteSize() == 0) continue;
      const auto match = floatTensors.find(tensor.name);
      if (match == floatTensors.end() || match->second->elementCount() != tensor.elementCount()) {
        comparison.unmatched.push_back(tensor.name);
        continue;
      }
      const ir::Tensor& real = *match->second;
      comparison.layers.push_back(
          {op.index, op.typeName(), tensor.name,
           compareValues(tensorValues(real, floatRun.tensorBytes(real.index)),
                         tensorValues(tensor, quantizedRun.tensorBytes(tensor.index)))});
    }
  }
  return comparison;
}

}  // namespace loupe::deploy
