#include "mlf/compiled_model_export.h"

#include "analysis/device_mapping.h"
#include "codegen/c_function_printer.h"
#include "codegen/runtime_files.h"
#include "memory/memory_plan_json.h"
#include "tir/tir_printer.h"

namespace loupe::mlf {

namespace {

ArchiveEntry entry(const std::string& path, std::string_view text) {
  return {.path = path,
          .bytes = std::vector<std::uint8_t>(text.begin(), text.end()),
          .executable = false,
          .streamed = nullptr};
}

MlfTensor tensorOf(const ir::Tensor& t) {
  MlfTensor m;
  m.name = t.name;
  m.dtype = std::string(ir::dtypeName(t.dtype));
  m.shape.assign(t.shape.begin(), t.shape.end());
  if (t.quantization.isQuantized() && !t.quantization.isPerChannel()) {
    m.scale = t.quantization.scale();
    m.zeroPoint = t.quantization.zeroPoint();
  }
  m.bytes = t.byteSize();
  return m;
}

std::int64_t constantBytes(const tir::PrimFunc& f) {
  std::int64_t total = 0;
  for (const tir::Buffer& c : f.constants) total += static_cast<std::int64_t>(c->data.size());
  return total;
}

}  // namespace

nlohmann::json memoryPlanJson(const codegen::CompiledModel& model) {
  nlohmann::json plan = memory::memoryPlanJson(model.graph, model.memoryPlan);
  // The planner's time differs from run to run; the same model must give the
  // same archive bytes (loupec memplan --json still reports it).
  plan.erase("milliseconds");
  plan["external_workspace"] = model.externalWorkspace;
  nlohmann::json state = nlohmann::json::array();
  for (const codegen::StateBuffer& s : model.state) {
    state.push_back({{"tensor", model.graph.tensor(s.tensor).name},
                     {"tensor_index", s.tensor},
                     {"size", s.bytes},
                     {"symbol", s.symbol}});
  }
  plan["state_bytes"] = model.stateBytes;
  plan["state"] = state;
  // Compiled for a board: which memory each pool and constant array is in.
  if (!model.memories.empty()) {
    nlohmann::json memories = nlohmann::json::array();
    for (const codegen::MemoryUse& use : model.memories) {
      memories.push_back({{"name", use.region.name},
                          {"capacity", use.region.capacity},
                          {"holds_workspace", use.region.holdsWorkspace},
                          {"holds_constants", use.region.holdsConstants},
                          {"workspace_bytes", use.workspaceBytes},
                          {"constant_bytes", use.constantBytes}});
    }
    plan["memories"] = memories;
    std::string codeMemory;
    for (const codegen::MemoryUse& use : model.memories) {
      if (use.region.defaultCode) codeMemory = use.region.name;
    }
    nlohmann::json constants = nlohmann::json::array();
    for (const tir::PrimFunc& f : model.functions) {
      for (std::size_t c = 0; c < f.constants.size(); ++c) {
        const std::string section = c < f.constantSections.size() ? f.constantSections[c] : "";
        constants.push_back(
            {{"function", f.name},
             {"constant", f.constants[c]->name},
             {"size", f.constants[c]->data.size()},
             {"memory", section.empty() ? codeMemory : memory::regionOfSection(section)}});
      }
    }
    plan["constants"] = constants;
  }
  return plan;
}

namespace {

MlfContents contentsWithoutSources(const codegen::CompiledModel& model,
                                   const std::vector<StageFile>& stages) {
  MlfContents c;
  c.modelName = model.modelName;
  for (int t : model.graph.inputs) c.inputs.push_back(tensorOf(model.graph.tensor(t)));
  for (int t : model.graph.outputs) c.outputs.push_back(tensorOf(model.graph.tensor(t)));
  std::int64_t io = 0;
  for (const auto& t : c.inputs) io += t.bytes;
  for (const auto& t : c.outputs) io += t.bytes;
  MlfFunctionMemory run{"tvmgen_" + model.modelName + "_run", model.workspaceBytes(), 0, io,
                        model.stateBytes};
  std::vector<MlfFunctionMemory> operators;
  for (const tir::PrimFunc& f : model.functions) {
    MlfFunctionMemory m{f.name, f.scratchBytes, constantBytes(f), 0};
    for (std::size_t i = 0; i < f.params.size(); ++i) {
      const std::int64_t bytes = model.graph.tensor(f.paramTensors[i]).byteSize();
      (codegen::findState(model.state, f.paramTensors[i]) ? m.stateBytes : m.ioBytes) += bytes;
    }
    run.constantsBytes += m.constantsBytes;
    operators.push_back(m);
    for (const tir::Buffer& constant : f.constants) {
      c.parameters.push_back({.path = f.name + "/" + constant->name + ".bin",
                              .bytes = constant->data,
                              .executable = false,
                              .streamed = nullptr});
    }
  }
  c.functions.push_back(run);
  c.functions.insert(c.functions.end(), operators.begin(), operators.end());
  c.memoryPlan = memoryPlanJson(model);
  c.deviceMapping = analysis::deviceMappingJson(model.graph);
  for (const auto& [name, text] : stages) c.irStages.push_back(entry(name, text));
  for (const EmbeddedFile& f : codegen::runtimeFiles()) {
    if (!codegen::needsRuntimeFile(model, f.path)) continue;
    std::string path(f.path);
    // The default configuration goes beside the headers: runtime/include is
    // then the only runtime include folder; a board puts its own first.
    if (path.starts_with("config/")) path = "include/" + path.substr(7);
    c.runtimeFiles.push_back(entry(path, f.bytes));
  }
  return c;
}

// An operator function's C, printed into the archive as it is written (see
// CompiledModel::hasOperatorSources). The function is copied: its constants
// and statements are shared, and the entry outlives the model.
ArchiveEntry streamedOperatorSource(const tir::PrimFunc& f) {
  auto func = std::make_shared<const tir::PrimFunc>(f);
  auto contents = std::make_shared<StreamedContents>();
  contents->write = [func](const ArchiveSink& sink) { codegen::printCSource(*func, sink); };
  return ArchiveEntry{codegen::operatorSourceName(f), {}, false, std::move(contents)};
}

void addStreamedOperatorSources(const codegen::CompiledModel& model, MlfContents& c) {
  if (model.hasOperatorSources) return;
  for (const tir::PrimFunc& f : model.functions) {
    c.hostSources.push_back(streamedOperatorSource(f));
  }
}

}  // namespace

MlfContents mlfContentsOf(const codegen::CompiledModel& model,
                          const std::vector<StageFile>& stages) {
  MlfContents c = contentsWithoutSources(model, stages);
  addStreamedOperatorSources(model, c);
  for (const auto& f : model.sources) c.hostSources.push_back(entry(f.name, f.text));
  for (const auto& f : model.headers) c.hostHeaders.push_back(entry(f.name, f.text));
  return c;
}

MlfContents takeMlfContents(codegen::CompiledModel& model, const std::vector<StageFile>& stages) {
  MlfContents c = contentsWithoutSources(model, stages);
  addStreamedOperatorSources(model, c);
  const auto take = [](std::vector<codegen::GeneratedFile>& files,
                       std::vector<ArchiveEntry>& into) {
    for (codegen::GeneratedFile& f : files) {
      into.push_back(entry(f.name, f.text));
      std::string().swap(f.text);
    }
    files.clear();
  };
  take(model.sources, c.hostSources);
  take(model.headers, c.hostHeaders);
  return c;
}

}  // namespace loupe::mlf
