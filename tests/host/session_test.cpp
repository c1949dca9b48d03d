// The host session (docs/session_rpc.md) against a fake board: the handshake
// through garbage and stale answers, retransmission after time-outs, NAKs and
// damaged frames, and the specific error for each way a request can fail.
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QtTest>
#include <array>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "fake_board.h"
#include "fault_injecting_transport.h"
#include "pipe_transport.h"
#include "rpc_client.h"
#include "session.h"
#include "unix_socket_transport.h"

using namespace loupe::host;
using namespace loupe::host::testing;
using namespace std::chrono_literals;

namespace {

SessionOptions quickOptions() {
  SessionOptions options;
  options.startTimeout = 2000ms;
  options.startRetryInterval = 20ms;
  options.responseTimeout = 30ms;
  options.runTimeout = 30ms;
  options.retries = 3;
  options.nonceSeed = 42;
  return options;
}

// Runs body, which must throw a SessionError, and returns it.
template <typename Body>
SessionError sessionErrorFrom(Body body) {
  try {
    body();
  } catch (const SessionError& error) {
    return error;
  }
  QTest::qFail("expected a SessionError", __FILE__, __LINE__);
  return SessionError(SessionErrorKind::Protocol, "none");
}

}  // namespace

class SessionTest : public QObject {
  Q_OBJECT

 private slots:
  void theHandshakeReportsWhatTheBoardSaid() {
    FakeBoard board(512, 48'000'000);
    Session session(board, quickOptions());
    const BoardInfo& info = session.start();
    QVERIFY(session.isOpen());
    QCOMPARE(info.version, std::uint8_t{1});
    QCOMPARE(info.maxRequest, std::uint16_t{512});
    QCOMPARE(info.tickRate, std::uint32_t{48'000'000});
    QCOMPARE(info.name, std::string("fake"));
    QCOMPARE(info.boardNonce, board.boardNonce());
    QCOMPARE(board.startNonces.size(), std::size_t{1});
    QVERIFY(board.startNonces[0] != 0);
    QCOMPARE(info.hostNonce, board.startNonces[0]);
  }

  void garbageBeforeTheHandshakeIsSkipped() {
    FakeBoard board;
    FaultInjectionOptions faults;
    // A boot banner with a stray start marker that begins a frame never finished.
    const std::string banner = "U-Boot 2024.01\r\n\x7E\x05garbage\r\n";
    faults.garbageBeforeFirstRead.assign(banner.begin(), banner.end());
    FaultInjectingTransport link(board, faults);
    Session session(link, quickOptions());
    session.start();
    QVERIFY(session.isOpen());
    QVERIFY(session.statistics().framing.garbageBytes > 0);
  }

  void aStaleStartedForAnotherNonceIsDropped() {
    FakeBoard board;
    board.script.staleStartedFirst = true;
    Session session(board, quickOptions());
    const BoardInfo& info = session.start();
    QCOMPARE(session.statistics().droppedStale, std::size_t{1});
    QCOMPARE(info.boardNonce, board.boardNonce());
    RpcClient rpc(session);
    rpc.resetState();  // requests carry the nonces of the real STARTED
    QCOMPARE(board.resets, std::size_t{1});
  }

  void startIsResentWithFreshNoncesUntilTheBoardAnswers() {
    FakeBoard board;
    board.script.ignoreStarts = 2;
    Session session(board, quickOptions());
    session.start();
    QCOMPARE(session.statistics().startsSent, std::size_t{3});
    QCOMPARE(board.startNonces.size(), std::size_t{3});
    QVERIFY(board.startNonces[0] != board.startNonces[1]);
    QVERIFY(board.startNonces[1] != board.startNonces[2]);
    QCOMPARE(session.boardInfo().hostNonce, board.startNonces[2]);
  }

  void aSilentBoardFailsTheHandshakeAfterTheStartTimeout() {
    FakeBoard board;
    board.script.ignoreStarts = 1'000'000;
    SessionOptions options = quickOptions();
    options.startTimeout = 200ms;
    Session session(board, options);
    const auto begin = std::chrono::steady_clock::now();
    const SessionError error = sessionErrorFrom([&] { session.start(); });
    const auto elapsed = std::chrono::steady_clock::now() - begin;
    QCOMPARE(error.kind(), SessionErrorKind::NoResponse);
    QVERIFY2(
        std::string(error.what()).starts_with("no answer from the board to START within 200 ms ("),
        error.what());
    // The board's BOOT came back, nothing else.
    QVERIFY2(std::string(error.what()).find("(it did send BOOT)") != std::string::npos,
             error.what());
    QVERIFY(elapsed >= 200ms && elapsed < 1500ms);
    QVERIFY(!session.isOpen());
  }

