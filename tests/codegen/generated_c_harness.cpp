#include "generated_c_harness.h"

#include <cstring>
#include <memory>
#include <sstream>

#include "deploy/host_build.h"
#include "reference/reference_interpreter.h"

namespace loupe::test {

std::string codegenCacheRoot() {
  return LOUPE_CODEGEN_TEST_CACHE;
}

std::vector<Bytes> runGeneratedC(const ir::Graph& graph, const std::vector<Bytes>& inputs,
                                 const codegen::CompileOptions& options) {
  const codegen::CompiledModel model = codegen::compileToC(graph, options);
  deploy::HostBuildOptions buildOptions;
  buildOptions.cacheRoot = codegenCacheRoot();
  const deploy::HostBuild build = deploy::buildHostExecutable(model, buildOptions);
  return deploy::runHostExecutable(build, model, inputs);
}

namespace {

// main.c that runs the model `runs` times: input file i holds every run's
// bytes of input i back to back, output file j receives every run's output j.
std::string repeatedRunMain(const codegen::CompiledModel& model, int runs, int resetBefore) {
  const std::string p = "tvmgen_" + model.modelName;
  const auto inputs = codegen::ioMemberNames(model.graph, model.graph.inputs);
  const auto outputs = codegen::ioMemberNames(model.graph, model.graph.outputs);
  auto size = [&](int tensor) { return std::to_string(model.graph.tensor(tensor).byteSize()); };
  std::ostringstream out;
  out << "#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n#include \"" << p
      << ".h\"\n\n";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    out << "static uint64_t input" << i << "[(" << size(model.graph.inputs[i]) << " * " << runs
        << " + 7) / 8 + 1];\n";
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    out << "static uint64_t output" << i << "[(" << size(model.graph.outputs[i]) << " * " << runs
        << " + 7) / 8 + 1];\n";
  }
  out << R"(
static int transfer(const char* path, const char* mode, void* data, size_t size) {
  FILE* f = fopen(path, mode);
  size_t done;
  if (f == NULL) return 0;
  done = mode[0] == 'r' ? fread(data, 1, size, f) : fwrite(data, 1, size, f);
  return fclose(f) == 0 && done == size;
}

int main(int argc, char** argv) {
  struct )"
      << p << R"(_inputs in;
  struct )"
      << p << R"(_outputs out;
  int run;
  (void)argc;
)";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    out << "  if (!transfer(argv[" << i + 1 << "], \"rb\", input" << i << ", "
        << size(model.graph.inputs[i]) << " * " << runs << ")) return 2;\n";
  }
  out << "  for (run = 0; run < " << runs << "; ++run) {\n";
  if (resetBefore >= 0) {
    out << "    if (run == " << resetBefore << ") " << p << "_reset_state();\n";
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    out << "    in." << inputs[i] << " = (uint8_t*)input" << i << " + (size_t)run * "
        << size(model.graph.inputs[i]) << ";\n";
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    out << "    out." << outputs[i] << " = (uint8_t*)output" << i << " + (size_t)run * "
        << size(model.graph.outputs[i]) << ";\n";
  }
  out << "    if (" << p << "_run(&in, &out) != 0) return 3;\n  }\n";
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    out << "  if (!transfer(argv[" << inputs.size() + i + 1 << "], \"wb\", output" << i << ", "
        << size(model.graph.outputs[i]) << " * " << runs << ")) return 4;\n";
  }
  out << "  return 0;\n}\n";
  return out.str();
}

}  // namespace

std::vector<Invocation> runGeneratedCInvocations(const ir::Graph& graph,
                                                 const std::vector<Invocation>& invocations,
                                                 int resetBefore) {
  const codegen::CompiledModel model = codegen::compileToC(graph, {});
  const int runs = static_cast<int>(invocations.size());
  deploy::HostBuildOptions buildOptions;
  buildOptions.cacheRoot = codegenCacheRoot();
  buildOptions.mainSource = repeatedRunMain(model, runs, resetBefore);
  const deploy::HostBuild build = deploy::buildHostExecutable(model, buildOptions);
  std::vector<Bytes> inputs(graph.inputs.size());
  for (const Invocation& invocation : invocations) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      inputs[i].insert(inputs[i].end(), invocation.at(i).begin(), invocation.at(i).end());
    }
  }
  const std::vector<Bytes> outputs = deploy::runHostExecutable(build, model, inputs);
  std::vector<Invocation> result(invocations.size(), Invocation(outputs.size()));
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const auto size = static_cast<std::size_t>(graph.tensor(graph.outputs[o]).byteSize());
    for (std::size_t run = 0; run < invocations.size(); ++run) {
      const auto begin = outputs[o].begin() + static_cast<std::ptrdiff_t>(run * size);
      result[run][o].assign(begin, begin + static_cast<std::ptrdiff_t>(size));
    }
  }
  return result;
}

std::vector<Invocation> runReferenceInvocations(const ir::Graph& graph,
                                                const std::vector<Invocation>& invocations,
                                                int resetBefore) {
  auto interpreter = std::make_unique<reference::ReferenceInterpreter>(graph);
  std::vector<Invocation> result;
  for (std::size_t run = 0; run < invocations.size(); ++run) {
    if (static_cast<int>(run) == resetBefore) {
      interpreter = std::make_unique<reference::ReferenceInterpreter>(graph);
    }
    for (std::size_t i = 0; i < invocations[run].size(); ++i) {
      interpreter->setInput(i, invocations[run][i]);
    }
    interpreter->invoke();
    Invocation outputs;
    for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
      const auto bytes = interpreter->output(i);
      outputs.emplace_back(bytes.begin(), bytes.end());
    }
    result.push_back(std::move(outputs));
  }
  return result;
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
