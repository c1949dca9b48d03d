// The host side of the session layer (docs/session_rpc.md): the START /
// STARTED handshake with nonces, numbered requests with retransmission on
// time-out or NAK, dropping stale and mismatched messages, the board's LOG
// lines, and BOOT mid-session as a board reset. Frames go through
// frame_codec.h over any Transport. Not thread-safe: one caller at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "frame_codec.h"
#include "session_error.h"
#include "transport.h"

namespace loupe::host {

inline constexpr std::uint8_t kSessionProtocolVersion = 1;
inline constexpr std::size_t kSessionHeaderBytes = 4;

enum class SessionMessageType : std::uint8_t {
  Boot = 0x01,
  Start = 0x02,
  Started = 0x03,
  Request = 0x04,
  Response = 0x05,
  Log = 0x06,
  Nak = 0x07,
  Tensor = 0x08,  // a debug build's tensor chunk during RUN (debug_tensor_stream.h)
};

// NAK reasons: the board's framing events, then the session's own.
enum class NakReason : std::uint8_t {
  CrcMismatch = 0x02,
  TooLong = 0x03,
  BadEscape = 0x04,
  Truncated = 0x05,
  MalformedMessage = 0x10,
  NoSession = 0x11,
};
std::string describeNakReason(std::uint8_t reason);

struct SessionOptions {
  std::chrono::milliseconds startTimeout{10'000};
  std::chrono::milliseconds startRetryInterval{250};
  std::chrono::milliseconds responseTimeout{2'000};  // per attempt
  std::chrono::milliseconds runTimeout{60'000};      // per attempt of RUN (see RpcClient)
  int retries = 3;                                   // after the first attempt
  // Longest payload the host accepts from the board.
  std::size_t maxResponsePayload = kFrameMaxPayload;
  // Seeds the host nonces; 0 seeds from std::random_device.
  std::uint64_t nonceSeed = 0;
  // A stop requested here ends any wait for the board within
  // kStopPollInterval with a SessionError Cancelled.
  std::stop_token stop{};
};

inline constexpr std::chrono::milliseconds kStopPollInterval{100};

// What STARTED said about the board.
struct BoardInfo {
  std::uint8_t version = 0;
  std::uint16_t maxRequest = 0;  // longest frame payload the board receives
  std::uint32_t tickRate = 0;    // profiler ticks per second, 0: no profiler
  std::string name;
  std::uint8_t hostNonce = 0;
  std::uint8_t boardNonce = 0;
};

// Counters for the benchmark's framing overhead and for diagnostics.
struct SessionStatistics {
  std::size_t wireBytesWritten = 0;  // framed, escaped bytes to the board
  std::size_t wireBytesRead = 0;     // every byte from the board, garbage included
  std::size_t payloadBytesWritten = 0;
  std::size_t payloadBytesRead = 0;  // payloads of frames that passed the CRC
  std::size_t framesWritten = 0;
  std::size_t framesRead = 0;
  std::size_t startsSent = 0;
  std::size_t requests = 0;  // distinct requests (not counting retransmissions)
  std::size_t retries = 0;   // retransmissions after a time-out or NAK
  std::size_t naksReceived = 0;
  std::size_t logsReceived = 0;
  std::size_t tensorChunksReceived = 0;
  // Whole frames dropped after decoding, by reason.
  std::size_t droppedStale = 0;          // other nonces (an earlier session)
  std::size_t droppedWrongSequence = 0;  // RESPONSE to a request no longer outstanding
  std::size_t droppedMalformed = 0;      // shorter than the header, unknown or unexpected type
  FrameDecoderErrors framing;            // frames the decoder dropped, garbage skipped
};

class Session {
 public:
  using LogHandler = std::function<void(std::string_view)>;
  // A TENSOR message's body, as it arrives while its request is answered.
  using TensorHandler = std::function<void(std::span<const std::uint8_t> body)>;

  explicit Session(Transport& transport, SessionOptions options = {});

  // Handshakes (again, if a session was open) and returns what the board said.
  const BoardInfo& start();

  // Sends one REQUEST body and returns the RESPONSE body, retransmitting the
  // same sequence number after a time-out (timeout per attempt) or a NAK.
  // `what` names the request in error messages ("RUN"). Throws SessionError.
  std::vector<std::uint8_t> request(std::span<const std::uint8_t> body, std::string_view what,
                                    std::chrono::milliseconds timeout);
  std::vector<std::uint8_t> request(std::span<const std::uint8_t> body, std::string_view what) {
    return request(body, what, options_.responseTimeout);
  }

  bool isOpen() const { return open_; }
  const BoardInfo& boardInfo() const { return board_; }
  const SessionOptions& options() const { return options_; }
  const SessionStatistics& statistics() const;
  Transport& transport() { return transport_; }

  // LOG lines arrive in order; they are kept (logs()) unless a handler is set.
  void setLogHandler(LogHandler handler) { logHandler_ = std::move(handler); }
  const std::vector<std::string>& logs() const { return logs_; }
  // TENSOR messages of the request under way go to the handler; each one
  // restarts that attempt's time-out, so a long stream of tensors over a
  // slow link is not mistaken for a board that stopped answering. Without
  // a handler they are dropped.
  void setTensorHandler(TensorHandler handler) { tensorHandler_ = std::move(handler); }

 private:
  struct Header {
    SessionMessageType type;
    std::uint8_t hostNonce;
    std::uint8_t boardNonce;
    std::uint8_t sequence;
  };

  void send(SessionMessageType type, std::uint8_t sequence, std::span<const std::uint8_t> body,
            std::string_view what);
  // Reads until a payload is available or the deadline passes; false on time-out.
  bool nextPayload(std::vector<std::uint8_t>& payload,
                   std::chrono::steady_clock::time_point deadline, std::string_view what);
  bool isCurrentSession(const Header& header) const;
  bool isCurrentOrNone(const Header& header) const;
  void takeLog(std::span<const std::uint8_t> text);
  std::uint8_t freshNonce();
  [[noreturn]] void linkClosed(const TransportClosed& closed, std::string_view what);

  Transport& transport_;
  SessionOptions options_;
  FrameDecoder decoder_;
  std::mt19937 random_;
  BoardInfo board_;
  bool open_ = false;
  std::uint8_t lastHostNonce_ = 0;
  std::uint8_t lastSequence_ = 0;
  LogHandler logHandler_;
  TensorHandler tensorHandler_;
  std::vector<std::string> logs_;
  mutable SessionStatistics statistics_;
};

}  // namespace loupe::host
