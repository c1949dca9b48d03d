#include "platforms/qemu_link.h"

#include <stdlib.h>
#include <unistd.h>

#include <string_view>
#include <thread>

#include "deploy/deploy_error.h"
#include "deploy/interrupt_cleanup.h"
#include "unix_socket_transport.h"

namespace loupe::platforms {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kFolderPrefix = "loupe-qemu-";

// Unix socket paths are limited to about 100 bytes: a short folder in /tmp,
// named with this process's PID so that a run killed before it could remove
// the folder has it swept by the next.
fs::path makePrivateDirectory() {
  deploy::sweepAbandonedFolders("/tmp", kFolderPrefix);
  std::string name = "/tmp/" + std::string(kFolderPrefix) + std::to_string(::getpid()) + "-XXXXXX";
  if (::mkdtemp(name.data()) == nullptr) {
    throw deploy::DeployError(deploy::DeployError::Kind::StartFailed,
                              "cannot create a temporary folder for QEMU's socket");
  }
  return name;
}

}  // namespace

QemuLink::QemuLink(const std::string& executable, std::vector<std::string> arguments,
                   std::chrono::milliseconds connectTimeout)
    : directory_(makePrivateDirectory()),
      folderRegistration_(std::make_unique<deploy::TemporaryFolderRegistration>(directory_)),
      executable_(executable) {
  const fs::path socket = directory_ / "uart0.sock";
  arguments.insert(arguments.begin(), executable);
  const auto uart = uartSocketArguments(socket);
  arguments.insert(arguments.end(), uart.begin(), uart.end());
  try {
    qemu_ = std::make_unique<deploy::ChildProcess>(arguments, directory_ / "qemu.log");
  } catch (const std::exception& e) {
    removeDirectory();
    throw deploy::DeployError(deploy::DeployError::Kind::StartFailed, e.what());
  }
  const auto deadline = std::chrono::steady_clock::now() + connectTimeout;
  std::string lastError;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!qemu_->running()) {
      const std::string why = qemu_->endDescription().value_or("ended");
      const std::string log = qemu_->logTail();
      close();
      throw deploy::DeployError(deploy::DeployError::Kind::StartFailed,
                                executable + " " + why + " before the board could be reached" +
                                    (log.empty() ? "" : ":\n" + log));
    }
    try {
      socket_ = std::make_unique<host::UnixSocketTransport>(socket.string(),
                                                            std::chrono::milliseconds(200));
      // Connected: QEMU needs neither the socket's name nor the log's (it
      // writes through its descriptor, read back the same way), so the
      // folder goes now and no kill of Loupe, SIGKILL either, can leave it.
      removeDirectory();
      return;
    } catch (const std::exception& e) {
      lastError = e.what();
    }
  }
  close();
  throw deploy::DeployError(deploy::DeployError::Kind::StartFailed,
                            "cannot reach the board's UART on " + socket.string() + " within " +
                                std::to_string(connectTimeout.count()) + " ms: " + lastError);
}

std::vector<std::string> QemuLink::uartSocketArguments(const fs::path& socket) {
  return {"-chardev", "socket,id=uart0,path=" + socket.string() + ",server=on,wait=on", "-serial",
          "chardev:uart0"};
}

QemuLink::~QemuLink() {
  close();
}

void QemuLink::rethrowClosed(const host::TransportClosed& closed) {
  // Give QEMU a moment to finish exiting so its status can be reported.
  for (int i = 0; i < 50 && qemu_ && qemu_->running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::string message = closed.what();
  if (qemu_) {
    if (auto why = qemu_->endDescription()) {
      message = executable_ + " " + *why;
      const std::string log = qemu_->logTail();
      if (!log.empty()) message += ": " + log;
    }
  }
  throw host::TransportClosed(message);
}

void QemuLink::write(std::span<const std::uint8_t> bytes) {
  if (!socket_) throw host::TransportClosed("the QEMU link is closed");
  try {
    socket_->write(bytes);
  } catch (const host::TransportClosed& closed) {
    rethrowClosed(closed);
  }
}

std::size_t QemuLink::read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) {
  if (!socket_) throw host::TransportClosed("the QEMU link is closed");
  try {
    return socket_->read(buffer, timeout);
  } catch (const host::TransportClosed& closed) {
    rethrowClosed(closed);
  }
}

void QemuLink::close() {
  if (socket_) socket_->close();
  socket_.reset();
  if (qemu_) qemu_->kill();
  removeDirectory();
}

void QemuLink::removeDirectory() {
  std::error_code ignored;
  if (!directory_.empty()) fs::remove_all(directory_, ignored);
  folderRegistration_.reset();
}

std::string QemuLink::describe() const {
  return executable_ + " (pid " + std::to_string(qemu_ ? qemu_->pid() : -1) + ") UART0";
}

}  // namespace loupe::platforms
