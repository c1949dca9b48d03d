// Model Library Format (MLF): the tar a compiled model is exported as, laid
// out as Apache TVM lays it out (docs/arch/model_library_format.rst, metadata
// version 7 of python/tvm/micro/model_library_format.py), so tools that read
// TVM's MLF find what they expect:
//
//   metadata.json                  TVM's keys, plus Loupe's inputs/outputs/memory_plan
//   README.txt                     how to build the sources
//   codegen/host/src/              generated C
//   codegen/host/include/          generated headers
//   parameters/                    the constants
//   src/                           the printed IR of each compilation stage
//   runtime/                       the C runtime (include/, src/), when given
//
// This layer only lays out what the compiler hands it; it decides nothing
// about the contents.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mlf/tar_archive.h"

namespace loupe::mlf {

// Contents that cannot be laid out: an invalid or duplicate file name, a
// missing run function, an inconsistent tensor description.
class MlfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kMlfVersion = 7;
// TVM's name of the run function (runtime::symbol::tvm_module_main); the AOT
// entry point tvmgen_<model>_run is accepted as well.
inline constexpr const char* kMlfMainFunction = "__tvm_main__";
// TVM writes the export time; Loupe writes this fixed value so that the same
// model always gives the same bytes (as the tar's fixed mtime 0 does).
inline constexpr const char* kMlfExportDatetime = "1970-01-01 00:00:00Z";

struct MlfTensor {
  std::string name;
  std::string dtype;  // "int8", "float32", ...
  std::vector<std::int64_t> shape;
  std::optional<double> scale;  // both or neither of scale and zeroPoint
  std::optional<std::int64_t> zeroPoint;
  std::int64_t bytes = 0;
};

struct MlfFunctionMemory {
  std::string function;
  // For the run function, the workspace includes every operator's (TVM: "by
  // this function and all sub-functions invoked").
  std::int64_t workspaceBytes = 0;
  std::int64_t constantsBytes = 0;
  std::int64_t ioBytes = 0;
  // Loupe's addition: operator state (variable tensors) kept across runs
  // outside the workspace; written as state_size_bytes when not zero.
  std::int64_t stateBytes = 0;
};

struct MlfContents {
  std::string modelName;     // e.g. "default"; a C identifier, it names tvmgen_<model>_run
  std::string target = "c";  // TVM-style target string
  std::vector<MlfTensor> inputs, outputs;
  // Exactly one run function ("__tvm_main__" or "tvmgen_<modelName>_run") and
  // each operator function.
  std::vector<MlfFunctionMemory> functions;
  nlohmann::json memoryPlan;  // Loupe's own key, opaque here
  // Loupe's own key, opaque here: which target runs each operator and the
  // regions (analysis/device_mapping); left out of metadata.json when null.
  nlohmann::json deviceMapping;

  // Paths relative to their folder (plain relative paths, see archivePathProblem).
  std::vector<ArchiveEntry> hostSources;   // -> codegen/host/src/
  std::vector<ArchiveEntry> hostHeaders;   // -> codegen/host/include/
  std::vector<ArchiveEntry> parameters;    // -> parameters/
  std::vector<ArchiveEntry> irStages;      // -> src/, e.g. "03_fused.graph.txt"
  std::vector<ArchiveEntry> runtimeFiles;  // -> runtime/, e.g. "include/tvm/runtime/crt/crt.h"
};

// metadata.json. Throws MlfError for invalid contents.
nlohmann::json mlfMetadata(const MlfContents& contents);

// Every file of the archive: metadata.json, README.txt and the contents under
// their folders, in that order. Throws MlfError for invalid contents.
std::vector<ArchiveEntry> mlfEntries(const MlfContents& contents);
// The same, moving the files' bytes out of `contents` instead of copying them.
std::vector<ArchiveEntry> mlfEntries(MlfContents&& contents);

// mlfEntries written with writeTarArchive (deterministic, atomic). Throws
// MlfError for invalid contents (nothing is written) and ArchiveError when the
// file cannot be written. Pass the contents with std::move when they are not
// needed after: a large model's files are then not copied.
void writeModelLibraryFormat(const std::filesystem::path& tarFile, MlfContents contents);

}  // namespace loupe::mlf
