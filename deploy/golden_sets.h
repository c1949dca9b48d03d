// Golden sets beside a model: a folder `golden/` next to the .tflite whose
// subfolders each hold input<i>.bin and output<i>.bin, the bytes TFLite read
// and wrote for every model input and output (the layout of the shared test
// models). Run on board uses them as ready-made inputs and compares the
// board's outputs with TFLite's own. Files are checked before use: a set
// whose files are missing or of the wrong size for the model is left out,
// with the reason.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::deploy {

struct GoldenSet {
  std::string name;                            // the subfolder: "real1", "seed2"
  std::vector<std::filesystem::path> inputs;   // input<i>.bin, model input order
  std::vector<std::filesystem::path> outputs;  // output<i>.bin, model output order
};

struct GoldenSets {
  // Sets with realistic inputs (real*) first, then the others, each by name.
  std::vector<GoldenSet> sets;
  // "seed4: output0.bin has 10 bytes, output 0 'Identity' needs 12".
  std::vector<std::string> skipped;
};

// The golden sets next to `modelFile` that fit `graph`'s inputs and outputs;
// none when there is no golden/ folder.
GoldenSets findGoldenSets(const std::filesystem::path& modelFile, const ir::Graph& graph);

// The one golden set in `folder` (named by the user, so not looked for
// beside the model). Throws std::invalid_argument when the folder is not
// one or a file is missing or of the wrong size ("the golden set DIR does
// not fit the model: output0.bin is missing (for output 0 'Identity')").
GoldenSet goldenSetIn(const std::filesystem::path& folder, const ir::Graph& graph);

// The whole of each file, in order; throws std::runtime_error naming a file
// that cannot be read.
std::vector<std::vector<std::uint8_t>> readGoldenFiles(
    const std::vector<std::filesystem::path>& files);

}  // namespace loupe::deploy
