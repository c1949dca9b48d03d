// The boards' files (board.json, board.h, linker.ld), their shared start-up
// code (common/) and the RPC firmware template (templates/model_rpc/),
// embedded at build time; paths relative to plugins/platforms.
#pragma once

#include <span>
#include <string_view>

#include "codegen/runtime_files.h"

namespace loupe::platforms {

std::span<const EmbeddedFile> platformFiles();

// The embedded file at `path`; throws std::out_of_range when there is none.
std::string_view platformFile(std::string_view path);

}  // namespace loupe::platforms
