#include "mlf/model_library_format.h"

#include <cmath>
#include <set>
#include <string_view>

namespace loupe::mlf {

namespace {

// DLPack's kDLCPU: every function of a "c" target runs on the host CPU.
constexpr int kHostDevice = 1;

// One folder of the archive and the files the caller put there.
struct FileGroup {
  const char* what;    // for messages
  const char* folder;  // with a trailing '/'
  const std::vector<ArchiveEntry>* files;
};

std::vector<FileGroup> fileGroups(const MlfContents& contents) {
  return {
      {"host source", "codegen/host/src/", &contents.hostSources},
      {"host header", "codegen/host/include/", &contents.hostHeaders},
      {"parameter file", "parameters/", &contents.parameters},
      {"IR stage", "src/", &contents.irStages},
      {"runtime file", "runtime/", &contents.runtimeFiles},
  };
}

[[noreturn]] void fail(const std::string& what) {
  throw MlfError("Model Library Format: " + what);
}

bool isCIdentifier(std::string_view name) {
  if (name.empty() || (name.front() >= '0' && name.front() <= '9')) return false;
  for (const char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && !(c >= '0' && c <= '9') && c != '_') return false;
  }
  return true;
}

std::string runFunctionName(const MlfContents& contents) {
  return "tvmgen_" + contents.modelName + "_run";
}

bool isRunFunction(const MlfContents& contents, const std::string& name) {
  return name == kMlfMainFunction || name == runFunctionName(contents);
}

void checkTensors(const std::vector<MlfTensor>& tensors, const char* what) {
  std::set<std::string> names;
  for (const MlfTensor& tensor : tensors) {
    const std::string label = std::string(what) + " '" + tensor.name + "'";
    if (tensor.name.empty()) fail(std::string(what) + " without a name");
    if (!names.insert(tensor.name).second)
      fail("two " + std::string(what) + "s named '" + tensor.name + "'");
    if (tensor.dtype.empty()) fail(label + " has no dtype");
    for (const std::int64_t dimension : tensor.shape) {
      if (dimension < 0) fail(label + " has a negative dimension");
    }
    if (tensor.bytes < 0) fail(label + " has a negative size");
    if (tensor.scale.has_value() != tensor.zeroPoint.has_value()) {
      fail(label + " has a scale or a zero point but not both");
    }
    if (tensor.scale && !std::isfinite(*tensor.scale)) fail(label + " has a non-finite scale");
  }
}

void checkFunctions(const MlfContents& contents) {
  std::set<std::string> names;
  int runFunctions = 0;
  for (const MlfFunctionMemory& function : contents.functions) {
    if (function.function.empty()) fail("a function without a name");
    if (!names.insert(function.function).second) {
      fail("two functions named '" + function.function + "'");
    }
    if (function.workspaceBytes < 0 || function.constantsBytes < 0 || function.ioBytes < 0) {
      fail("function '" + function.function + "' has a negative size");
    }
    if (isRunFunction(contents, function.function)) ++runFunctions;
  }
  if (runFunctions != 1) {
    fail(std::string(runFunctions == 0 ? "no" : "more than one") + " run function ('" +
         kMlfMainFunction + "' or '" + runFunctionName(contents) + "') among the functions");
  }
}

void checkFiles(const MlfContents& contents) {
  for (const FileGroup& group : fileGroups(contents)) {
    std::set<std::string> paths;
    for (const ArchiveEntry& file : *group.files) {
      if (auto problem = archivePathProblem(file.path)) {
        fail(std::string(group.what) + " '" + file.path + "': " + *problem);
      }
      if (!paths.insert(file.path).second) {
        fail("two " + std::string(group.what) + "s named '" + file.path + "'");
      }
    }
  }
}

void check(const MlfContents& contents) {
  if (!isCIdentifier(contents.modelName)) {
    fail("model name '" + contents.modelName + "' is not a C identifier");
  }
  if (contents.target.empty()) fail("no target");
  checkTensors(contents.inputs, "input");
  checkTensors(contents.outputs, "output");
  checkFunctions(contents);
  checkFiles(contents);
}

// TVM's per-tensor summary in the main function's entry: name -> size, dtype.
nlohmann::json tvmTensorMap(const std::vector<MlfTensor>& tensors) {
  nlohmann::json map = nlohmann::json::object();
  for (const MlfTensor& tensor : tensors) {
    map[tensor.name] = {{"size", tensor.bytes}, {"dtype", tensor.dtype}};
  }
  return map;
}

// Loupe's fuller description, in the form of `loupec info --json`.
nlohmann::json loupeTensorList(const std::vector<MlfTensor>& tensors) {
  nlohmann::json list = nlohmann::json::array();
  for (const MlfTensor& tensor : tensors) {
    nlohmann::json quantization = nullptr;
    if (tensor.scale) quantization = {{"scale", *tensor.scale}, {"zero_point", *tensor.zeroPoint}};
    list.push_back({{"name", tensor.name},
                    {"dtype", tensor.dtype},
                    {"shape", tensor.shape},
                    {"quantization", quantization},
                    {"bytes", tensor.bytes}});
  }
  return list;
}

nlohmann::json memoryJson(const MlfContents& contents) {
  nlohmann::json main = nlohmann::json::array();
  nlohmann::json operators = nlohmann::json::array();
  for (const MlfFunctionMemory& function : contents.functions) {
    nlohmann::json usage = {{"device", kHostDevice},
                            {"workspace_size_bytes", function.workspaceBytes},
                            {"constants_size_bytes", function.constantsBytes},
                            {"io_size_bytes", function.ioBytes}};
    // Only functions with state carry the key, so TVM's schema is unchanged
    // for every other function.
    if (function.stateBytes != 0) usage["state_size_bytes"] = function.stateBytes;
    if (isRunFunction(contents, function.function)) {
      usage["inputs"] = tvmTensorMap(contents.inputs);
      usage["outputs"] = tvmTensorMap(contents.outputs);
      main.push_back(std::move(usage));
    } else {
      // TVM lists only the workspace per operator; the constants and io sizes
      // are Loupe's addition in the same entry.
      operators.push_back(
          {{"function_name", function.function}, {"workspace", nlohmann::json::array({usage})}});
    }
  }
  return {{"functions", {{"main", main}, {"operator_functions", operators}}}};
}

std::string readme(const MlfContents& contents) {
  const bool hasRuntime = !contents.runtimeFiles.empty();
  std::string text;
  text += "Model Library Format (version " + std::to_string(kMlfVersion) + ") of model '" +
          contents.modelName + "', written by Loupe.\n";
  text += "The layout and metadata.json follow Apache TVM's Model Library Format.\n\n";
  text += "  metadata.json          model name, target, memory per function, inputs, outputs\n";
  text += "  codegen/host/src/      generated C\n";
  text += "  codegen/host/include/  generated headers (the model's interface)\n";
  text += "  parameters/            the model's constants\n";
  text += "  src/                   the printed IR of each compilation stage\n";
  if (hasRuntime) text += "  runtime/               the C runtime (include/, src/)\n";
  text += "\nTo build:\n";
  if (hasRuntime) {
    text += "  include directories: codegen/host/include and runtime/include\n";
    text += "  compile every .c file under codegen/host/src and runtime/src\n\n";
    text += "  cc -Icodegen/host/include -Iruntime/include \\\n";
    text += "     $(find codegen/host/src runtime/src -name '*.c') your_application.c\n";
  } else {
    text += "  include directory: codegen/host/include, plus the C runtime's include folder\n";
    text += "  compile every .c file under codegen/host/src, plus the C runtime's sources\n";
    text += "  (this archive does not carry the runtime)\n";
  }
  return text;
}

ArchiveEntry textEntry(std::string path, const std::string& text) {
  std::vector<std::uint8_t> bytes(text.begin(), text.end());
  return ArchiveEntry{
      .path = std::move(path), .bytes = std::move(bytes), .executable = false, .streamed = nullptr};
}

}  // namespace

