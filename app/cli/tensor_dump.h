// A folder of tensors in the format TFLite Micro's golden dumps use (and
// `loupec run --dump-tensors` writes for every platform): t<index>.bin, the
// raw bytes of each non-constant tensor of the model, and index.json with
// each tensor's description and file. A tensor the board never held whole
// (inside an NPU region, a patch) is listed with file null and where it is.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "deploy/board_tensor_check.h"
#include "deploy/run_on_board.h"
#include "ir/graph.h"

namespace loupe::cli {

// `missing(t)` says why tensor t has no bytes (only asked for those).
void writeTensorDump(const ir::Graph& model, const deploy::TensorBytes& tensors,
                     const std::filesystem::path& dir,
                     const std::function<std::string(int tensor)>& missing);

// What a debug build's run sent back (BoardRunResult::deviceTensors) with
// the `inputs` it was given, each tensor it did not hold whole listed with
// where it is; returns how many tensors have a file.
std::size_t writeBoardTensorDump(const ir::Graph& model, const deploy::BoardRunResult& run,
                                 const std::vector<std::vector<std::uint8_t>>& inputs,
                                 const std::filesystem::path& dir);

}  // namespace loupe::cli
