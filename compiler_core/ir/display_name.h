// Names from a model file (tensors, operators' custom codes, the graph, the
// description) as Loupe keeps them: valid UTF-8 without control characters.
// A model may hold any bytes there; a NUL cut C strings and messages short
// and an invalid UTF-8 byte made JSON output fail, so the importer stores
// every name through displayName and everything downstream (text, JSON,
// errors, generated comments) shows the same escaped name.
#pragma once

#include <string>
#include <string_view>

namespace loupe::ir {

// `bytes` with each byte that is not part of a valid UTF-8 sequence, and each
// control character (U+0000-U+001F, U+007F), written as \xNN; a backslash
// becomes \\ so the escaping is unambiguous. Valid printable UTF-8 is kept
// as it is.
std::string displayName(std::string_view bytes);

}  // namespace loupe::ir
