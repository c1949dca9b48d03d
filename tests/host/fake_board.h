// A test double for the board side of docs/session_rpc.md: an in-memory
// Transport that answers START and every RPC opcode from a tiny model (one
// input, one output: output[i] = input[i % input size] + 1), with a script of
// misbehaviours (ignore, NAK, corrupt, reset, close) and a record of what the
// host sent. Single-threaded: a read with nothing to deliver sleeps out its
// time-out, as a silent board would.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frame_codec.h"
#include "transport.h"

namespace loupe::host::testing {

using Bytes = std::vector<std::uint8_t>;

struct FakeBoardScript {
  int ignoreStarts = 0;            // swallow the next N STARTs
  bool staleStartedFirst = false;  // a STARTED for another host nonce before each real one
  int ignoreRequests = 0;          // swallow the next N REQUESTs
  int nakRequests = 0;             // answer the next N REQUESTs with NAK (CRC mismatch)
  int corruptResponses = 0;        // damage the next N RESPONSE frames on the wire
  bool bootOnNextRequest = false;
  bool closeOnNextRequest = false;
  bool staleResponsesFirst = false;  // wrong-sequence and wrong-nonce RESPONSEs first
  std::vector<std::string> logsBeforeResponse;
  std::optional<std::uint8_t> failOpcode;  // answered with failStatus
  std::int32_t failStatus = 1;
  std::optional<std::size_t> truncateResponseTo;  // cut the next RESPONSE body short
};

class FakeBoard : public Transport {
 public:
  explicit FakeBoard(std::uint16_t maxRequest = 256, std::uint32_t tickRate = 1'000'000);

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  void close() override { closed_ = true; }
  std::string describe() const override { return "fake board"; }

  FakeBoardScript script;
  // What the host sent, in order (retransmissions included).
  std::vector<std::uint8_t> startNonces;
  std::vector<Bytes> requestBodies;
  std::vector<std::uint8_t> requestSequences;
  std::vector<std::size_t> requestPayloadSizes;
  std::size_t naksSent = 0;
  std::size_t runs = 0;
  std::size_t resets = 0;
  std::size_t framingDrops = 0;

  // The model and the device memory.
  Bytes input = Bytes(300);
  Bytes output = Bytes(700);
  std::vector<std::pair<std::uint32_t, std::uint64_t>> profile;
  std::map<std::uint64_t, Bytes> memory;
  std::uint8_t boardNonce() const { return boardNonce_; }

 private:
  void handle(const Bytes& payload);
  Bytes execute(const Bytes& body);
  void send(std::uint8_t type, std::uint8_t hostNonce, std::uint8_t boardNonce,
            std::uint8_t sequence, const Bytes& body, bool corrupt = false);

  std::uint16_t maxRequest_;
  std::uint32_t tickRate_;
  FrameDecoder decoder_;
  Bytes outgoing_;
  bool closed_ = false;
  bool session_ = false;
  std::uint8_t hostNonce_ = 0;
  std::uint8_t boardNonce_ = 0;
  std::uint8_t lastSequence_ = 0;
  Bytes lastResponse_;
  std::uint64_t nextHandle_ = 0x20000000;
};

}  // namespace loupe::host::testing
