// The host transports: a child process's pipes, a pty standing in for a
// serial port, a Unix socket that appears late, and the fault injector.
#include <fcntl.h>
#include <pty.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "fault_injecting_transport.h"
#include "pipe_transport.h"
#include "tty_transport.h"
#include "unix_socket_transport.h"

using namespace loupe::host;
using namespace std::chrono_literals;
using Bytes = std::vector<std::uint8_t>;

namespace {

Bytes everyByteValue() {
  Bytes bytes(256);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i);
  return bytes;
}

// Reads from transport until count bytes arrived or two seconds passed.
Bytes readExactly(Transport& transport, std::size_t count) {
  Bytes all;
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  std::array<std::uint8_t, 512> buffer;
  while (all.size() < count && std::chrono::steady_clock::now() < deadline) {
    const std::size_t got = transport.read(buffer, 100ms);
    all.insert(all.end(), buffer.begin(), buffer.begin() + got);
  }
  return all;
}

Bytes readFd(int fd, std::size_t count) {
  Bytes all;
  const auto deadline = std::chrono::steady_clock::now() + 2s;
  std::array<std::uint8_t, 512> buffer;
  while (all.size() < count && std::chrono::steady_clock::now() < deadline) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got > 0) all.insert(all.end(), buffer.begin(), buffer.begin() + got);
    if (got <= 0) std::this_thread::sleep_for(5ms);
  }
  return all;
}

template <typename Exception, typename Body>
std::string messageOf(Body body) {
  try {
    body();
  } catch (const Exception& error) {
    return error.what();
  }
  return "(nothing thrown)";
}

// Records what is written and plays back a fixed reply: the fault injector's peer.
class Loopback : public Transport {
 public:
  void write(std::span<const std::uint8_t> bytes) override {
    written.insert(written.end(), bytes.begin(), bytes.end());
  }
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds) override {
    const std::size_t count = std::min(buffer.size(), reply.size());
    std::copy_n(reply.begin(), count, buffer.begin());
    reply.erase(reply.begin(), reply.begin() + count);
    return count;
  }
  void close() override {}
  std::string describe() const override { return "loopback"; }
  Bytes written;
  Bytes reply;
};

}  // namespace

class TransportTest : public QObject {
  Q_OBJECT

 private slots:
  void catEchoesThroughThePipes() {
    PipeTransport cat({"cat"});
    QVERIFY(cat.pid() > 0);
    QVERIFY(cat.describe().starts_with("pipe to cat (pid "));
    const Bytes bytes = everyByteValue();
    cat.write(bytes);
    QCOMPARE(readExactly(cat, bytes.size()), bytes);
    QCOMPARE(cat.read(std::span<std::uint8_t>(), 10ms), std::size_t{0});
    cat.close();
    QCOMPARE(*cat.exitDescription(), std::string("was killed by the host"));
    QVERIFY_THROWS_EXCEPTION(TransportClosed, cat.write(bytes));
  }

  void aChildThatExitsReportsItsStatusAndStderr() {
    PipeTransport child(
        {"/bin/sh", "-c", "echo first line >&2; echo 'no model linked' >&2; exit 3"});
    std::array<std::uint8_t, 16> buffer;
    const std::string message = messageOf<TransportClosed>([&] {
      for (;;) child.read(buffer, 1000ms);
    });
    QVERIFY2(message.find("exited with status 3") != std::string::npos, message.c_str());
    QVERIFY2(message.ends_with("first line\nno model linked"), message.c_str());
    QCOMPARE(child.capturedStderr(), std::string("first line\nno model linked\n"));
  }

  void aChildKilledByASignalSaysWhich() {
    PipeTransport child({"/bin/sh", "-c", "kill -TERM $$"});
    std::array<std::uint8_t, 16> buffer;
    const std::string message = messageOf<TransportClosed>([&] {
      for (;;) child.read(buffer, 1000ms);
    });
    QVERIFY2(message.find("was killed by signal 15") != std::string::npos, message.c_str());
    QVERIFY2(message.find("it wrote nothing to stderr") != std::string::npos, message.c_str());
  }

  void writingToAChildThatExitedThrowsInsteadOfSigpipe() {
    PipeTransport child({"true"});
    std::this_thread::sleep_for(100ms);
    const Bytes big(256 * 1024, 0x55);
    const std::string message = messageOf<TransportClosed>([&] { child.write(big); });
    QVERIFY2(message.find("exited with status 0") != std::string::npos, message.c_str());
  }

  void theStderrBufferKeepsOnlyTheEnd() {
    PipeTransport child({"/bin/sh", "-c",
                         "i=0; while [ $i -lt 200 ]; do echo line $i >&2; "
                         "i=$((i+1)); done"},
                        64);
    std::array<std::uint8_t, 16> buffer;
    messageOf<TransportClosed>([&] {
      for (;;) child.read(buffer, 1000ms);
    });
    QCOMPARE(child.capturedStderr().size(), std::size_t{64});
    QVERIFY(child.capturedStderr().ends_with("line 199\n"));
  }

  void aMissingProgramIsAClearError() {
    const std::string message =
        messageOf<std::runtime_error>([] { PipeTransport({"/nonexistent/loupe-board"}); });
    QCOMPARE(message,
             std::string("cannot start /nonexistent/loupe-board: No such file or directory"));
  }

