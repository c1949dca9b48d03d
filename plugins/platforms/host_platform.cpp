#include "platforms/host_platform.h"

#include "deploy/deploy_error.h"
#include "deploy/firmware_makefile.h"
#include "deploy/model_project_files.h"
#include "pipe_transport.h"
#include "platforms/platform_files.h"

namespace loupe::platforms {

std::string HostPlatform::description() const {
  return "this computer: the firmware built with the host's C compiler and run as a child "
         "process, reached over its standard input and output";
}

std::vector<deploy::ToolRequirement> HostPlatform::tools() const {
  return {{"cc", "gcc"}, {"make", "make"}};
}

std::vector<deploy::ProjectFile> HostPlatform::projectFiles(
    const codegen::CompiledModel& model) const {
  std::vector<deploy::ProjectFile> files = deploy::modelProjectFiles(model);
  files.push_back(deploy::modelDescriptorFile(model));
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    if (path.starts_with("templates/model_rpc/stdio_") ||
        path.starts_with("templates/model_rpc/rpc_firmware.") ||
        path == "templates/model_rpc/model_descriptor.h") {
      files.push_back(
          {"platform/" + std::string(path.substr(path.rfind('/') + 1)), std::string(file.bytes)});
    }
  }
  deploy::FirmwareMakefileSpec make;
  make.title = "model " + model.modelName +
               " for the host platform (a native program whose RPC "
               "server talks over stdin and stdout)";
  make.compiler = "cc";
  make.archiver = "ar";
  make.compileFlags = {"-O2", "-g", "-DTVM_CRT_PROFILING=1"};
  make.libraries = {"-lm"};
  make.output = firmwarePath();
  files.push_back({"Makefile", deploy::firmwareMakefile(make)});
  return files;
}

std::unique_ptr<host::Transport> HostPlatform::start(const std::filesystem::path& firmware,
                                                     const deploy::StartOptions&) const {
  try {
    return std::make_unique<host::PipeTransport>(std::vector<std::string>{firmware.string()});
  } catch (const std::exception& e) {
    throw deploy::DeployError(
        deploy::DeployError::Kind::StartFailed,
        "cannot start the host firmware " + firmware.string() + ": " + e.what());
  }
}

}  // namespace loupe::platforms
