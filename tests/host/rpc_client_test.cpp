// The RPC client (docs/session_rpc.md) against a fake board: the exact bytes
// of every opcode's request, the decoding of every response, chunking by the
// board's max request, and the board's error statuses as RemoteError.
#include <QtTest>
#include <chrono>
#include <string>

#include "fake_board.h"
#include "rpc_client.h"
#include "session.h"

using namespace loupe::host;
using namespace loupe::host::testing;
using namespace std::chrono_literals;

namespace {

SessionOptions quickOptions() {
  SessionOptions options;
  options.startRetryInterval = 20ms;
  options.responseTimeout = 50ms;
  options.runTimeout = 50ms;
  return options;
}

Bytes le(std::uint64_t value, int count) {
  Bytes bytes;
  for (int i = 0; i < count; ++i) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  return bytes;
}

Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const Bytes& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// A board and a started session and client on it.
struct Bench {
  explicit Bench(std::uint16_t maxRequest = 256)
      : board(maxRequest), session(board, quickOptions()) {
    session.start();
  }
  FakeBoard board;
  Session session;
  RpcClient rpc{session};
};

}  // namespace

class RpcClientTest : public QObject {
  Q_OBJECT

 private slots:
  void getGlobalFunctionSendsTheNameAndReturnsTheHandle() {
    Bench bench;
    QCOMPARE(bench.rpc.getGlobalFunction("add_one"), std::uint64_t{0x1000});
    QCOMPARE(bench.board.requestBodies.back(), (Bytes{0x01, 'a', 'd', 'd', '_', 'o', 'n', 'e'}));
  }

  void callFunctionEncodesEveryArgumentType() {
    Bench bench;
    TensorArgument tensor;
    tensor.deviceHandle = 0x20000000;
    tensor.dtypeCode = 0;
    tensor.bits = 8;
    tensor.lanes = 1;
    tensor.shape = {1, 28, 28};
    const std::vector<CallArgument> arguments{std::int64_t{-2}, 1.5, HandleArgument{0xABCD},
                                              NullArgument{}, tensor};
    const CallResult result = bench.rpc.callFunction(0x1000, arguments);
    QCOMPARE(result.typeCode, std::uint8_t{0});
    QCOMPARE(result.asInt(), std::int64_t{5});  // the fake board returns the argument count
    const Bytes expected = cat({{0x02},
                                le(0x1000, 8),
                                {5},
                                {0},
                                le(static_cast<std::uint64_t>(-2), 8),
                                {2},
                                le(0x3FF8000000000000, 8),  // 1.5
                                {3},
                                le(0xABCD, 8),
                                {4},
                                {7},
                                le(0x20000000, 8),
                                {3, 0, 8},
                                le(1, 2),
                                le(1, 8),
                                le(28, 8),
                                le(28, 8)});
    QCOMPARE(bench.board.requestBodies.back(), expected);
  }

  void deviceMemoryRoundTripsThroughChunks() {
    Bench bench(40);  // 23 bytes per COPY_TO_DEVICE, 24 per COPY_FROM_DEVICE
    const std::uint64_t handle = bench.rpc.alloc(100);
    QCOMPARE(bench.board.requestBodies.back(), cat({{0x03}, le(100, 4)}));
    Bytes data(100);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(3 * i);
    const std::size_t before = bench.board.requestBodies.size();
    bench.rpc.copyToDevice(handle, 0, data);
    QCOMPARE(bench.board.requestBodies.size() - before, std::size_t{5});  // ceil(100 / 23)
    QCOMPARE(bench.board.requestBodies[before],
             cat({{0x05}, le(handle, 8), le(0, 4), Bytes(data.begin(), data.begin() + 23)}));
    QCOMPARE(bench.board.memory[handle], data);
    QCOMPARE(bench.rpc.copyFromDevice(handle, 10, 90), Bytes(data.begin() + 10, data.end()));
    QCOMPARE(bench.board.requestBodies.back(), cat({{0x06}, le(handle, 8), le(82, 4), le(18, 4)}));
    bench.rpc.free(handle);
    QCOMPARE(bench.board.requestBodies.back(), cat({{0x04}, le(handle, 8)}));
    QVERIFY(bench.board.memory.empty());
    for (std::size_t size : bench.board.requestPayloadSizes) QVERIFY(size <= 40);
  }

  void modelInfoIsDecoded() {
    Bench bench;
    const ModelInfo info = bench.rpc.modelInfo();
    QCOMPARE(bench.board.requestBodies.back(), Bytes{0x10});
    QCOMPARE(info.name, std::string("tiny"));
    QCOMPARE(info.inputBytes, std::vector<std::uint32_t>{300});
    QCOMPARE(info.outputBytes, std::vector<std::uint32_t>{700});
    QCOMPARE(info.operatorCount, std::uint32_t{7});
    QCOMPARE(info.workspaceBytes, std::uint32_t{1024});
    QCOMPARE(info.stateBytes, std::uint32_t{16});
  }