  void aPtyPassesRawBytesBothWays() {
    int master = -1, slave = -1;
    char name[256];
    QCOMPARE(::openpty(&master, &slave, name, nullptr, nullptr), 0);
    ::close(slave);  // the transport opens it by name, as it would /dev/ttyUSB0
    {
      TtyTransport tty(name, 921600);
      QCOMPARE(tty.describe(), std::string(name) + " at 921600 baud");
      // Every value, including \r, \n, ^C, ^S/^Q and DEL, arrives unchanged.
      const Bytes bytes = everyByteValue();
      QCOMPARE(::write(master, bytes.data(), bytes.size()), ssize_t{256});
      QCOMPARE(readExactly(tty, bytes.size()), bytes);
      tty.write(bytes);
      ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
      QCOMPARE(readFd(master, bytes.size()), bytes);
      // The other end hanging up closes the link.
      ::close(master);
      std::array<std::uint8_t, 8> buffer;
      QVERIFY_THROWS_EXCEPTION(TransportClosed, tty.read(buffer, 500ms));
    }
  }

  void aMissingSerialDeviceIsAClearError() {
    QCOMPARE(messageOf<std::runtime_error>([] { TtyTransport("/dev/ttyLOUPE-none", 115200); }),
             std::string("cannot open /dev/ttyLOUPE-none: No such file or directory (is the board "
                         "plugged in?)"));
    QCOMPARE(messageOf<std::runtime_error>([] { TtyTransport("/dev/null", 115200); }),
             std::string("cannot use /dev/null as a serial port: Inappropriate ioctl for device"));
  }

  void anUnsupportedBaudRateIsRefused() {
    const std::string message =
        messageOf<std::invalid_argument>([] { TtyTransport("/dev/ttyLOUPE-none", 12345); });
    QVERIFY2(message.starts_with("unsupported baud rate 12345 for /dev/ttyLOUPE-none (supported: "
                                 "1200, 2400"),
             message.c_str());
  }

  void aUnixSocketIsWaitedForUntilItAppears() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("uart.sock").toStdString();
    std::thread server([path] {
      std::this_thread::sleep_for(200ms);  // QEMU takes a moment to create its socket
      const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      std::memcpy(address.sun_path, path.data(), path.size());
      ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address);
      ::listen(listener, 1);
      const int peer = ::accept(listener, nullptr, nullptr);
      std::array<std::uint8_t, 256> buffer;
      std::size_t echoed = 0;
      while (echoed < 256) {
        const ssize_t got = ::read(peer, buffer.data(), buffer.size());
        if (got <= 0) break;
        if (::write(peer, buffer.data(), static_cast<std::size_t>(got)) != got) break;
        echoed += static_cast<std::size_t>(got);
      }
      ::close(peer);
      ::close(listener);
    });
    const auto begin = std::chrono::steady_clock::now();
    UnixSocketTransport socket(path, 5000ms);
    QVERIFY(std::chrono::steady_clock::now() - begin >= 150ms);
    QCOMPARE(socket.describe(), "Unix socket " + path);
    const Bytes bytes = everyByteValue();
    socket.write(bytes);
    QCOMPARE(readExactly(socket, bytes.size()), bytes);
    server.join();
    std::array<std::uint8_t, 8> buffer;
    const std::string message = messageOf<TransportClosed>([&] { socket.read(buffer, 1000ms); });
    QCOMPARE(message, "the peer closed Unix socket " + path);
  }

  void aUnixSocketThatNeverAppearsTimesOut() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("never.sock").toStdString();
    const auto begin = std::chrono::steady_clock::now();
    const std::string message =
        messageOf<std::runtime_error>([&] { UnixSocketTransport(path, 150ms); });
    const auto elapsed = std::chrono::steady_clock::now() - begin;
    QCOMPARE(message, "cannot connect to " + path +
                          ": No such file or directory (waited 150 ms for it to accept)");
    QVERIFY(elapsed >= 150ms && elapsed < 2s);
  }

  void faultsAtExplicitPositionsHitExactlyThoseBytes() {
    Loopback peer;
    FaultInjectionOptions options;
    options.toBoard.dropAt = {2, 5};
    options.toBoard.corruptAt = {0};
    FaultInjectingTransport faulty(peer, options);
    faulty.write(Bytes{10, 11, 12, 13});
    faulty.write(Bytes{14, 15, 16});  // positions keep counting across writes
    QCOMPARE(peer.written.size(), std::size_t{5});
    QCOMPARE(Bytes(peer.written.begin() + 1, peer.written.end()), (Bytes{11, 13, 14, 16}));
    const std::uint8_t flipped = peer.written[0] ^ 10;
    QVERIFY(flipped != 0 && (flipped & (flipped - 1)) == 0);  // exactly one bit
    QCOMPARE(faulty.injected().droppedToBoard, std::size_t{2});
    QCOMPARE(faulty.injected().corruptedToBoard, std::size_t{1});
  }

  void garbageComesBeforeTheFirstBytesRead() {
    Loopback peer;
    peer.reply = {1, 2, 3};
    FaultInjectionOptions options;
    options.garbageBeforeFirstRead = {0xEE, 0xFF};
    FaultInjectingTransport faulty(peer, options);
    QCOMPARE(readExactly(faulty, 5), (Bytes{0xEE, 0xFF, 1, 2, 3}));
  }

  void randomFaultsFollowTheSeed() {
    auto damaged = [](std::uint64_t seed) {
      Loopback peer;
      FaultInjectionOptions options;
      options.seed = seed;
      options.toBoard.dropRate = 0.1;
      options.toBoard.corruptRate = 0.1;
      FaultInjectingTransport faulty(peer, options);
      faulty.write(Bytes(1000, 0x00));
      return peer.written;
    };
    const Bytes first = damaged(3);
    QCOMPARE(damaged(3), first);
    QVERIFY(damaged(4) != first);
    QVERIFY(first.size() > 800 && first.size() < 960);
    QVERIFY(std::count(first.begin(), first.end(), 0) < static_cast<long>(first.size()));
  }
};

QTEST_APPLESS_MAIN(TransportTest)
#include "transport_test.moc"
