// Writes the seed corpus of ethosu_payload_fuzzer: for every Vela file given,
// [payload length u32][payload][flash], and the payload alone. Run by
// scripts/fuzz.sh, so that no binary corpus is committed.
//   ethosu_fuzz_seeds OUTPUT_DIR FILE.tflite...
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "targets/ethos_u/ethosu_vela_file.h"

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
      int n = 0;
      for (const auto& op : loupe::ethosu::readVelaCustomOperators(file)) {
        const std::string stem = file.parent_path().filename().string() + "_" +
                                 file.stem().string() + "_" + std::to_string(n++);
        for (const bool withFlash : {true, false}) {
          std::ofstream seed(out / (stem + (withFlash ? "" : "_payload_only")), std::ios::binary);
          const auto length = static_cast<std::uint32_t>(op.payload.size());
          const char header[4] = {static_cast<char>(length), static_cast<char>(length >> 8),
                                  static_cast<char>(length >> 16), static_cast<char>(length >> 24)};
          seed.write(header, 4);
          seed.write(reinterpret_cast<const char*>(op.payload.data()),
                     static_cast<std::streamsize>(op.payload.size()));
          if (withFlash) {
            seed.write(reinterpret_cast<const char*>(op.flash.data()),
                       static_cast<std::streamsize>(op.flash.size()));
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