  void aModelRunsThroughChunkedInputsAndOutputs() {
    Bench bench(40);  // 30 input bytes per SET_INPUT, 24 output bytes per GET_OUTPUT
    Bytes input(300);
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i ^ 0x5A);
    bench.rpc.setInput(0, input);
    QCOMPARE(bench.board.requestBodies.size(), std::size_t{10});
    QCOMPARE(bench.board.requestBodies[1],
             cat({{0x11, 0}, le(30, 4), Bytes(input.begin() + 30, input.begin() + 60)}));
    QCOMPARE(bench.board.input, input);

    const RunResult result = bench.rpc.run();
    QCOMPARE(bench.board.requestBodies.back(), Bytes{0x12});
    QCOMPARE(result.modelStatus, std::int32_t{0});
    QCOMPARE(result.ticks, std::uint64_t{12345});

    const std::size_t before = bench.board.requestBodies.size();
    const Bytes output = bench.rpc.getOutput(0);
    // MODEL_INFO once for the size, then ceil(700 / 24) = 30 GET_OUTPUTs.
    QCOMPARE(bench.board.requestBodies.size() - before, std::size_t{31});
    QCOMPARE(bench.board.requestBodies[before + 1], cat({{0x13, 0}, le(0, 4), le(24, 4)}));
    QCOMPARE(bench.board.requestBodies.back(), cat({{0x13, 0}, le(696, 4), le(4, 4)}));
    QCOMPARE(output, bench.board.output);
    QCOMPARE(output[299], static_cast<std::uint8_t>(input[299] + 1));
    QCOMPARE(bench.session.statistics().naksReceived, std::size_t{0});
  }

  void theProfileIsReadInPages() {
    Bench bench(40);  // (40 - 16) / 12 = 2 entries a page
    const std::vector<OperatorProfile> profile = bench.rpc.getProfile();
    QCOMPARE(profile.size(), std::size_t{7});
    QCOMPARE(bench.board.requestBodies.size(), std::size_t{4});
    QCOMPARE(bench.board.requestBodies[1], cat({{0x14}, le(2, 4), le(2, 4)}));
    QCOMPARE(profile[6].calls, std::uint32_t{7});
    QCOMPARE(profile[6].lastTicks, std::uint64_t{7000});
  }

  void ticksBecomeNanosecondsWithTheTickRate() {
    Bench bench;  // 1 MHz
    QCOMPARE(*bench.rpc.ticksToNanoseconds(12345), 12'345'000.0);
  }

  void resetStateSendsItsOpcode() {
    Bench bench;
    bench.rpc.resetState();
    QCOMPARE(bench.board.requestBodies.back(), Bytes{0x15});
    QCOMPARE(bench.board.resets, std::size_t{1});
  }

  void aBoardErrorNamesTheOpcodeAndTheCode() {
    Bench bench;
    bench.board.script.failOpcode = 0x13;
    bench.board.script.failStatus = 0x0001;
    try {
      bench.rpc.getOutput(0, 0, 16);
      QFAIL("expected a RemoteError");
    } catch (const SessionError& error) {
      QCOMPARE(error.kind(), SessionErrorKind::RemoteError);
      QCOMPARE(error.remoteStatus(), std::int32_t{1});
      QCOMPARE(std::string(error.what()),
               std::string("GET_OUTPUT failed on the board: error 0x0001 (invalid argument)"));
    }
  }

  void unknownBoardErrorsAreShownInHex() {
    Bench bench;
    try {
      bench.rpc.getGlobalFunction("missing");
      QFAIL("expected a RemoteError");
    } catch (const SessionError& error) {
      QCOMPARE(std::string(error.what()),
               std::string("GET_GLOBAL_FUNC failed on the board: error 0x0100 (function name not "
                           "found)"));
    }
    bench.board.script.failOpcode = 0x12;
    bench.board.script.failStatus = 0x0705;
    try {
      bench.rpc.run();
      QFAIL("expected a RemoteError");
    } catch (const SessionError& error) {
      QCOMPARE(std::string(error.what()), std::string("RUN failed on the board: error 0x0705"));
    }
  }

  void aResponseCutShortIsAProtocolError() {
    Bench bench;
    bench.board.script.truncateResponseTo = 9;  // opcode, status, 4 of RUN's 12 result bytes
    try {
      bench.rpc.run();
      QFAIL("expected a protocol error");
    } catch (const SessionError& error) {
      QCOMPARE(error.kind(), SessionErrorKind::Protocol);
      QCOMPARE(std::string(error.what()),
               std::string("malformed RESPONSE to RUN: needs 8 bytes at offset 4 but it has 4"));
    }
  }
};

QTEST_APPLESS_MAIN(RpcClientTest)
#include "rpc_client_test.moc"
