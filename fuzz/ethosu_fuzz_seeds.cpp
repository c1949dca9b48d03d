// Writes the seed corpus of ethosu_payload_fuzzer: for every Vela file given,
// [payload length u32][payload][flash], and the payload alone. Run by
// scripts/fuzz.sh, so that no binary corpus is committed.
//   ethosu_fuzz_seeds OUTPUT_DIR FILE.tflite...
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "frontend/tflite_importer.h"
#include "ir/graph.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR FILE.tflite...\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = argv[1];
  std::filesystem::create_directories(out);
  int written = 0;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path file = argv[i];
    try {
      // The importer verifies the file and checks every ethos-u operator's
      // payload; its inputs 0 and 1 are the payload and the flash.
      const loupe::ir::Graph graph = loupe::frontend::importTfliteFile(file);
      int n = 0;
      for (const loupe::ir::Operator& op : graph.operators) {
        if (op.type != loupe::ir::OpType::EthosU) continue;
        const loupe::ir::ConstantBytes& payload = graph.input(op, 0)->data;
        const loupe::ir::Tensor* flashTensor = graph.input(op, 1);
        const loupe::ir::ConstantBytes flash =
            flashTensor ? flashTensor->data : loupe::ir::ConstantBytes();
        const std::string stem = file.parent_path().filename().string() + "_" +
                                 file.stem().string() + "_" + std::to_string(n++);
        for (const bool withFlash : {true, false}) {
          std::ofstream seed(out / (stem + (withFlash ? "" : "_payload_only")), std::ios::binary);
          const auto length = static_cast<std::uint32_t>(payload.size());
          const char header[4] = {static_cast<char>(length), static_cast<char>(length >> 8),
                                  static_cast<char>(length >> 16), static_cast<char>(length >> 24)};
          seed.write(header, 4);
          seed.write(reinterpret_cast<const char*>(payload.data()),
                     static_cast<std::streamsize>(payload.size()));
          if (withFlash) {
            seed.write(reinterpret_cast<const char*>(flash.data()),
                       static_cast<std::streamsize>(flash.size()));
          }
          ++written;
        }
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
  }
  std::printf("%d seeds in %s\n", written, out.string().c_str());
  return 0;
}
