// The folders `loupec run` writes into (--output-dir, --dump-tensors, the
// --profile file's folder), created and checked for writing before the
// model is compiled, built, flashed and run, so that a read-only or
// impossible folder is reported at once with the system's reason.
#pragma once

#include <filesystem>
#include <string>

namespace loupe::cli {

// Creates `folder` (and its parents) and checks that files can be created in
// it. Throws std::runtime_error "cannot write into <role> FOLDER: <reason>".
std::filesystem::path prepareOutputFolder(const std::filesystem::path& folder,
                                          const std::string& role);

}  // namespace loupe::cli
