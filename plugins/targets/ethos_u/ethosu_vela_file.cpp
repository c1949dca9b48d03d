#include "targets/ethos_u/ethosu_vela_file.h"

#include <fstream>
#include <iterator>
#include <string>

#include "tflite_schema_generated.h"

namespace loupe::ethosu {

namespace {

const flatbuffers::Vector<std::uint8_t>* constantData(const tflite::Model& model,
                                                      const tflite::SubGraph& graph,
                                                      std::int32_t tensor) {
  if (tensor < 0 || graph.tensors() == nullptr ||
      static_cast<flatbuffers::uoffset_t>(tensor) >= graph.tensors()->size()) {
    return nullptr;
  }
  const std::uint32_t buffer =
      graph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(tensor))->buffer();
  if (model.buffers() == nullptr || buffer >= model.buffers()->size()) return nullptr;
  return model.buffers()->Get(buffer)->data();
}

std::size_t tensorElements(const tflite::SubGraph& graph, std::int32_t tensor) {
  if (tensor < 0 || graph.tensors() == nullptr ||
      static_cast<flatbuffers::uoffset_t>(tensor) >= graph.tensors()->size()) {
    return 0;
  }
  const auto* shape = graph.tensors()->Get(static_cast<flatbuffers::uoffset_t>(tensor))->shape();
  if (shape == nullptr) return 0;
  std::size_t n = 1;
  for (const std::int32_t d : *shape) n *= static_cast<std::size_t>(d < 0 ? 0 : d);
  return n;
}

}  // namespace

std::vector<VelaCustomOperator> readVelaCustomOperators(std::span<const std::uint8_t> tflite) {
  flatbuffers::Verifier verifier(tflite.data(), tflite.size());
  if (!tflite::VerifyModelBuffer(verifier)) throw VelaFileError("not a valid .tflite flatbuffer");
  const tflite::Model& model = *tflite::GetModel(tflite.data());
  std::vector<VelaCustomOperator> found;
  if (model.subgraphs() == nullptr || model.subgraphs()->size() == 0) return found;
  const tflite::SubGraph& graph = *model.subgraphs()->Get(0);
  if (graph.operators() == nullptr || model.operator_codes() == nullptr) return found;
  for (const tflite::Operator* op : *graph.operators()) {
    if (op->opcode_index() >= model.operator_codes()->size()) continue;
    const auto* code = model.operator_codes()->Get(op->opcode_index());
    if (code->custom_code() == nullptr || code->custom_code()->str() != "ethos-u") continue;
    const auto* inputs = op->inputs();
    auto input = [&](flatbuffers::uoffset_t i) {
      return inputs != nullptr && i < inputs->size() ? inputs->Get(i) : -1;
    };
    const auto* payload = constantData(model, graph, input(0));
    if (payload == nullptr || payload->size() == 0) {
      throw VelaFileError("ethos-u operator without a constant payload (input 0)");
    }
    VelaCustomOperator v;
    v.payload.assign(payload->begin(), payload->end());
    if (const auto* flash = constantData(model, graph, input(1))) {
      v.flash.assign(flash->begin(), flash->end());
    }
    v.scratchBytes = tensorElements(graph, input(2));
    v.fastScratchBytes = tensorElements(graph, input(3));
    found.push_back(std::move(v));
  }
  return found;
}

std::vector<VelaCustomOperator> readVelaCustomOperators(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw VelaFileError("cannot read " + path.string());
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  try {
    return readVelaCustomOperators(std::span<const std::uint8_t>(bytes));
  } catch (const VelaFileError& e) {
    throw VelaFileError(path.string() + ": " + e.what());
  }
}

}  // namespace loupe::ethosu
