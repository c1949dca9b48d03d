#include "qemu_serial_session.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QThread>

#include <cstring>

#include "platforms/qemu_link.h"
#include "platforms/qemu_platform.h"

namespace loupe::test {

QStringList qemuArguments(const BoardDescription& board, const std::filesystem::path& elf,
                          const std::filesystem::path& socket) {
  // The Project API's own command line for the board, UART0 on the socket.
  std::vector<std::string> arguments =
      platforms::QemuPlatform(board, board.name).qemuArguments(elf);
  for (const auto& argument : platforms::QemuLink::uartSocketArguments(socket)) {
    arguments.push_back(argument);
  }
  QStringList list;
  for (const auto& argument : arguments) list << QString::fromStdString(argument);
  return list;
}

QemuSerialSession::~QemuSerialSession() {
  if (socket_ >= 0) ::close(socket_);
  if (qemu_.state() != QProcess::NotRunning) {
    qemu_.kill();
    qemu_.waitForFinished(5000);
  }
}

QString QemuSerialSession::start(const BoardDescription& board, const std::filesystem::path& elf,
                                 const std::filesystem::path& socket,
                                 std::chrono::milliseconds timeLimit) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket.string().size() >= sizeof address.sun_path)
    return "socket path too long for AF_UNIX: " + QString::fromStdString(socket.string());
  std::strcpy(address.sun_path, socket.c_str());

  qemu_.setProcessChannelMode(QProcess::MergedChannels);
  qemu_.start(QString::fromStdString(board.qemuExecutable), qemuArguments(board, elf, socket));
  if (!qemu_.waitForStarted(5000)) return "cannot start QEMU: " + qemu_.errorString();

  // QEMU creates the socket once it has parsed its options; until then
  // connect fails, so retry until the time limit.
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < timeLimit.count()) {
    socket_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (socket_ < 0) return QString("socket(): ") + std::strerror(errno);
    if (::connect(socket_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0)
      return {};
    ::close(socket_);
    socket_ = -1;
    if (qemu_.state() == QProcess::NotRunning)
      return "QEMU exited before accepting a connection:\n" + output();
    QThread::msleep(20);
  }
  return "QEMU's socket did not accept a connection in time:\n" + output();
}

std::optional<int> QemuSerialSession::waitForExit(std::chrono::milliseconds timeLimit) {
  if (!qemu_.waitForFinished(static_cast<int>(timeLimit.count()))) {
    qemu_.kill();
    qemu_.waitForFinished(5000);
    return std::nullopt;
  }
  if (qemu_.exitStatus() != QProcess::NormalExit) return std::nullopt;
  return qemu_.exitCode();
}

QString QemuSerialSession::output() {
  output_ += QString::fromLocal8Bit(qemu_.readAll());
  return output_;
}

}  // namespace loupe::test