nlohmann::json mlfMetadata(const MlfContents& contents) {
  check(contents);
  nlohmann::json module = {
      {"model_name", contents.modelName},
      {"export_datetime", kMlfExportDatetime},
      {"memory", memoryJson(contents)},
      {"target", nlohmann::json::array({contents.target})},
      {"executors", nlohmann::json::array({"aot"})},
      {"style", "full-model"},
      // Loupe's keys, beside TVM's.
      {"inputs", loupeTensorList(contents.inputs)},
      {"outputs", loupeTensorList(contents.outputs)},
      {"memory_plan", contents.memoryPlan},
  };
  if (!contents.deviceMapping.is_null()) module["device_mapping"] = contents.deviceMapping;
  if (!contents.runtimeFiles.empty()) {
    // As TVM records its standalone CRT when it bundles it under runtime/.
    module["external_dependencies"] = nlohmann::json::array(
        {{{"short_name", "loupe_crt"}, {"url", "./runtime"}, {"url_type", "mlf_path"}}});
  }
  return {{"version", kMlfVersion}, {"modules", {{contents.modelName, module}}}};
}

std::vector<ArchiveEntry> mlfEntries(const MlfContents& contents) {
  return mlfEntries(MlfContents(contents));
}

std::vector<ArchiveEntry> mlfEntries(MlfContents&& contents) {
  std::vector<ArchiveEntry> entries;
  entries.push_back(textEntry("metadata.json", mlfMetadata(contents).dump(2) + "\n"));
  entries.push_back(textEntry("README.txt", readme(contents)));
  for (const FileGroup& group : fileGroups(contents)) {
    // The files' bytes move (`contents` is ours, so dropping the const the
    // groups are listed with is sound): a large model's sources and
    // parameters are not held twice.
    for (ArchiveEntry& file : const_cast<std::vector<ArchiveEntry>&>(*group.files)) {
      entries.push_back(ArchiveEntry{group.folder + file.path, std::move(file.bytes),
                                     file.executable, std::move(file.streamed)});
    }
  }
  return entries;
}

void writeModelLibraryFormat(const std::filesystem::path& tarFile, MlfContents contents) {
  writeTarArchive(tarFile, mlfEntries(std::move(contents)));
}

}  // namespace loupe::mlf