  void aStopEndsTheWaitForASilentBoard() {
    FakeBoard board;
    board.script.ignoreStarts = 1'000'000;
    SessionOptions options = quickOptions();
    options.startTimeout = 60'000ms;  // a stop must not wait for this
    std::stop_source stop;
    options.stop = stop.get_token();
    Session session(board, options);
    std::thread canceller([&stop] {
      std::this_thread::sleep_for(50ms);
      stop.request_stop();
    });
    const SessionError error = sessionErrorFrom([&] { session.start(); });
    canceller.join();
    QCOMPARE(error.kind(), SessionErrorKind::Cancelled);
    QVERIFY2(std::string(error.what()).find("START") != std::string::npos, error.what());
    QVERIFY(!session.isOpen());
  }

  void sequenceNumbersRunFrom1To255AndSkip0() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    RpcClient rpc(session);
    for (int i = 0; i < 300; ++i) rpc.resetState();
    QCOMPARE(board.requestSequences.size(), std::size_t{300});
    QCOMPARE(board.requestSequences[0], std::uint8_t{1});
    QCOMPARE(board.requestSequences[254], std::uint8_t{255});
    QCOMPARE(board.requestSequences[255], std::uint8_t{1});
    QVERIFY(std::find(board.requestSequences.begin(), board.requestSequences.end(), 0) ==
            board.requestSequences.end());
    QCOMPARE(board.resets, std::size_t{300});
  }

  void staleAndMismatchedResponsesAreDropped() {
    FakeBoard board;
    board.script.staleResponsesFirst = true;
    Session session(board, quickOptions());
    session.start();
    RpcClient rpc(session);
    const RunResult result = rpc.run();
    QCOMPARE(result.ticks, std::uint64_t{12345});
    QCOMPARE(session.statistics().droppedWrongSequence, std::size_t{1});
    QCOMPARE(session.statistics().droppedStale, std::size_t{1});
    QCOMPARE(session.statistics().retries, std::size_t{0});
  }

  void aLostResponseIsRetransmittedWithTheSameSequence() {
    FakeBoard board;
    board.script.ignoreRequests = 2;
    Session session(board, quickOptions());
    session.start();
    RpcClient rpc(session);
    rpc.run();
    QCOMPARE(board.requestSequences, (std::vector<std::uint8_t>{1, 1, 1}));
    QCOMPARE(session.statistics().retries, std::size_t{2});
    QCOMPARE(board.runs, std::size_t{1});
  }

  void aRetransmittedRunIsAnsweredWithoutRunningTwice() {
    FakeBoard board;
    board.script.corruptResponses = 1;  // the board ran, the host never saw the answer
    Session session(board, quickOptions());
    session.start();
    RpcClient rpc(session);
    QCOMPARE(rpc.run().ticks, std::uint64_t{12345});
    QCOMPARE(board.requestSequences, (std::vector<std::uint8_t>{1, 1}));
    QCOMPARE(board.runs, std::size_t{1});
    QCOMPARE(session.statistics().framing.droppedFrames(), std::size_t{1});
  }

  void aNakIsAnsweredAtOnceByARetransmission() {
    FakeBoard board;
    board.script.nakRequests = 2;
    SessionOptions options = quickOptions();
    options.responseTimeout = 5000ms;
    Session session(board, options);
    session.start();
    RpcClient rpc(session);
    const auto begin = std::chrono::steady_clock::now();
    rpc.resetState();
    QVERIFY(std::chrono::steady_clock::now() - begin < 1000ms);  // no time-out waited out
    QCOMPARE(session.statistics().naksReceived, std::size_t{2});
    QCOMPARE(session.statistics().retries, std::size_t{2});
    QCOMPARE(board.requestSequences, (std::vector<std::uint8_t>{1, 1, 1}));
  }

  void aSilentBoardFailsTheRequestAfterEveryAttempt() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    board.script.ignoreRequests = 1000;
    RpcClient rpc(session);
    const SessionError error = sessionErrorFrom([&] { rpc.run(); });
    QCOMPARE(error.kind(), SessionErrorKind::NoResponse);
    QCOMPARE(std::string(error.what()),
             std::string("no response from the board to RUN after 4 attempts of 30 ms"));
    QCOMPARE(board.requestSequences.size(), std::size_t{4});
  }

  void damagedResponsesFailAsCorruptedBeyondRetry() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    board.script.corruptResponses = 1000;
    RpcClient rpc(session);
    const SessionError error = sessionErrorFrom([&] { rpc.modelInfo(); });
    QCOMPARE(error.kind(), SessionErrorKind::CorruptedBeyondRetry);
    QCOMPARE(std::string(error.what()),
             std::string("frames to or from the board were corrupted beyond retry during "
                         "MODEL_INFO: 4 attempts, 0 NAKs from the board, 4 damaged frames "
                         "dropped by the host"));
  }

  void naksUntilRetriesRunOutFailAsCorruptedBeyondRetry() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    board.script.nakRequests = 1000;
    RpcClient rpc(session);
    const SessionError error = sessionErrorFrom([&] { rpc.setInput(0, Bytes(10, 1)); });
    QCOMPARE(error.kind(), SessionErrorKind::CorruptedBeyondRetry);
    QVERIFY2(std::string(error.what())
                     .find("SET_INPUT: 4 attempts, 4 NAKs from the board "
                           "(last: CRC mismatch)") != std::string::npos,
             error.what());
  }

  void randomDamageInBothDirectionsIsRecoveredFrom() {
    FakeBoard board(64);
    FaultInjectionOptions faults;
    faults.seed = 7;
    FaultInjectingTransport link(board, faults);
    SessionOptions options = quickOptions();
    options.retries = 20;
    Session session(link, options);
    session.start();
    FaultPlan toBoard, fromBoard;
    toBoard.dropRate = 0.002;
    toBoard.corruptRate = 0.004;
    fromBoard.dropRate = 0.002;
    fromBoard.corruptRate = 0.004;
    link.setPlans(toBoard, fromBoard);

    RpcClient rpc(session);
    Bytes input(300);
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i * 7);
    for (int round = 0; round < 3; ++round) {
      rpc.setInput(0, input);
      rpc.run();
      const Bytes output = rpc.getOutput(0);
      QCOMPARE(output.size(), std::size_t{700});
      for (std::size_t i = 0; i < output.size(); ++i) {
        QCOMPARE(output[i], static_cast<std::uint8_t>(input[i % input.size()] + 1));
      }
    }
    const InjectedFaults& injected = link.injected();
    QVERIFY(injected.droppedToBoard + injected.corruptedToBoard > 0);
    QVERIFY(injected.droppedFromBoard + injected.corruptedFromBoard > 0);
    QVERIFY(session.statistics().retries > 0);
    QCOMPARE(board.runs, std::size_t{3});  // a retransmitted RUN never ran twice
  }

  void bootMidSessionIsABoardReset() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    board.script.bootOnNextRequest = true;
    RpcClient rpc(session);
    const SessionError error = sessionErrorFrom([&] { rpc.setInput(0, Bytes(4, 9)); });
    QCOMPARE(error.kind(), SessionErrorKind::BoardReset);
    QCOMPARE(std::string(error.what()),
             std::string("the board reset during SET_INPUT (it sent BOOT: 'fake')"));
    QVERIFY(!session.isOpen());
    // A new handshake opens a new session.
    session.start();
    rpc.resetState();
    QCOMPARE(board.resets, std::size_t{1});
    // Numbering goes on, so a board that remembers its last number never
    // mistakes the new request for a retransmission.
    QCOMPARE(board.requestSequences, (std::vector<std::uint8_t>{1, 2}));
  }

  void aClosedLinkMidRequestFailsAtOnce() {
    FakeBoard board;
    SessionOptions options = quickOptions();
    options.runTimeout = 10'000ms;
    Session session(board, options);
    session.start();
    board.script.closeOnNextRequest = true;
    RpcClient rpc(session);
    const auto begin = std::chrono::steady_clock::now();
    const SessionError error = sessionErrorFrom([&] { rpc.run(); });
    QVERIFY(std::chrono::steady_clock::now() - begin < 2000ms);
    QCOMPARE(error.kind(), SessionErrorKind::LinkClosed);
    QCOMPARE(std::string(error.what()),
             std::string("the link to the board closed during RUN: fake board: the board went "
                         "away"));
  }

  void aBoardProcessThatDiesIsLinkClosedWithItsStatusAndStderr() {
    // Reads the first byte of START, complains and exits.
    PipeTransport child({"/bin/sh", "-c",
                         "head -c 1 >/dev/null; echo 'hard fault at 0x0800' >&2; "
                         "exit 7"});
    Session session(child, quickOptions());
    const auto begin = std::chrono::steady_clock::now();
    const SessionError error = sessionErrorFrom([&] { session.start(); });
    QVERIFY(std::chrono::steady_clock::now() - begin < 1500ms);
    QCOMPARE(error.kind(), SessionErrorKind::LinkClosed);
    const std::string message = error.what();
    QVERIFY2(message.starts_with("the link to the board closed during START: /bin/sh (pid "),
             message.c_str());
    QVERIFY2(message.find("exited with status 7") != std::string::npos, message.c_str());
    QVERIFY2(message.find("hard fault at 0x0800") != std::string::npos, message.c_str());
  }

  void logLinesAreKeptOrHandedToTheHandler() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    board.script.logsBeforeResponse = {"arena 4096 bytes", "model ready"};
    RpcClient rpc(session);
    rpc.resetState();
    QCOMPARE(session.logs(), (std::vector<std::string>{"arena 4096 bytes", "model ready"}));
    std::vector<std::string> handled;
    session.setLogHandler([&](std::string_view line) { handled.emplace_back(line); });
    board.script.logsBeforeResponse = {"again"};
    rpc.resetState();
    QCOMPARE(handled, (std::vector<std::string>{"again"}));
    QCOMPARE(session.statistics().logsReceived, std::size_t{3});
  }

  void statisticsCountWireAndPayloadBytes() {
    FakeBoard board;
    Session session(board, quickOptions());
    session.start();
    RpcClient rpc(session);
    rpc.setInput(0, Bytes(100, 0x7E));  // every byte escaped on the wire
    const SessionStatistics& stats = session.statistics();
    QCOMPARE(stats.framesWritten, std::size_t{2});
    QCOMPARE(stats.requests, std::size_t{1});
    // START: 4 + 1; SET_INPUT: 4 + 1 + 1 + 4 + 100.
    QCOMPARE(stats.payloadBytesWritten, std::size_t{5 + 110});
    QVERIFY(stats.wireBytesWritten >= stats.payloadBytesWritten + 2 * 5 + 100);
    QVERIFY(stats.wireBytesRead > stats.payloadBytesRead);
    QCOMPARE(stats.framesRead, std::size_t{3});  // BOOT, STARTED, RESPONSE
  }

  void aWholeSessionRunsOverAUnixSocket() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("board.sock").toStdString();
    const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.data(), path.size());
    QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    QCOMPARE(::listen(listener, 1), 0);
    FakeBoard board(100);
    // The board's side: bytes from the socket into the fake board, its answers back.
    std::thread pump([&] {
      const int peer = ::accept(listener, nullptr, nullptr);
      std::array<std::uint8_t, 1024> buffer;
      for (;;) {
        pollfd entry{peer, POLLIN, 0};
        if (::poll(&entry, 1, 5) > 0) {
          const ssize_t got = ::read(peer, buffer.data(), buffer.size());
          if (got <= 0) break;
          board.write(std::span(buffer).first(static_cast<std::size_t>(got)));
        }
        const std::size_t answer = board.read(buffer, 0ms);
        // A failed write ends the pump; the session then fails the test by time-out.
        if (answer > 0 && ::write(peer, buffer.data(), answer) != static_cast<ssize_t>(answer)) {
          break;
        }
      }
      ::close(peer);
    });
    {
      UnixSocketTransport socket(path, 1000ms);
      Session session(socket, quickOptions());
      session.start();
      RpcClient rpc(session);
      Bytes input(300);
      for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i * 3);
      rpc.setInput(0, input);
      rpc.run();
      const Bytes output = rpc.getOutput(0);
      QCOMPARE(output.size(), std::size_t{700});
      QCOMPARE(output[301], static_cast<std::uint8_t>(input[1] + 1));
      QCOMPARE(session.statistics().retries, std::size_t{0});
    }
    pump.join();
    ::close(listener);
    QCOMPARE(board.runs, std::size_t{1});
  }

  void aRequestLongerThanTheBoardReceivesIsRefused() {
    FakeBoard board(64);
    Session session(board, quickOptions());
    session.start();
    const Bytes body(61, 0x01);
    const SessionError error = sessionErrorFrom([&] { session.request(body, "GET_GLOBAL_FUNC"); });
    QCOMPARE(error.kind(), SessionErrorKind::Protocol);
    QCOMPARE(std::string(error.what()),
             std::string("the GET_GLOBAL_FUNC request of 65 bytes does not fit the board's max "
                         "request of 64 bytes"));
    QVERIFY(board.requestBodies.empty());
  }
};

QTEST_APPLESS_MAIN(SessionTest)
#include "session_test.moc"
