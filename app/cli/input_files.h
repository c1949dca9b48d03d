// The raw input files of run and tune (--inputs): one per model input, in
// model input order, each exactly its tensor's bytes, read with errors that
// name the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::cli {

// Throws UsageError for the wrong number of files and std::runtime_error for
// a file that cannot be read (a folder too) or has the wrong size.
std::vector<std::vector<std::uint8_t>> readInputs(const ir::Graph& graph,
                                                  const std::vector<std::string>& files);

}  // namespace loupe::cli
