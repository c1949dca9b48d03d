// The folders `loupec run` writes into (--output-dir, --dump-tensors, the
// --profile file's folder), created and checked for writing before the
// model is compiled, built, flashed and run, so that a read-only or
// impossible folder is reported at once with the system's reason.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace loupe::cli {

// Creates `folder` (and its parents) and checks that files can be created in
// it. Throws std::runtime_error "cannot write into <role> FOLDER: <reason>".
std::filesystem::path prepareOutputFolder(const std::filesystem::path& folder,
                                          const std::string& role);

// Writes `bytes` as the whole of `path` (an output<i>.bin, a tensor dump).
// Throws std::runtime_error "cannot write PATH".
void writeBinaryFile(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

}  // namespace loupe::cli
