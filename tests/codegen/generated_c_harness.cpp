#include "generated_c_harness.h"

#include <cstring>

#include "project/host_build.h"
#include "reference/reference_interpreter.h"

namespace loupe::test {

std::string codegenCacheRoot() {
  return LOUPE_CODEGEN_TEST_CACHE;
}

std::vector<Bytes> runGeneratedC(const ir::Graph& graph, const std::vector<Bytes>& inputs,
                                 const codegen::CompileOptions& options) {
  const codegen::CompiledModel model = codegen::compileToC(graph, options);
  project::HostBuildOptions buildOptions;
  buildOptions.cacheRoot = codegenCacheRoot();
  const project::HostBuild build = project::buildHostExecutable(model, buildOptions);
  return project::runHostExecutable(build, model, inputs);
}

std::vector<Bytes> runReference(const ir::Graph& graph, const std::vector<Bytes>& inputs) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  std::vector<Bytes> outputs;
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    const auto bytes = interpreter.output(i);
    outputs.emplace_back(bytes.begin(), bytes.end());
  }
  return outputs;
}

std::vector<Bytes> randomInputs(const ir::Graph& graph, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<Bytes> inputs;
  for (int index : graph.inputs) {
    const ir::Tensor& t = graph.tensor(index);
    Bytes bytes(static_cast<std::size_t>(t.byteSize()));
    if (t.dtype == ir::DType::Float32) {
      std::uniform_real_distribution<float> value(-1.0f, 1.0f);
      for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
        const float v = value(random);
        std::memcpy(bytes.data() + i, &v, 4);
      }
    } else {
      for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
    }
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

std::string firstDifference(const Bytes& actual, const Bytes& expected) {
  if (actual.size() != expected.size()) {
    return "size " + std::to_string(actual.size()) + ", expected " +
           std::to_string(expected.size());
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i]) {
      return "byte " + std::to_string(i) + ": " + std::to_string(actual[i]) + ", expected " +
             std::to_string(expected[i]);
    }
  }
  return {};
}

}  // namespace loupe::test
