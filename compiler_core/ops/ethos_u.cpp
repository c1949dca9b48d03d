// The Vela operator "ethos-u" (ir::OpType::EthosU): its command stream runs
// (on the reference interpreter and in generated C) on the Ethos-U
// functional model through Arm's driver call,
// ethosu_invoke_v3, with the base addresses TFLite Micro's ethos-u kernel
// passes: region 0 the flash, 1 the scratch arena, 2 the fast scratch, then
// every feature-map input and output where it lies in the arena. The
// feature maps are copied into the arena at Vela's offsets and the outputs
// out of it, so the rest of the graph keeps its own storage.
#include <cstring>
#include <memory>
#include <stdexcept>

#include "loupe/ethosu/ethosu_driver.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"

namespace loupe::ops {

namespace {

constexpr std::size_t kEthosUFeatureMapSlot = 2;  // after the payload and the flash
constexpr std::int64_t kEthosUAlignment = 16;     // ethosu_driver.c: MASK_16_BYTE_ALIGN

std::optional<std::string> checkEthosU(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = std::get_if<ir::EthosUAttrs>(&op.attributes);
  if (attrs == nullptr) return "has no Ethos-U attributes (not imported from a Vela model)";
  const ir::Tensor* payload = graph.input(op, 0);
  if (payload == nullptr || !payload->isConstant) return "input 0 must be the constant payload";
  if (op.inputs.size() != kEthosUFeatureMapSlot + attrs->inputOffsets.size() ||
      op.outputs.size() != attrs->outputOffsets.size()) {
    return "has " + std::to_string(op.inputs.size()) + " inputs and " +
           std::to_string(op.outputs.size()) + " outputs, but arena offsets for " +
           std::to_string(attrs->inputOffsets.size()) + " feature-map inputs and " +
           std::to_string(attrs->outputOffsets.size()) + " outputs";
  }
  const auto fits = [&](int index, std::int64_t offset) {
    const ir::Tensor& t = graph.tensor(index);
    return offset >= 0 && offset + t.byteSize() <= attrs->scratchBytes;
  };
  for (std::size_t i = 0; i < attrs->inputOffsets.size(); ++i) {
    if (!fits(op.inputs[kEthosUFeatureMapSlot + i], attrs->inputOffsets[i])) {
      return "feature-map input " + std::to_string(i) + " lies outside the scratch arena";
    }
  }
  for (std::size_t i = 0; i < attrs->outputOffsets.size(); ++i) {
    if (!fits(op.outputs[i], attrs->outputOffsets[i])) {
      return "output " + std::to_string(i) + " lies outside the scratch arena";
    }
  }
  return std::nullopt;
}

void evalEthosU(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto& attrs = std::get<ir::EthosUAttrs>(op.attributes);
  std::vector<std::uint8_t> arena(static_cast<std::size_t>(attrs.scratchBytes));
  std::vector<std::uint8_t> separateFast(
      attrs.fastScratchOffset >= 0 ? 0 : static_cast<std::size_t>(attrs.fastScratchBytes));
  std::uint8_t* fast =
      attrs.fastScratchOffset >= 0 ? arena.data() + attrs.fastScratchOffset : separateFast.data();
  const ir::Tensor& payload = *graph.input(op, 0);
  const ir::Tensor* flash = graph.input(op, 1);

  std::vector<std::uint64_t> base = {
      flash ? reinterpret_cast<std::uintptr_t>(flash->data.data()) : 0,
      reinterpret_cast<std::uintptr_t>(arena.data()), reinterpret_cast<std::uintptr_t>(fast)};
  std::vector<std::size_t> sizes = {flash ? flash->data.size() : 0, arena.size(),
                                    static_cast<std::size_t>(attrs.fastScratchBytes)};
  for (std::size_t i = 0; i < attrs.inputOffsets.size(); ++i) {
    const auto bytes = store.bytes(op.inputs[kEthosUFeatureMapSlot + i]);
    std::memcpy(arena.data() + attrs.inputOffsets[i], bytes.data(), bytes.size());
    base.push_back(reinterpret_cast<std::uintptr_t>(arena.data() + attrs.inputOffsets[i]));
    sizes.push_back(bytes.size());
  }
  for (std::size_t i = 0; i < attrs.outputOffsets.size(); ++i) {
    base.push_back(reinterpret_cast<std::uintptr_t>(arena.data() + attrs.outputOffsets[i]));
    sizes.push_back(store.bytes(op.outputs[i]).size());
  }

  // The driver holds the decoder and the machine (a few KiB): on the heap.
  auto driver = std::make_unique<ethosu_driver>();
  std::vector<std::int16_t> workspace(std::max<std::uint32_t>(attrs.workspaceValues, 1));
  if (loupe_ethosu_driver_init(driver.get(), attrs.accelerator, workspace.data(),
                               static_cast<std::uint32_t>(workspace.size())) != 0 ||
      ethosu_invoke_v3(driver.get(), payload.data.data(), static_cast<int>(payload.data.size()),
                       base.data(), sizes.data(), static_cast<int>(base.size()), nullptr) != 0) {
    throw std::runtime_error("operator " + std::to_string(op.index) +
                             " (ethos-u): the Ethos-U functional model failed: " +
                             ethosu_last_error_message(driver.get()));
  }
  for (std::size_t i = 0; i < attrs.outputOffsets.size(); ++i) {
    const auto out = store.mutableBytes(op.outputs[i]);
    std::memcpy(out.data(), arena.data() + attrs.outputOffsets[i], out.size());
  }
}

// The generated C: the feature maps copied into the arena (operator scratch
// the memory planner places) at Vela's offsets, the runtime's driver call
// with the payload and flash as constant arrays, the outputs copied out.
tir::PrimFunc lowerEthosUOperator(const ir::Graph& graph, const ir::Operator& op,
                                  const std::string& functionName) {
  using namespace tir;
  const auto& attrs = std::get<ir::EthosUAttrs>(op.attributes);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const ir::Tensor& payloadTensor = *graph.input(op, 0);
  // Arm's driver takes the command stream and every base address only on
  // 16 bytes: the payload (its stream a multiple of 16 bytes into it), the flash,
  // the arena and a fast scratch of its own are placed so.
  const Buffer payload = fb.constant(payloadTensor, "payload", kEthosUAlignment);
  const ir::Tensor* flashTensor = graph.input(op, 1);
  const Buffer flash = flashTensor ? fb.constant(*flashTensor, "flash", kEthosUAlignment) : nullptr;
  std::vector<Buffer> inputs;
  for (std::size_t i = 0; i < attrs.inputOffsets.size(); ++i) {
    inputs.push_back(
        fb.param(op.inputs[kEthosUFeatureMapSlot + i], "input" + std::to_string(i), false));
  }
  std::vector<Buffer> outputs;
  for (std::size_t i = 0; i < attrs.outputOffsets.size(); ++i) {
    outputs.push_back(fb.param(op.outputs[i], "output" + std::to_string(i), true));
  }
  const Buffer arena = fb.local("arena", ScalarType::UInt8,
                                std::max<std::int64_t>(attrs.scratchBytes, 1), kEthosUAlignment);
  const std::int64_t workspaceValues = std::max<std::int64_t>(attrs.workspaceValues, 1);
  const Buffer workspace = fb.local("workspace", ScalarType::Int16, workspaceValues);
  const bool fastInArena = attrs.fastScratchOffset >= 0 || attrs.fastScratchBytes == 0;
  const Buffer fast = fastInArena ? nullptr
                                  : fb.local("fast_scratch", ScalarType::UInt8,
                                             attrs.fastScratchBytes, kEthosUAlignment);

  const auto copy = [](Expr dst, Expr src, std::int64_t bytes) {
    return evaluate(callExtern("loupe_ethosu_copy", ScalarType::Void,
                               {std::move(dst), std::move(src), intImm(bytes)}));
  };
  std::vector<Stmt> body;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ir::Tensor& t = graph.tensor(op.inputs[kEthosUFeatureMapSlot + i]);
    body.push_back(
        copy(addressOf(arena, intImm(attrs.inputOffsets[i])), addressOf(inputs[i]), t.byteSize()));
  }
  body.push_back(evaluateChecked(callExtern(
      "loupe_ethosu_run_operator", ScalarType::Int32,
      {intImm(attrs.accelerator), addressOf(workspace), intImm(workspaceValues), addressOf(payload),
       intImm(static_cast<std::int64_t>(payloadTensor.data.size())),
       flash ? addressOf(flash) : intImm(0),
       intImm(flashTensor ? static_cast<std::int64_t>(flashTensor->data.size()) : 0),
       addressOf(arena), intImm(attrs.scratchBytes),
       fast ? addressOf(fast)
            : addressOf(arena, intImm(std::max<std::int64_t>(attrs.fastScratchOffset, 0))),
       intImm(attrs.fastScratchBytes)})));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const ir::Tensor& t = graph.tensor(op.outputs[i]);
    body.push_back(copy(addressOf(outputs[i]), addressOf(arena, intImm(attrs.outputOffsets[i])),
                        t.byteSize()));
  }
  Stmt stmt = seq(std::move(body));
  if (fast) stmt = allocate(fast, stmt);
  stmt = allocate(workspace, allocate(arena, stmt));
  tir::PrimFunc func = fb.finish(std::move(stmt));
  func.externHeaders.push_back("loupe/ethosu/ethosu_driver.h");
  return func;
}

std::int64_t ethosUMacs(const ir::Graph&, const ir::Operator& op) {
  const auto* attrs = std::get_if<ir::EthosUAttrs>(&op.attributes);
  return attrs ? attrs->macs : 0;
}

const reference::Kernel kEthosUKernel{ir::OpType::EthosU, checkEthosU, evalEthosU};

}  // namespace

// Not in ir/op_type.h's builtin table: read by the importer's own path for
// the custom code "ethos-u" (frontend/vela_operator.h), so no ImportRule.
extern const OperatorDefinition kEthosUDefinition{
    .type = ir::OpType::EthosU,
    .dtypes = "int8, int16 (as compiled by Vela)",
    .import = {.minInputs = 2, .maxInputs = -1, .outputs = -1},
    .kernel = &kEthosUKernel,
    .lower = lowerEthosUOperator,
    .macs = ethosUMacs,
};

}  // namespace loupe::ops
