// One firmware run under qemu-system-arm with UART0 on a Unix socket. QEMU
// is the socket's server and holds the core until the client connects
// (server=on,wait=on), so nothing the firmware sends early is lost; the
// firmware ends the run with semihosting exit, whose status becomes QEMU's
// exit code.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

#include <chrono>
#include <filesystem>
#include <optional>

#include "board_description.h"

namespace loupe::test {

// The QEMU argument list (without the executable): the QEMU platform's own
// (plugins/platforms) with UART0 on `socket`.
QStringList qemuArguments(const BoardDescription& board, const std::filesystem::path& elf,
                          const std::filesystem::path& socket);

class QemuSerialSession {
 public:
  QemuSerialSession() = default;
  QemuSerialSession(const QemuSerialSession&) = delete;
  QemuSerialSession& operator=(const QemuSerialSession&) = delete;
  // Kills QEMU if it is still running.
  ~QemuSerialSession();

  // Starts QEMU and connects to its socket. Returns an empty string on
  // success, otherwise why it failed (with QEMU's output).
  QString start(const BoardDescription& board, const std::filesystem::path& elf,
                const std::filesystem::path& socket, std::chrono::milliseconds timeLimit);

  // The connected socket, blocking mode, for the caller's reads and writes.
  int socket() const { return socket_; }

  // QEMU's exit code once it exits normally within the time limit, nothing
  // when it crashed or is still running (it is then killed).
  std::optional<int> waitForExit(std::chrono::milliseconds timeLimit);

  // Everything QEMU wrote to stdout and stderr so far.
  QString output();

 private:
  QProcess qemu_;
  int socket_ = -1;
  QString output_;
};

}  // namespace loupe::test
