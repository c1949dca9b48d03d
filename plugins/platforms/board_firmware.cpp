#include "platforms/board_firmware.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "deploy/firmware_makefile.h"
#include "deploy/model_project_files.h"
#include "ir/graph_printer.h"
#include "platforms/platform_files.h"

namespace loupe::platforms {

namespace {

std::string_view baseName(std::string_view path) {
  return path.substr(path.rfind('/') + 1);
}

// Entries of the profiler's table the model needs: one per operator index
// a call reports under.
std::uint64_t profiledOperators(const codegen::CompiledModel& model) {
  int last = 0;
  for (const auto& call : model.calls) last = std::max(last, call.operatorIndex);
  return static_cast<std::uint64_t>(last) + 1;
}

// What model_descriptor.c reserves for one input or output: whole uint64_t
// words plus one.
std::uint64_t ioBufferBytes(std::int64_t bytes) {
  return 8 * (static_cast<std::uint64_t>(bytes + 7) / 8 + 1);
}

std::string withThousands(std::uint64_t value) {
  return ir::groupDigits(static_cast<std::int64_t>(value));
}

}  // namespace

std::vector<deploy::ProjectFile> embeddedBoardFiles(const std::string& folder) {
  std::vector<deploy::ProjectFile> files;
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    if (path.starts_with(folder + "/") && baseName(path) != "board.json") {
      files.push_back({std::string(baseName(path)), std::string(file.bytes)});
    }
  }
  return files;
}

bool hasUartDriver(const std::string& driver) {
  const std::string path = "uarts/" + driver + ".c";
  for (const EmbeddedFile& file : platformFiles()) {
    if (file.path == path) return true;
  }
  return false;
}

std::string boardPlatformName(const deploy::BoardDescription& board) {
  std::string name = board.name;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::vector<deploy::ProjectFile> boardFirmwareProject(
    const deploy::BoardDescription& board, const std::vector<deploy::ProjectFile>& boardFiles,
    const codegen::CompiledModel& model) {
  std::vector<deploy::ProjectFile> files = deploy::modelProjectFiles(model);
  files.push_back(deploy::modelDescriptorFile(model));
  for (const deploy::ProjectFile& file : boardFiles) {
    files.push_back({"platform/" + file.path, file.text});
  }
  if (!hasUartDriver(board.uartDriver)) {
    throw std::runtime_error("board " + board.name + ": Loupe has no UART driver '" +
                             board.uartDriver + "' (plugins/platforms/uarts/)");
  }
  const std::string uart = "uarts/" + board.uartDriver + ".c";
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    const std::string base(baseName(path));
    const bool template_ = path.starts_with("templates/model_rpc/") && !base.starts_with("stdio_");
    if (path.starts_with("common/") || template_ || path == uart) {
      files.push_back({"platform/" + base, std::string(file.bytes)});
    }
  }
  deploy::FirmwareMakefileSpec make;
  make.title = "model " + model.modelName + " for " + boardPlatformName(board) + " (" + board.cpu +
               "), an RPC server on the board's serial port";
  make.compiler = "arm-none-eabi-gcc";
  make.archiver = "arm-none-eabi-ar";
  make.compileFlags = {"-O2", "-g", "-mcpu=" + board.cpu, "-mthumb",
                       "-mfloat-abi=" + board.floatAbi};
  if (!board.fpu.empty()) make.compileFlags.push_back("-mfpu=" + board.fpu);
  make.compileFlags.insert(
      make.compileFlags.end(),
      {// The start-up code's copy loops must stay loops, not memcpy calls.
       "-ffreestanding", "-fno-tree-loop-distribute-patterns", "-ffunction-sections",
       "-fdata-sections", "-DTVM_CRT_PROFILING=1",
       "-DLOUPE_RPC_ARENA_BYTES=" + std::to_string(board.rpcArenaBytes) + "u",
       "-DTVM_CRT_MAX_PROFILED_OPERATORS=" + std::to_string(profiledOperators(model))});
  // Our own start-up code instead of crt0; newlib (nano) only for memcpy and
  // the float maths the kernels call. -Lplatform: linker scripts INCLUDE
  // the shared cortex_m_sections.ld.
  make.linkFlags = {"-nostartfiles",      "--specs=nano.specs", "-Lplatform", "-T",
                    "platform/linker.ld", "-Wl,--gc-sections"};
  make.libraries = {"-lm", "-lc", "-lgcc"};
  make.output = "build/firmware.elf";
  if (board.flash) {
    make.objcopy = "arm-none-eabi-objcopy";
    make.images = {"build/firmware.bin", "build/firmware.hex"};
  }
  files.push_back({"Makefile", deploy::firmwareMakefile(make)});
  return files;
}

