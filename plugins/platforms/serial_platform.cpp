#include "platforms/serial_platform.h"

#include "deploy/deploy_error.h"
#include "tty_transport.h"

namespace loupe::platforms {

std::string SerialPlatform::description() const {
  return "a board already flashed with Loupe's firmware for the model, on a serial port "
         "(--port /dev/ttyX --baud N)";
}

std::vector<deploy::ProjectFile> SerialPlatform::projectFiles(const codegen::CompiledModel&) const {
  throw deploy::DeployError(deploy::DeployError::Kind::BuildFailed,
                            "the serial platform builds nothing: generate the project for the "
                            "board's own platform (e.g. loupec generate --platform "
                            "qemu-mps3-an547) and flash it with the board's tools");
}

std::unique_ptr<host::Transport> SerialPlatform::start(const std::filesystem::path&,
                                                       const deploy::StartOptions& options) const {
  if (options.port.empty()) {
    throw deploy::DeployError(deploy::DeployError::Kind::StartFailed,
                              "the serial platform needs the board's port: --port /dev/ttyX");
  }
  try {
    return std::make_unique<host::TtyTransport>(options.port, options.baud);
  } catch (const std::exception& e) {
    throw deploy::DeployError(deploy::DeployError::Kind::StartFailed, e.what());
  }
}

}  // namespace loupe::platforms
