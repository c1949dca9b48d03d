// Bare-metal board support, proven end to end under QEMU: for every board in
// plugins/platforms, the echo firmware builds with arm-none-eabi-gcc, fits
// the board's memories, echoes 4 KiB of random bytes (every byte value)
// through UART0 unchanged and ends QEMU with its semihosting exit status.
// Missing tools fail the tests with the Debian package to install; they
// never skip.
#include <poll.h>
#include <sys/socket.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "board_description.h"
#include "deploy/process_runner.h"
#include "firmware_build_command.h"
#include "platform_test_support.h"
#include "qemu_serial_session.h"

#include "echo_protocol.h"

using namespace loupe;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kEchoBytes = 4096;
constexpr std::uint32_t kEchoSeed = 20261121;
// Generous: under load the 2-core CI machine runs several QEMUs at once.
constexpr auto kEchoTimeLimit = 60s;
constexpr auto kExitTimeLimit = 20s;
// A QEMU that died must fail the test, not kill it with SIGPIPE.
constexpr int kSendFlags = MSG_NOSIGNAL;

// Data bytes as the echo protocol sends them: DLE doubled.
std::vector<std::uint8_t> escaped(const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> out;
  out.reserve(data.size() + data.size() / 64);
  for (std::uint8_t byte : data) {
    out.push_back(byte);
    if (byte == ECHO_ESCAPE) out.push_back(ECHO_ESCAPE);
  }
  return out;
}

struct Exchange {
  std::vector<std::uint8_t> received;
  QString error;  // empty when every byte came back in time
  double seconds = 0;
};

// Writes `out` and reads `expected` bytes at the same time, never blocking
// in either: the firmware echoes byte by byte, and writing everything before
// reading could fill both directions' buffers and stall.
Exchange exchange(int socket, const std::vector<std::uint8_t>& out, std::size_t expected,
                  std::chrono::milliseconds timeLimit) {
  Exchange result;
  QElapsedTimer clock;
  clock.start();
  std::size_t written = 0;
  std::uint8_t buffer[1024];
  while (result.received.size() < expected) {
    const qint64 left = timeLimit.count() - clock.elapsed();
    if (left <= 0) {
      result.error =
          QString("time-out after %1 of %2 bytes").arg(result.received.size()).arg(expected);
      return result;
    }
    pollfd fd{socket, static_cast<short>(POLLIN | (written < out.size() ? POLLOUT : 0)), 0};
    if (::poll(&fd, 1, static_cast<int>(left)) < 0) {
      if (errno == EINTR) continue;
      result.error = QString("poll(): ") + std::strerror(errno);
      return result;
    }
    if ((fd.revents & POLLOUT) != 0) {
      const ssize_t n =
          ::send(socket, out.data() + written, out.size() - written, kSendFlags | MSG_DONTWAIT);
      if (n < 0 && errno != EINTR && errno != EAGAIN) {
        result.error = QString("send(): ") + std::strerror(errno);
        return result;
      }
      if (n > 0) written += static_cast<std::size_t>(n);
    }
    if ((fd.revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
      const ssize_t n = ::recv(socket, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n == 0) {
        result.error = QString("QEMU closed the socket after %1 bytes").arg(result.received.size());
        return result;
      }
      if (n < 0 && errno != EINTR && errno != EAGAIN) {
        result.error = QString("recv(): ") + std::strerror(errno);
        return result;
      }
      if (n > 0) result.received.insert(result.received.end(), buffer, buffer + n);
    }
  }
  result.seconds = clock.nsecsElapsed() / 1e9;
  return result;
}

bool writeAll(int socket, const std::vector<std::uint8_t>& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::send(socket, bytes.data() + written, bytes.size() - written, kSendFlags);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// The value of `#define name VALUE` in a C header (suffix u allowed), or
// nothing when the header does not define it.
std::optional<std::uint64_t> definedNumber(const fs::path& header, const std::string& name) {
  std::ifstream in(header);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string directive, defined, value;
    if (fields >> directive >> defined >> value && directive == "#define" && defined == name) {
      if (!value.empty() && (value.back() == 'u' || value.back() == 'U')) value.pop_back();
      return std::stoull(value, nullptr, 0);
    }
  }
  return std::nullopt;
}

}  // namespace

