// The link to a board emulated by qemu-system-arm: QEMU runs as a child
// process with the board's UART0 on a Unix socket it serves, and this
// transport owns both; the folder of the socket and of QEMU's log is removed
// once connected. When QEMU dies (killed, crashed, semihosting exit) the
// socket closes and reads fail with what QEMU said and how it ended.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "deploy/child_process.h"
#include "deploy/interrupt_cleanup.h"
#include "transport.h"

namespace loupe::platforms {

class QemuLink : public host::Transport {
 public:
  // Starts QEMU with `arguments` plus the UART0 socket options and connects.
  // Throws deploy::DeployError(StartFailed) with QEMU's output when it
  // cannot be started or reached within connectTimeout.
  QemuLink(const std::string& executable, std::vector<std::string> arguments,
           std::chrono::milliseconds connectTimeout);
  ~QemuLink() override;

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  void close() override;
  std::string describe() const override;

  // The options that put the board's UART0 on a Unix socket QEMU serves,
  // holding the core until a client connects (so nothing sent at boot is lost).
  static std::vector<std::string> uartSocketArguments(const std::filesystem::path& socket);

  // The QEMU process (tests kill it to check that a dying board is reported).
  deploy::ChildProcess& process() { return *qemu_; }

 private:
  [[noreturn]] void rethrowClosed(const host::TransportClosed& closed);
  void removeDirectory();

  std::filesystem::path directory_;  // a private temp folder: socket and log
  std::unique_ptr<deploy::TemporaryFolderRegistration> folderRegistration_;
  std::string executable_;
  std::unique_ptr<deploy::ChildProcess> qemu_;
  std::unique_ptr<host::Transport> socket_;
};

}  // namespace loupe::platforms
