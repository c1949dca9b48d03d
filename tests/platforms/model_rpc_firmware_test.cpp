// The model_rpc firmware template (plugins/platforms/templates/model_rpc)
// end to end, with the test model of model_rpc/test_model_descriptor.c
// (output = input + 1, two profiled operators): built for every QEMU board
// with arm-none-eabi-gcc and run under qemu-system-arm, and built for the
// desktop as a child process on pipes. A small client written here against
// docs/session_rpc.md (frames from the board's own framing.c) does the
// handshake and one round of the model requests. Missing tools fail the
// tests with the Debian package to install; they never skip.
#include <poll.h>
#include <sys/socket.h>
#include <tvm/runtime/crt/framing.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "board_description.h"
#include "deploy/process_runner.h"
#include "firmware_build_command.h"
#include "platform_test_support.h"
#include "platforms/board_firmware.h"
#include "qemu_serial_session.h"

using namespace loupe;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr auto kResponseTimeLimit = 20s;
constexpr std::uint8_t kHostNonce = 0x6B;
constexpr std::size_t kModelBytes = 64;  // test_model_descriptor.c

std::uint32_t u32At(const Bytes& bytes, std::size_t at) {
  return static_cast<std::uint32_t>(bytes[at]) | (static_cast<std::uint32_t>(bytes[at + 1]) << 8) |
         (static_cast<std::uint32_t>(bytes[at + 2]) << 16) |
         (static_cast<std::uint32_t>(bytes[at + 3]) << 24);
}

std::uint64_t u64At(const Bytes& bytes, std::size_t at) {
  return u32At(bytes, at) | (static_cast<std::uint64_t>(u32At(bytes, at + 4)) << 32);
}

void putU32(Bytes& bytes, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

tvm_crt_error_t appendByte(void* context, std::uint8_t byte) {
  static_cast<Bytes*>(context)->push_back(byte);
  return kTvmErrorNoError;
}

// The host's end of the session over some byte link: sends messages as
// frames, decodes what comes back into whole messages.
class SessionClient {
 public:
  // send(bytes) writes everything or returns false; receive(timeout) returns
  // what arrived (empty after the time-out) or nothing when the link closed.
  SessionClient(std::function<bool(const Bytes&)> send,
                std::function<std::optional<Bytes>(std::chrono::milliseconds)> receive)
      : send_(std::move(send)), receive_(std::move(receive)), buffer_(1 << 16) {
    TVMFrameDecoder_Init(&decoder_, buffer_.data(), buffer_.size());
  }

  bool send(const Bytes& message) {
    Bytes frame;
    return TVMFrameEncode(message.data(), message.size(), appendByte, &frame) == kTvmErrorNoError &&
           send_(frame);
  }

  // The next whole message, or nothing after the time limit.
  std::optional<Bytes> next(std::chrono::milliseconds timeLimit) {
    QElapsedTimer clock;
    clock.start();
    while (messages_.empty()) {
      const auto left = timeLimit.count() - clock.elapsed();
      if (left <= 0) return std::nullopt;
      auto bytes = receive_(std::chrono::milliseconds(left));
      if (!bytes) return std::nullopt;
      for (std::uint8_t byte : *bytes) {
        if (TVMFrameDecoder_Feed(&decoder_, byte) == kTvmFrameComplete) {
          messages_.emplace_back(buffer_.begin(), buffer_.begin() + decoder_.length);
        }
      }
    }
    Bytes message = std::move(messages_.front());
    messages_.pop_front();
    return message;
  }

  // The body of the response to request `body` numbered `sequence`.
  std::optional<Bytes> request(std::uint8_t sequence, const Bytes& body) {
    Bytes message = {0x04, kHostNonce, boardNonce, sequence};
    message.insert(message.end(), body.begin(), body.end());
    if (!send(message)) return std::nullopt;
    while (auto reply = next(kResponseTimeLimit)) {
      if (reply->size() >= 4 && (*reply)[0] == 0x05 && (*reply)[3] == sequence) {
        return Bytes(reply->begin() + 4, reply->end());
      }
    }
    return std::nullopt;
  }

  std::uint8_t boardNonce = 0;

 private:
  std::function<bool(const Bytes&)> send_;
  std::function<std::optional<Bytes>(std::chrono::milliseconds)> receive_;
  Bytes buffer_;
  TVMFrameDecoder decoder_;
  std::deque<Bytes> messages_;
};

SessionClient socketClient(int socket) {
  auto send = [socket](const Bytes& bytes) {
    std::size_t written = 0;
    while (written < bytes.size()) {
      const ssize_t n =
          ::send(socket, bytes.data() + written, bytes.size() - written, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      written += static_cast<std::size_t>(n);
    }
    return true;
  };
  auto receive = [socket](std::chrono::milliseconds timeout) -> std::optional<Bytes> {
    pollfd fd{socket, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(timeout.count())) <= 0) return Bytes{};
    std::uint8_t buffer[4096];
    const ssize_t n = ::recv(socket, buffer, sizeof buffer, 0);
    if (n <= 0) return std::nullopt;
    return Bytes(buffer, buffer + n);
  };
  return SessionClient(send, receive);
}

SessionClient processClient(QProcess& process) {
  auto send = [&process](const Bytes& bytes) {
    const qint64 n = process.write(reinterpret_cast<const char*>(bytes.data()),
                                   static_cast<qint64>(bytes.size()));
    return n == static_cast<qint64>(bytes.size()) && process.waitForBytesWritten(5000);
  };
  auto receive = [&process](std::chrono::milliseconds timeout) -> std::optional<Bytes> {
    if (process.bytesAvailable() == 0 &&
        !process.waitForReadyRead(static_cast<int>(timeout.count())))
      return process.state() == QProcess::Running ? std::optional<Bytes>(Bytes{}) : std::nullopt;
    const QByteArray data = process.readAllStandardOutput();
    return Bytes(data.begin(), data.end());
  };
  return SessionClient(send, receive);
}

// What the firmware must do for any board: BOOT, handshake, the model
// requests, retransmission, device memory. Checks with QVERIFY, so call it
// directly from the test function.
#define EXPECT_RESPONSE(reply, opcode)             \
  do {                                             \
    QVERIFY2((reply).has_value(), "no response");  \
    QVERIFY((reply)->size() >= 5);                 \
    QCOMPARE((*(reply))[0], std::uint8_t(opcode)); \
    QCOMPARE(u32At(*(reply), 1), 0u);              \
  } while (0)

}  // namespace

