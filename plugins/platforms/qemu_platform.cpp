#include "platforms/qemu_platform.h"

#include <algorithm>
#include <regex>
#include <sstream>

#include "deploy/deploy_error.h"
#include "deploy/firmware_makefile.h"
#include "deploy/model_project_files.h"
#include "platforms/platform_files.h"
#include "platforms/qemu_link.h"

namespace loupe::platforms {

QemuPlatform::QemuPlatform(deploy::BoardDescription board, const std::string& folder)
    : board_(std::move(board)) {
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    const std::string_view base = path.substr(path.rfind('/') + 1);
    if (path.starts_with(folder + "/") && base != "board.json") {
      boardFiles_.push_back({std::string(base), std::string(file.bytes)});
    }
  }
}

QemuPlatform::QemuPlatform(deploy::BoardDescription board,
                           std::vector<deploy::ProjectFile> boardFiles)
    : board_(std::move(board)), boardFiles_(std::move(boardFiles)) {}

std::string QemuPlatform::name() const {
  std::string name = board_.name;
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::vector<deploy::ToolRequirement> QemuPlatform::tools() const {
  return {{"arm-none-eabi-gcc", "gcc-arm-none-eabi"},
          {"arm-none-eabi-ar", "binutils-arm-none-eabi"},
          {board_.qemuExecutable, "qemu-system-arm"},
          {"make", "make"}};
}

std::vector<deploy::ProjectFile> QemuPlatform::projectFiles(
    const codegen::CompiledModel& model) const {
  std::vector<deploy::ProjectFile> files = deploy::modelProjectFiles(model);
  files.push_back(deploy::modelDescriptorFile(model));
  for (const deploy::ProjectFile& file : boardFiles_) {
    files.push_back({"platform/" + file.path, file.text});
  }
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    const std::string base(path.substr(path.rfind('/') + 1));
    const bool template_ = path.starts_with("templates/model_rpc/") && !base.starts_with("stdio_");
    if (path.starts_with("common/") || template_) {
      files.push_back({"platform/" + base, std::string(file.bytes)});
    }
  }
  deploy::FirmwareMakefileSpec make;
  make.title = "model " + model.modelName + " for " + name() + " (" + board_.cpu +
               "), an RPC server on UART0";
  make.compiler = "arm-none-eabi-gcc";
  make.archiver = "arm-none-eabi-ar";
  make.compileFlags = {"-O2", "-g", "-mcpu=" + board_.cpu, "-mthumb",
                       "-mfloat-abi=" + board_.floatAbi,
                       // The start-up code's copy loops must stay loops, not memcpy calls.
                       "-ffreestanding", "-fno-tree-loop-distribute-patterns",
                       "-ffunction-sections", "-fdata-sections", "-DTVM_CRT_PROFILING=1"};
  // Our own start-up code instead of crt0; newlib (nano) only for memcpy and
  // the float maths the kernels call.
  make.linkFlags = {"-nostartfiles", "--specs=nano.specs", "-T", "platform/linker.ld",
                    "-Wl,--gc-sections"};
  make.libraries = {"-lm", "-lc", "-lgcc"};
  make.output = firmwarePath();
  files.push_back({"Makefile", deploy::firmwareMakefile(make)});
  return files;
}

std::optional<std::string> QemuPlatform::explainBuildFailure(const std::string& output) const {
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
    message << (found ? "; " : "the model does not fit " + name() + ": ");
    found = true;
    message << "its " << region << " memory";
    if (const auto* memory = board_.memoryNamed(region)) {
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

std::vector<std::string> QemuPlatform::qemuArguments(const std::filesystem::path& firmware) const {
  return {"-machine", board_.qemuMachine, "-display", "none", "-monitor", "none",
          // Deterministic virtual time: SysTick then counts instructions.
          "-icount", "shift=" + std::to_string(kIcountShift),
          // The firmware's abort exits QEMU through semihosting.
          "-semihosting-config", "enable=on,target=native", "-kernel", firmware.string()};
}

std::unique_ptr<host::Transport> QemuPlatform::start(const std::filesystem::path& firmware,
                                                     const deploy::StartOptions& options) const {
  if (!std::filesystem::is_regular_file(firmware)) {
    throw deploy::DeployError(
        deploy::DeployError::Kind::StartFailed,
        "cannot start " + name() + ": the firmware " + firmware.string() + " does not exist");
  }
  return std::make_unique<QemuLink>(board_.qemuExecutable, qemuArguments(firmware),
                                    options.startTimeout);
}

deploy::ProfileClock QemuPlatform::profileClock(std::uint32_t tickRate) const {
  // instructions = ticks × 1e9 / (tick rate × 2^shift)
  if (tickRate == 0) return {"instructions", 0.0};
  return {"instructions", 1e9 / (static_cast<double>(tickRate) * (1 << kIcountShift))};
}

}  // namespace loupe::platforms
