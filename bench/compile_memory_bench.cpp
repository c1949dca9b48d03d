// Peak memory of loupec on a large model: builds a synthetic int8 model from
// the TFLite schema (a chain of FULLY_CONNECTED layers whose weights add up
// to the size asked for), then runs `loupec info` and `loupec compile -o` on
// it as child processes and prints each one's peak resident memory (the
// kernel's ru_maxrss) against the model's size.
//
//   cmake --build build/release --target loupe_compile_memory_bench
//   build/release/bench/loupe_compile_memory_bench [MEGABYTES] [--loupec PATH] [--keep DIR]
//
// MEGABYTES defaults to 64. --loupec runs another build's loupec (to compare
// before and after a change on the same model); --keep writes the model and
// the archive into DIR and leaves them there (to compare archives by hash).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tflite_schema_generated.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 1024;                // each layer: 1 MiB of int8 weights
constexpr std::int8_t kFullyConnected = 9;  // TFLite's builtin operator code

std::unique_ptr<tflite::QuantizationParametersT> quantization(float scale, std::int64_t zero) {
  auto q = std::make_unique<tflite::QuantizationParametersT>();
  q->scale = {scale};
  q->zero_point = {zero};
  return q;
}

// A tensor with its own buffer (empty for activations) and returns its index.
int addTensor(tflite::ModelT& model, tflite::SubGraphT& graph, const std::string& name,
              tflite::TensorType type, std::vector<int> shape,
              std::unique_ptr<tflite::QuantizationParametersT> q,
              std::vector<std::uint8_t> data = {}) {
  auto buffer = std::make_unique<tflite::BufferT>();
  buffer->data = std::move(data);
  model.buffers.push_back(std::move(buffer));
  auto tensor = std::make_unique<tflite::TensorT>();
  tensor->name = name;
  tensor->type = type;
  tensor->shape = std::move(shape);
  tensor->buffer = static_cast<std::uint32_t>(model.buffers.size() - 1);
  tensor->quantization = std::move(q);
  graph.tensors.push_back(std::move(tensor));
  return static_cast<int>(graph.tensors.size() - 1);
}

