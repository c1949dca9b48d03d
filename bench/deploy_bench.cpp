// The deploy benchmark (issue [deploy]): for kws_ref_model on a QEMU board,
// the wall-clock time of each stage (generate, build from a cold cache,
// flash = start QEMU + connect + handshake, run), and over the session the
// payload throughput and the framing overhead (bytes on the wire / payload
// bytes) of input and output transfers: the model's own, and 16 KB device
// memory copies. Prints tables; run by hand:
//   cmake --build build/release --target loupe_deploy_bench
//   build/release/bench/loupe_deploy_bench [PLATFORM] [MODEL]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "builtin_registries.h"
#include "deploy/deployment.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "rpc_client.h"

using namespace loupe;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Transfer {
  std::size_t payload = 0;  // bytes the caller moved
  std::size_t wire = 0;     // bytes on the wire, both directions
  double seconds = 0;
};

// Measures one transfer through the session's statistics.
template <typename Action>
Transfer measure(const host::Session& session, std::size_t payload, Action action) {
  const auto before = session.statistics();
  const auto start = Clock::now();
  action();
  Transfer t;
  t.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto& after = session.statistics();
  t.payload = payload;
  t.wire = (after.wireBytesWritten - before.wireBytesWritten) +
           (after.wireBytesRead - before.wireBytesRead);
  return t;
}

void printTransfer(const char* what, const Transfer& t) {
  std::printf("| %-34s | %8zu | %8zu | %6.3f | %9.1f |\n", what, t.payload, t.wire,
              static_cast<double>(t.wire) / static_cast<double>(t.payload),
              static_cast<double>(t.payload) / t.seconds / 1024.0);
}

std::vector<std::uint8_t> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string platformName = argc > 1 ? argv[1] : "qemu-mps3-an547";
  const std::string modelName = argc > 2 ? argv[2] : "kws_ref_model";
  const fs::path modelDir = fs::path(LOUPE_BENCH_MODELS_DIR) / modelName;
  const deploy::Registries registries = plugins::builtinRegistries();
  const auto platform = registries.platforms.find(platformName);

  const auto compileStart = Clock::now();
  const codegen::CompiledModel model =
      driver::compileModel({frontend::importTfliteFile(modelDir / "model.tflite"),
                            target::parseTargetString("c", registries.targets),
                            {}})
          .model;
  const double compileSeconds = std::chrono::duration<double>(Clock::now() - compileStart).count();

  // A cold cache, so the build is measured, not found.
  const fs::path cache =
      fs::temp_directory_path() / ("loupe-deploy-bench-" + std::to_string(::getpid()));
  deploy::DeploymentOptions options;
  options.build.cacheRoot = cache;
  deploy::Deployment deployment(*platform, model, options);
  const std::vector<std::uint8_t> input = readFile(modelDir / "golden" / "seed1" / "input0.bin");
  deployment.run({input});
  const auto times = deployment.times();

  std::printf("deploy of %s on %s (board %s, max request %u bytes)\n\n", modelName.c_str(),
              platformName.c_str(), deployment.board().name.c_str(), deployment.board().maxRequest);
  std::printf("| stage | seconds |\n| --- | --- |\n");
  std::printf("| compile (import, passes, TIR, C) | %.3f |\n", compileSeconds);
  std::printf("| generate (write the project) | %.3f |\n", times.generate);
  std::printf("| build (make, cold cache) | %.3f |\n", times.build);
  std::printf("| flash (start, connect, handshake) | %.3f |\n", times.flash);
  std::printf("| run (inputs, run, outputs, profile) | %.3f |\n\n", times.run);

  host::Session& session = deployment.session();
  host::RpcClient rpc(session);
  const auto info = rpc.modelInfo();
  std::printf("| transfer | payload B | wire B | wire/payload | KB/s |\n");
  std::printf("| --- | --- | --- | --- | --- |\n");
  printTransfer("model input (SET_INPUT)",
                measure(session, input.size(), [&] { rpc.setInput(0, input); }));
  printTransfer("model output (GET_OUTPUT)",
                measure(session, info.outputBytes.at(0), [&] { rpc.getOutput(0); }));
  constexpr std::uint32_t kCopyBytes = 16 * 1024;
  std::vector<std::uint8_t> pattern(kCopyBytes);
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<std::uint8_t>(i * 7);
  const std::uint64_t handle = rpc.alloc(kCopyBytes);
  printTransfer("16 KB to device (COPY_TO_DEVICE)",
                measure(session, kCopyBytes, [&] { rpc.copyToDevice(handle, 0, pattern); }));
  std::vector<std::uint8_t> back;
  printTransfer("16 KB from device (COPY_FROM_DEVICE)", measure(session, kCopyBytes, [&] {
                  back = rpc.copyFromDevice(handle, 0, kCopyBytes);
                }));
  rpc.free(handle);
  std::error_code ignored;
  fs::remove_all(cache, ignored);
  if (back != pattern) {
    std::fprintf(stderr, "the 16 KB copied back differ from what was sent\n");
    return 1;
  }
  return 0;
}