class QemuEcho : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::map<std::string, fs::path> firmware_;  // board name -> echo ELF, built once

  static fs::path platformsDirectory() { return LOUPE_PLATFORMS_DIR; }

  // The echo firmware for `boardName`, built on first use; empty (and the
  // test failed) when the tools are missing or the build fails.
  fs::path echoFirmware(const test::BoardDescription& board) {
    if (auto it = firmware_.find(board.name); it != firmware_.end()) return it->second;
    if (!test::requireTool("arm-none-eabi-gcc", "gcc-arm-none-eabi")) return {};
    const fs::path elf = fs::path(dir_.path().toStdString()) / (board.name + "_echo.elf");
    const auto build =
        deploy::runProcess(test::echoFirmwareBuildCommand(board, platformsDirectory(), elf),
                           dir_.path().toStdString());
    if (build.exitCode != 0) {
      QTest::qFail(build.output.c_str(), __FILE__, __LINE__);
      return {};
    }
    firmware_[board.name] = elf;
    return elf;
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  // Firmware reads board.h, the host board.json: they must describe the
  // same board.
  void boardHeaderAgreesWithDescription_data() { test::addBoardRows(); }
  void boardHeaderAgreesWithDescription() {
    QFETCH(QString, board);
    const auto description = test::loadBoardDescription(platformsDirectory() / board.toStdString());
    const fs::path header = description.directory / "board.h";
    QCOMPARE(definedNumber(header, "LOUPE_BOARD_UART0_BASE"),
             std::optional<std::uint64_t>(description.uart0Base));
    QCOMPARE(definedNumber(header, "LOUPE_BOARD_CPU_CLOCK_HZ"),
             std::optional<std::uint64_t>(description.clockHz));
  }

  void firmwareFitsBoardMemories_data() { test::addBoardRows(); }
  void firmwareFitsBoardMemories() {
    QFETCH(QString, board);
    const auto description = test::loadBoardDescription(platformsDirectory() / board.toStdString());
    const fs::path elf = echoFirmware(description);
    if (elf.empty()) return;
    if (!test::requireTool("arm-none-eabi-size", "gcc-arm-none-eabi")) return;
    const auto size =
        deploy::runProcess({"arm-none-eabi-size", "-A", elf.string()}, dir_.path().toStdString());
    QVERIFY2(size.exitCode == 0, size.output.c_str());
    auto sections = test::sectionSizes(size.output);
    QVERIFY2(sections.contains(".text"), size.output.c_str());

    // .data occupies both memories: its initial values are loaded with the
    // code and copied to data memory at reset.
    const std::uint64_t code = sections[".text"] + sections[".ARM.exidx"] + sections[".data"];
    const std::uint64_t data = sections[".data"] + sections[".bss"];
    const auto& codeMemory = description.memoryHolding("code");
    const auto& dataMemory = description.memoryHolding("data");
    qDebug().noquote() << QString(
                              "%1 echo firmware: text %2 B, data %3 B, bss %4 B; %5 %6 of %7 B, "
                              "%8 %9 of %10 B")
                              .arg(board)
                              .arg(sections[".text"])
                              .arg(sections[".data"])
                              .arg(sections[".bss"])
                              .arg(QString::fromStdString(codeMemory.name))
                              .arg(code)
                              .arg(codeMemory.size)
                              .arg(QString::fromStdString(dataMemory.name))
                              .arg(data)
                              .arg(dataMemory.size);
    QVERIFY(code <= codeMemory.size);
    // The stack grows down from the top of data memory: leave it 4 KiB.
    QVERIFY(data + 4096 <= dataMemory.size);
  }

  void echoesRandomBytesAndExitsWithZero_data() { test::addEmulatedBoardRows(); }
  void echoesRandomBytesAndExitsWithZero() {
    QFETCH(QString, board);
    const auto description = test::loadBoardDescription(platformsDirectory() / board.toStdString());
    const fs::path elf = echoFirmware(description);
    if (elf.empty()) return;
    if (!test::requireTool(description.qemuExecutable.c_str(), "qemu-system-arm")) return;

    test::QemuSerialSession qemu;
    const fs::path socket = fs::path(dir_.path().toStdString()) / (board.toStdString() + ".sock");
    const QString started = qemu.start(description, elf, socket, 10s);
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const Exchange ready = exchange(qemu.socket(), {}, 1, kEchoTimeLimit);
    QVERIFY2(ready.error.isEmpty(), qPrintable(ready.error + "\n" + qemu.output()));
    QCOMPARE(ready.received.front(), std::uint8_t(ECHO_READY));

    std::mt19937 random(kEchoSeed);
    std::uniform_int_distribution<int> byteValue(0, 255);
    std::vector<std::uint8_t> data(kEchoBytes);
    for (auto& byte : data) byte = static_cast<std::uint8_t>(byteValue(random));

    const Exchange echo = exchange(qemu.socket(), escaped(data), data.size(), kEchoTimeLimit);
    QVERIFY2(echo.error.isEmpty(), qPrintable(echo.error + "\n" + qemu.output()));
    QVERIFY(echo.received == data);
    qDebug().noquote() << QString("%1: echoed %2 bytes in %3 ms, %4 KB/s")
                              .arg(board)
                              .arg(data.size())
                              .arg(echo.seconds * 1000, 0, 'f', 1)
                              .arg(data.size() / 1024.0 / echo.seconds, 0, 'f', 1);

    QVERIFY(writeAll(qemu.socket(), {ECHO_ESCAPE, ECHO_TERMINATOR}));
    const auto status = qemu.waitForExit(kExitTimeLimit);
    QVERIFY2(status.has_value(), qPrintable("QEMU did not exit in time:\n" + qemu.output()));
    QVERIFY2(*status == 0,
             qPrintable(QString("exit status %1\n%2").arg(*status).arg(qemu.output())));
  }

  // A firmware's failure must reach the host as a non-zero status, or a
  // crashing model run would look like a passing one.
  void protocolErrorExitsWithItsStatus_data() { test::addEmulatedBoardRows(); }
  void protocolErrorExitsWithItsStatus() {
    QFETCH(QString, board);
    const auto description = test::loadBoardDescription(platformsDirectory() / board.toStdString());
    const fs::path elf = echoFirmware(description);
    if (elf.empty()) return;
    if (!test::requireTool(description.qemuExecutable.c_str(), "qemu-system-arm")) return;

    test::QemuSerialSession qemu;
    const fs::path socket = fs::path(dir_.path().toStdString()) / (board.toStdString() + "-e.sock");
    const QString started = qemu.start(description, elf, socket, 10s);
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const Exchange ready = exchange(qemu.socket(), {}, 1, kEchoTimeLimit);
    QVERIFY2(ready.error.isEmpty(), qPrintable(ready.error + "\n" + qemu.output()));
    QCOMPARE(ready.received.front(), std::uint8_t(ECHO_READY));
    QVERIFY(writeAll(qemu.socket(), {ECHO_ESCAPE, 'x'}));
    const auto status = qemu.waitForExit(kExitTimeLimit);
    QVERIFY2(status.has_value(), qPrintable("QEMU did not exit in time:\n" + qemu.output()));
    QCOMPARE(*status, ECHO_STATUS_PROTOCOL_ERROR);
  }
};

QTEST_GUILESS_MAIN(QemuEcho)
#include "qemu_echo_test.moc"