// int8 [1,W] -> FULLY_CONNECTED x layers -> int8 [1,W], random weights.
std::vector<std::uint8_t> buildModel(int layers) {
  tflite::ModelT model;
  model.version = 3;
  model.description = "loupe_compile_memory_bench";
  model.buffers.push_back(std::make_unique<tflite::BufferT>());  // buffer 0: empty
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = kFullyConnected;
  code->deprecated_builtin_code = kFullyConnected;
  code->version = 4;
  model.operator_codes.push_back(std::move(code));
  auto graph = std::make_unique<tflite::SubGraphT>();
  std::mt19937 random(7);
  int previous = addTensor(model, *graph, "input", tflite::TensorType::INT8, {1, kWidth},
                           quantization(0.05f, -3));
  graph->inputs = {previous};
  for (int layer = 0; layer < layers; ++layer) {
    std::vector<std::uint8_t> weights(static_cast<std::size_t>(kWidth) * kWidth);
    for (auto& w : weights) w = static_cast<std::uint8_t>(random() % 7 + 253);  // -3..3
    std::vector<std::uint8_t> bias(static_cast<std::size_t>(kWidth) * 4, 0);
    const std::string n = std::to_string(layer);
    const int w = addTensor(model, *graph, "w" + n, tflite::TensorType::INT8, {kWidth, kWidth},
                            quantization(0.01f, 0), std::move(weights));
    const int b = addTensor(model, *graph, "b" + n, tflite::TensorType::INT32, {kWidth},
                            quantization(0.0005f, 0), std::move(bias));
    const int out = addTensor(model, *graph, "y" + n, tflite::TensorType::INT8, {1, kWidth},
                              quantization(0.05f, -3));
    auto op = std::make_unique<tflite::OperatorT>();
    op->opcode_index = 0;
    op->inputs = {previous, w, b};
    op->outputs = {out};
    tflite::FullyConnectedOptionsT options;
    op->builtin_options.Set(options);
    graph->operators.push_back(std::move(op));
    previous = out;
  }
  graph->outputs = {previous};
  graph->name = "main";
  model.subgraphs.push_back(std::move(graph));
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(tflite::Model::Pack(builder, &model), tflite::ModelIdentifier());
  return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

struct ChildRun {
  int status = 0;
  long peakKiB = 0;
  double seconds = 0;
};

// Runs loupec with `args` (its output to /dev/null) and reports its peak RSS.
ChildRun runLoupec(const std::string& loupec, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {loupec};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> pointers;
  for (auto& a : argv) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, pointers.data(), environ) != 0) {
    std::perror("posix_spawn loupec");
    std::exit(1);
  }
  posix_spawn_file_actions_destroy(&actions);
  ChildRun run;
  rusage usage{};
  wait4(pid, &run.status, 0, &usage);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.peakKiB = usage.ru_maxrss;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  int megabytes = 64;
  std::string loupec = LOUPE_LOUPEC;
  fs::path keep;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--loupec" && i + 1 < argc) {
      loupec = argv[++i];
    } else if (arg == "--keep" && i + 1 < argc) {
      keep = argv[++i];
    } else {
      megabytes = std::atoi(arg.c_str());
      if (megabytes <= 0) {
        std::fprintf(stderr, "usage: %s [MEGABYTES] [--loupec PATH] [--keep DIR]\n", argv[0]);
        return 2;
      }
    }
  }
  const fs::path dir =
      keep.empty() ? fs::temp_directory_path() / ("loupe-memory-bench-" + std::to_string(getpid()))
                   : keep;
  fs::create_directories(dir);
  const fs::path model = dir / "large.tflite";
  const fs::path tar = dir / "large.tar";
  // The model is built in a child process that exits: a child's ru_maxrss
  // includes the memory of the process it was started from (Linux counts the
  // address space exec replaces), so the bench itself must stay small or
  // every measurement would be at least the model builder's peak.
  if (const pid_t builder = fork(); builder == 0) {
    const std::vector<std::uint8_t> bytes = buildModel(megabytes);
    std::ofstream out(model, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    _exit(out ? 0 : 1);
  } else {
    int status = 0;
    if (builder < 0 || waitpid(builder, &status, 0) != builder || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "cannot write %s\n", model.c_str());
      return 1;
    }
  }
  const double modelMiB = static_cast<double>(fs::file_size(model)) / (1024.0 * 1024.0);
  std::printf("synthetic model: %d FULLY_CONNECTED layers of %dx%d int8, %.1f MiB\n", megabytes,
              kWidth, kWidth, modelMiB);
  std::printf("loupec: %s\n\n", loupec.c_str());
  std::printf("| command | peak RSS (MiB) | peak / model | seconds | output (MiB) |\n");
  std::printf("| --- | --- | --- | --- | --- |\n");
  int failures = 0;
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"loupec info", {"info", model.string()}},
      {"loupec compile -o", {"compile", model.string(), "-o", tar.string()}},
  };
  std::vector<double> peaks;
  double archiveMiB = 0;
  for (const auto& [label, args] : commands) {
    const ChildRun run = runLoupec(loupec, args);
    const bool ok = WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0;
    failures += ok ? 0 : 1;
    const double peak = static_cast<double>(run.peakKiB) / 1024.0;
    peaks.push_back(peak);
    std::string output = "-";
    if (label == "loupec compile -o" && fs::exists(tar)) {
      archiveMiB = static_cast<double>(fs::file_size(tar)) / (1024.0 * 1024.0);
      char text[32];
      std::snprintf(text, sizeof text, "%.1f", archiveMiB);
      output = text;
    }
    std::printf("| %s%s | %.0f | %.1fx | %.1f | %s |\n", label.c_str(), ok ? "" : " (FAILED)", peak,
                peak / modelMiB, run.seconds, output.c_str());
  }
  // The same numbers as one line, the form the README quotes.
  std::printf(
      "\n| model (MiB) | info peak (MiB) | info / model | compile -o peak (MiB) "
      "| compile / model | archive (MiB) |\n");
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  std::printf("| %.1f | %.0f | %.2fx | %.0f | %.2fx | %.1f |\n", modelMiB, peaks[0],
              peaks[0] / modelMiB, peaks[1], peaks[1] / modelMiB, archiveMiB);
  if (keep.empty()) fs::remove_all(dir);
  return failures == 0 ? 0 : 1;
}
