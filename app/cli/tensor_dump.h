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
#include "ir/graph.h"

namespace loupe::cli {

// `missing(t)` says why tensor t has no bytes (only asked for those).
void writeTensorDump(const ir::Graph& model, const deploy::TensorBytes& tensors,
                     const std::filesystem::path& dir,
                     const std::function<std::string(int tensor)>& missing);

}  // namespace loupe::cli
