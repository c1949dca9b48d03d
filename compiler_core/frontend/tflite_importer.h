// Reads a TFLite flatbuffer into the graph IR. Every file is verified before
// use: the flatbuffers Verifier first, then semantic checks (indices in range,
// buffer sizes matching shapes and dtypes, known opcodes, options matching the
// operator). Any violation throws ImportError naming what is wrong and where.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::frontend {

class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ImportOptions {
  // Inspection mode (info, the GUI): CUSTOM operators and builtins Loupe does
  // not support become OpType::Opaque instead of an error, so the model can
  // still be shown. Compiling or running such a graph is refused later.
  bool keepUnsupportedOperators = false;
};

ir::Graph importTflite(std::span<const std::uint8_t> bytes, const ImportOptions& options = {});

// Reads the file (the graph is named after its stem) and imports it.
ir::Graph importTfliteFile(const std::filesystem::path& path, const ImportOptions& options = {});

// The file's bytes, read whole. Throws ImportError naming the file.
std::vector<std::uint8_t> readTfliteFile(const std::filesystem::path& path);

// `bytes`, read from `path`, imported as importTfliteFile imports the file:
// for a caller that needs the bytes too (a writer that copies from them).
ir::Graph importTfliteFile(const std::filesystem::path& path, std::span<const std::uint8_t> bytes,
                           const ImportOptions& options = {});

}  // namespace loupe::frontend