class ModelRpcFirmware : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  static fs::path platformsDirectory() { return LOUPE_PLATFORMS_DIR; }

  std::vector<std::string> buildCommand(const test::BoardDescription& board, const fs::path& elf) {
    const fs::path rpc = platformsDirectory() / "templates" / "model_rpc";
    const fs::path crt = LOUPE_CRT_DIR;
    std::vector<std::string> command =
        test::boardFirmwareCommand(board, platformsDirectory(), "-Os");
    command.insert(
        command.end(),
        {"-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections", "-I" + rpc.string(),
         "-I" + (crt / "include").string(), "-I" + (crt / "config").string(),
         "-DLOUPE_RPC_ARENA_BYTES=" + std::to_string(board.rpcArenaBytes) + "u",
         (rpc / "board_main.c").string(), (rpc / "rpc_firmware.c").string(),
         LOUPE_MODEL_RPC_TEST_DESCRIPTOR});
    for (const char* file :
         {"error.c", "logging.c", "page_allocator.c", "stack_allocator.c", "platform_memory.c",
          "func_registry.c", "mutable_func_registry.c", "module_table.c", "crt_runtime_api.c",
          "profiler.c", "framing.c", "session.c", "rpc_server.c"}) {
      command.push_back((crt / "src" / file).string());
    }
    command.insert(command.end(), {"-lgcc", "-o", elf.string()});
    return command;
  }

  // Handshake and one round of every model request; `tickRate` is what
  // STARTED must announce.
  void exerciseModel(SessionClient& client, const std::string& boardName, std::uint32_t tickRate) {
    const auto boot = client.next(kResponseTimeLimit);
    QVERIFY2(boot.has_value(), "no BOOT");
    QCOMPARE((*boot)[0], std::uint8_t(0x01));
    QCOMPARE(std::string(boot->begin() + 5, boot->end()), boardName);

    QVERIFY(client.send({0x02, kHostNonce, 0, 0, 1}));
    const auto started = client.next(kResponseTimeLimit);
    QVERIFY2(started.has_value(), "no STARTED");
    QCOMPARE((*started)[0], std::uint8_t(0x03));
    QCOMPARE((*started)[1], kHostNonce);
    QVERIFY((*started)[2] != 0);
    QCOMPARE(u32At(*started, 7), tickRate);
    client.boardNonce = (*started)[2];

    const auto info = client.request(1, {0x10});
    EXPECT_RESPONSE(info, 0x10);
    QCOMPARE((*info)[5], std::uint8_t(7));
    QCOMPARE(std::string(info->begin() + 6, info->begin() + 13), std::string("add_one"));

    Bytes setInput = {0x11, 0};
    putU32(setInput, 0);
    for (std::size_t i = 0; i < kModelBytes; ++i)
      setInput.push_back(static_cast<std::uint8_t>(3 * i));
    EXPECT_RESPONSE(client.request(2, setInput), 0x11);

    const auto run = client.request(3, {0x12});
    EXPECT_RESPONSE(run, 0x12);
    QCOMPARE(run->size(), std::size_t(17));
    QCOMPARE(u32At(*run, 5), 0u);
    const std::uint64_t ticks = u64At(*run, 9);
    // The same RUN again is a retransmission: the same answer, not a new run.
    const auto again = client.request(3, {0x12});
    QVERIFY(again.has_value());
    QVERIFY(*again == *run);

    Bytes getOutput = {0x13, 0};
    putU32(getOutput, 0);
    putU32(getOutput, kModelBytes);
    const auto output = client.request(4, getOutput);
    EXPECT_RESPONSE(output, 0x13);
    QCOMPARE(output->size(), 5 + kModelBytes);
    for (std::size_t i = 0; i < kModelBytes; ++i) {
      QCOMPARE((*output)[5 + i], static_cast<std::uint8_t>(3 * i + 1));
    }

    Bytes getProfile = {0x14};
    putU32(getProfile, 0);
    putU32(getProfile, 8);
    const auto profile = client.request(5, getProfile);
    EXPECT_RESPONSE(profile, 0x14);
    QCOMPARE(u32At(*profile, 5), 2u);
    QCOMPARE(u32At(*profile, 9), 2u);
    QCOMPARE(u32At(*profile, 13), 1u);
    QCOMPARE(u32At(*profile, 25), 1u);
    const std::uint64_t operatorTicks = u64At(*profile, 17) + u64At(*profile, 29);
    QVERIFY(operatorTicks <= ticks);
    qDebug().noquote() << QString("%1: RUN %2 ticks, operators %3 + %4 ticks at %5 Hz")
                              .arg(QString::fromStdString(boardName))
                              .arg(ticks)
                              .arg(u64At(*profile, 17))
                              .arg(u64At(*profile, 29))
                              .arg(tickRate);

    // Device memory: ALLOC, a write, a read back, and a range it refuses.
    Bytes alloc = {0x03};
    putU32(alloc, 32);
    const auto allocated = client.request(6, alloc);
    EXPECT_RESPONSE(allocated, 0x03);
    const Bytes handle(allocated->begin() + 5, allocated->begin() + 13);
    Bytes copyTo = {0x05};
    copyTo.insert(copyTo.end(), handle.begin(), handle.end());
    putU32(copyTo, 30);
    copyTo.insert(copyTo.end(), {0xAB, 0xCD});
    EXPECT_RESPONSE(client.request(7, copyTo), 0x05);
    Bytes copyFrom = {0x06};
    copyFrom.insert(copyFrom.end(), handle.begin(), handle.end());
    putU32(copyFrom, 30);
    putU32(copyFrom, 2);
    const auto read = client.request(8, copyFrom);
    EXPECT_RESPONSE(read, 0x06);
    QVERIFY(Bytes(read->begin() + 5, read->end()) == Bytes({0xAB, 0xCD}));
    copyTo[9] = 31;  // offset 31 + 2 bytes: one past the end
    const auto refused = client.request(9, copyTo);
    QVERIFY(refused.has_value());
    QCOMPARE(u32At(*refused, 1), std::uint32_t(kTvmErrorInvalidArgument));
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void runsTheModelUnderQemu_data() { test::addEmulatedBoardRows(); }
  void runsTheModelUnderQemu() {
    QFETCH(QString, board);
    const auto description = test::loadBoardDescription(platformsDirectory() / board.toStdString());
    if (!test::requireTool("arm-none-eabi-gcc", "gcc-arm-none-eabi")) return;
    if (!test::requireTool(description.qemuExecutable.c_str(), "qemu-system-arm")) return;
    const fs::path elf = fs::path(dir_.path().toStdString()) / (board.toStdString() + "_rpc.elf");
    const auto build =
        deploy::runProcess(buildCommand(description, elf), dir_.path().toStdString());
    QVERIFY2(build.exitCode == 0, build.output.c_str());
    const auto size =
        deploy::runProcess({"arm-none-eabi-size", elf.string()}, dir_.path().toStdString());
    qDebug().noquote() << size.output.c_str();

    test::QemuSerialSession qemu;
    const fs::path socket = fs::path(dir_.path().toStdString()) / (board.toStdString() + ".sock");
    const QString started = qemu.start(description, elf, socket, 10s);
    QVERIFY2(started.isEmpty(), qPrintable(started));
    SessionClient client = socketClient(qemu.socket());
    exerciseModel(client, description.name, static_cast<std::uint32_t>(description.clockHz));
    if (QTest::currentTestFailed()) qDebug().noquote() << qemu.output();
  }

  // platforms::minimumFootprint refuses models before building with
  // kRpcRuntimeDataBytes and kRpcRuntimeCodeBytes as the runtime's share:
  // they must not exceed what the firmware really takes on any board (with
  // the test model's few bytes of buffers and functions on top), or a
  // refusal could be wrong.
  void runtimeFootprintIsALowerBound_data() { test::addBoardRows(); }
  void runtimeFootprintIsALowerBound() {
    QFETCH(QString, board);
    const auto description = test::loadBoardDescription(platformsDirectory() / board.toStdString());
    if (!test::requireTool("arm-none-eabi-gcc", "gcc-arm-none-eabi")) return;
    const fs::path elf = fs::path(dir_.path().toStdString()) / (board.toStdString() + "_fp.elf");
    auto command = buildCommand(description, elf);
    command.push_back("-DTVM_CRT_MAX_PROFILED_OPERATORS=1");
    const auto build = deploy::runProcess(command, dir_.path().toStdString());
    QVERIFY2(build.exitCode == 0, build.output.c_str());
    const auto size =
        deploy::runProcess({"arm-none-eabi-size", "-A", elf.string()}, dir_.path().toStdString());
    auto sections = test::sectionSizes(size.output);
    const std::uint64_t data = sections[".data"] + sections[".bss"];
    const std::uint64_t runtimeData = data - description.rpcArenaBytes - 24;
    qDebug().noquote() << QString("%1: runtime RAM %2 B (bound %3), code %4 B (bound %5)")
                              .arg(board)
                              .arg(runtimeData)
                              .arg(platforms::kRpcRuntimeDataBytes)
                              .arg(sections[".text"])
                              .arg(platforms::kRpcRuntimeCodeBytes);
    QVERIFY(data > description.rpcArenaBytes);
    QVERIFY(runtimeData >= platforms::kRpcRuntimeDataBytes);
    QVERIFY(sections[".text"] >= platforms::kRpcRuntimeCodeBytes);
  }

  void runsTheModelAsADesktopProcess() {
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(LOUPE_MODEL_RPC_STDIO, {});
    QVERIFY2(process.waitForStarted(5000), qPrintable(process.errorString()));
    SessionClient client = processClient(process);
    exerciseModel(client, "native", 1000000000u);
    // End of input ends the program with status 0.
    process.closeWriteChannel();
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
  }
};

QTEST_GUILESS_MAIN(ModelRpcFirmware)
#include "model_rpc_firmware_test.moc"
