// The C runtime files generated code needs (headers, the runtime sources an
// MLF ships in runtime/, the default crt_config.h), embedded in the compiler
// at build time from runtime_core/crt so loupec and Loupe never look for the
// source tree at run time.
#pragma once

#include <span>
#include <string_view>

namespace loupe {

struct EmbeddedFile {
  std::string_view path;  // relative: "include/loupe/fixed_point.h", "src/error.c", ...
  std::string_view bytes;
};

}  // namespace loupe

namespace loupe::codegen {

// Every embedded runtime file, paths relative to the MLF's runtime/ folder.
std::span<const EmbeddedFile> runtimeFiles();

}  // namespace loupe::codegen
