#include "ethosu/lookup_table_lowering.h"

#include <exception>
#include <string>

#include "reference/reference_interpreter.h"

namespace loupe::ethosu {

namespace {

constexpr int kTableEntries = 256;

// The operator alone on a 1x1x1x256 input holding -128..127, run by the
// reference interpreter: entry i is its output for input i - 128.
std::vector<std::uint8_t> tableOf(const ir::Graph& graph, const ir::Operator& op) {
  ir::Graph alone;
  alone.name = "lookup_table";
  for (const int t : {op.inputs[0], op.outputs[0]}) {
    ir::Tensor copy = graph.tensor(t);
    copy.index = static_cast<int>(alone.tensors.size());
    copy.shape = {1, 1, 1, kTableEntries};
    copy.data.clear();
    alone.tensors.push_back(std::move(copy));
  }
  ir::Operator single = op;
  single.index = 0;
  single.inputs = {0};
  single.outputs = {1};
  single.sourceOperators.clear();
  alone.operators = {std::move(single)};
  alone.inputs = {0};
  alone.outputs = {1};
  std::vector<std::uint8_t> inputs(kTableEntries);
  for (int i = 0; i < kTableEntries; ++i) {
    inputs[static_cast<std::size_t>(i)] =
        static_cast<std::uint8_t>(static_cast<std::int8_t>(i - 128));
  }
  try {
    reference::ReferenceInterpreter interpreter(alone);
    interpreter.setInput(0, inputs);
    interpreter.invoke();
    const auto output = interpreter.output(0);
    return {output.begin(), output.end()};
  } catch (const std::exception& error) {
    // What TFLite Micro cannot run has no table to follow.
    std::string why = error.what();
    const auto reason = why.find("): ");
    throw NpuLoweringError(
        "operator " + std::to_string(op.index) + " (" + op.typeName() +
        "): no lookup table: " + (reason == std::string::npos ? why : why.substr(reason + 3)));
  }
}

}  // namespace

bool isLookupTableOperator(const ir::Operator& op) {
  switch (op.type) {
    case ir::OpType::Logistic:
    case ir::OpType::Tanh:
    case ir::OpType::HardSwish:
    case ir::OpType::LeakyRelu:
    case ir::OpType::Elu:
    case ir::OpType::Relu:
    case ir::OpType::Relu6:
    case ir::OpType::Abs:
    case ir::OpType::Neg:
    case ir::OpType::Quantize:
      return true;
    default:
      return false;
  }
}

LoweredOperation lowerLookupTable(const ir::Graph& graph, const ir::Operator& op,
                                  const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                                  const NpuFeatureMap& ofm) {
  const auto fail = [&op](const std::string& why) {
    throw NpuLoweringError("operator " + std::to_string(op.index) + " (" + op.typeName() +
                           "): " + why);
  };
  if (!isLookupTableOperator(op)) fail("has no lookup table");
  if (op.inputs.size() != 1 || op.outputs.size() != 1) fail("does not have one input and output");
  const ir::Tensor* in = graph.input(op, 0);
  if (in == nullptr || in->isConstant) fail("has no input feature map");
  const ir::Tensor& out = graph.output(op, 0);
  for (const ir::Tensor* t : {in, &out}) {
    if (auto problem = notInt8PerTensor(t == in ? "input" : "output", *t)) fail(*problem);
  }
  if (in->shape != out.shape) fail("its input and output shapes differ");
  if (ifm.height != ofm.height || ifm.width != ofm.width || ifm.depth != ofm.depth) {
    fail("its input and output feature maps differ");
  }
  LoweredOperation lowered;
  NpuOperation& npu = lowered.operation;
  npu.kind = NpuOperationKind::Pool;
  npu.subKind = LOUPE_ETHOSU_pooling_mode_MAX;
  npu.ifm = ifm;
  npu.ofm = ofm;
  // The raw byte reaches the output stage unchanged: it is the index.
  npu.ifm.zeroPoint = 0;
  npu.ofm.zeroPoint = 0;
  npu.activationFunction = LOUPE_ETHOSU_activation_function_TABLE_0;
  npu.activationMin = -128;
  npu.activationMax = 127;
  BlockRequest request;
  request.kind = NpuBlockKind::Pooling;
  request.ofm = {ofm.width, ofm.height, ofm.depth};
  request.ifm = {ifm.width, ifm.height, ifm.depth};
  request.usesLookupTable = true;
  request.scaled = false;
  const auto block = chooseBlockConfig(arch, request);
  if (!block) fail("no OFM block fits the SHRAM of " + std::string(arch.name));
  npu.block = *block;
  lowered.lookupTable = tableOf(graph, op);
  return lowered;
}

}  // namespace loupe::ethosu