std::optional<std::string> explainMemoryOverflow(const deploy::BoardDescription& board,
                                                 const std::string& output) {
  // GNU ld: "region `DTCM' overflowed by 123456 bytes", with ‘DTCM’ in a
  // UTF-8 locale.
  static const std::regex overflow(
      "region (?:`|\xE2\x80\x98)([A-Za-z0-9_]+)(?:'|\xE2\x80\x99) overflowed by ([0-9]+) bytes");
  std::ostringstream message;
  bool found = false;
  for (auto it = std::sregex_iterator(output.begin(), output.end(), overflow);
       it != std::sregex_iterator(); ++it) {
    const std::string region = (*it)[1];
    const std::string bytes = (*it)[2];
    if (message.str().find(region) != std::string::npos) continue;
    message << (found ? "; " : "the model does not fit " + boardPlatformName(board) + ": ");
    found = true;
    message << "its " << region << " memory";
    if (const auto* memory = board.memoryNamed(region)) {
      message << " (" << memory->size / 1024 << " KB";
      if (!memory->holds.empty()) {
        message << ", for";
        for (const auto& held : memory->holds) message << " " << held;
      }
      message << ")";
    }
    message << " is " << bytes << " bytes short";
  }
  if (!found) return std::nullopt;
  return message.str();
}

FirmwareFootprint minimumFootprint(const deploy::BoardDescription& board,
                                   const codegen::CompiledModel& model) {
  FirmwareFootprint footprint;
  const ir::Graph& graph = model.graph;
  footprint.workspaceBytes = static_cast<std::uint64_t>(model.workspaceBytes());
  footprint.ioBytes = static_cast<std::uint64_t>(model.stateBytes);
  for (int tensor : graph.inputs)
    footprint.ioBytes += ioBufferBytes(graph.tensor(tensor).byteSize());
  for (int tensor : graph.outputs)
    footprint.ioBytes += ioBufferBytes(graph.tensor(tensor).byteSize());
  footprint.runtimeDataBytes =
      kRpcRuntimeDataBytes + board.rpcArenaBytes + 24 * profiledOperators(model);
  // Constants the CPU's operators read are arrays in flash byte for byte;
  // an NPU region's weights are re-encoded, so they are left out of a lower
  // bound. A constant read by several operators counts once.
  std::vector<bool> counted(graph.tensors.size(), false);
  for (const auto& call : model.calls) {
    if (call.device >= 0) continue;
    for (int op : call.operators) {
      for (int tensor : graph.operators[static_cast<std::size_t>(op)].inputs) {
        if (tensor < 0 || counted[static_cast<std::size_t>(tensor)]) continue;
        const ir::Tensor& t = graph.tensor(tensor);
        if (!t.isConstant) continue;
        counted[static_cast<std::size_t>(tensor)] = true;
        footprint.constantBytes += t.data.size();
      }
    }
  }
  footprint.runtimeCodeBytes = kRpcRuntimeCodeBytes;
  return footprint;
}

std::optional<std::string> boardFitProblem(const deploy::BoardDescription& board,
                                           const codegen::CompiledModel& model) {
  const FirmwareFootprint footprint = minimumFootprint(board, model);
  std::ostringstream message;
  bool found = false;
  auto check = [&](const char* holds, std::uint64_t needed, const std::string& parts) {
    const deploy::BoardMemory* memory = nullptr;
    try {
      memory = &board.memoryHolding(holds);
    } catch (const std::runtime_error&) {
      return;
    }
    if (needed <= memory->size) return;
    message << (found ? "; " : "the model does not fit " + boardPlatformName(board) + ": ");
    found = true;
    message << "its " << memory->name << " memory (" << withThousands(memory->size)
            << " bytes, for " << holds << ") needs at least " << withThousands(needed) << " bytes ("
            << parts << "), " << withThousands(needed - memory->size) << " bytes short";
  };
  check("data", footprint.dataBytes(),
        "workspace " + withThousands(footprint.workspaceBytes) + ", inputs, outputs and state " +
            withThousands(footprint.ioBytes) + ", RPC runtime and arena " +
            withThousands(footprint.runtimeDataBytes));
  check("code", footprint.codeBytes(),
        "constants " + withThousands(footprint.constantBytes) + ", RPC runtime " +
            withThousands(footprint.runtimeCodeBytes));
  if (!found) return std::nullopt;
  return message.str();
}

}  // namespace loupe::platforms
