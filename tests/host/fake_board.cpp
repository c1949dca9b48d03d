// The fake board: see fake_board.h. Little-endian fields are read and written
// by hand here rather than with the host's wire_bytes.h, so an encoding slip
// in the host does not cancel out.
#include "fake_board.h"

#include <algorithm>
#include <thread>

namespace loupe::host::testing {
namespace {

constexpr std::uint8_t kBoot = 1, kStart = 2, kStarted = 3, kRequest = 4, kResponse = 5, kLog = 6,
                       kNak = 7;

std::uint64_t getLe(const Bytes& bytes, std::size_t& at, int count, bool& ok) {
  if (at + count > bytes.size()) {
    ok = false;
    return 0;
  }
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) value |= std::uint64_t{bytes[at + i]} << (8 * i);
  at += count;
  return value;
}

void putLe(Bytes& bytes, std::uint64_t value, int count) {
  for (int i = 0; i < count; ++i) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

}  // namespace

FakeBoard::FakeBoard(std::uint16_t maxRequest, std::uint32_t tickRate)
    : maxRequest_(maxRequest), tickRate_(tickRate), decoder_(maxRequest) {
  for (std::uint32_t op = 0; op < 7; ++op) profile.emplace_back(op + 1, 1000 * (op + 1));
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i);
  // A board says BOOT once when it starts; before START the host ignores it.
  Bytes boot{1};
  boot.insert(boot.end(), {'f', 'a', 'k', 'e'});
  send(kBoot, 0, 0, 0, boot);
}

void FakeBoard::send(std::uint8_t type, std::uint8_t hostNonce, std::uint8_t boardNonce,
                     std::uint8_t sequence, const Bytes& body, bool corrupt) {
  Bytes payload{type, hostNonce, boardNonce, sequence};
  payload.insert(payload.end(), body.begin(), body.end());
  Bytes frame = encodeFrame(payload);
  if (corrupt) {
    // Flip a bit of the last byte (CRC or an escaped CRC byte) without making
    // a start marker or escape: a CRC mismatch or a bad escape either way.
    std::uint8_t& last = frame.back();
    const std::uint8_t flipped = last ^ 0x01;
    last = (flipped == 0x7E || flipped == 0x7D) ? last ^ 0x04 : flipped;
  }
  outgoing_.insert(outgoing_.end(), frame.begin(), frame.end());
}

void FakeBoard::write(std::span<const std::uint8_t> bytes) {
  if (closed_) throw TransportClosed("fake board: the link is closed");
  for (std::uint8_t byte : bytes) {
    const std::size_t before = decoder_.errors().droppedFrames();
    decoder_.feed(byte);
    if (decoder_.errors().droppedFrames() != before) {
      ++framingDrops;
      ++naksSent;
      send(kNak, 0, 0, 0, {0x02});
    }
    while (decoder_.hasPayload()) handle(decoder_.takePayload());
  }
}

std::size_t FakeBoard::read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) {
  if (closed_) throw TransportClosed("fake board: the board went away");
  if (outgoing_.empty()) {
    std::this_thread::sleep_for(timeout);
    if (closed_) throw TransportClosed("fake board: the board went away");
    return 0;
  }
  const std::size_t count = std::min(buffer.size(), outgoing_.size());
  std::copy_n(outgoing_.begin(), count, buffer.begin());
  outgoing_.erase(outgoing_.begin(), outgoing_.begin() + count);
  return count;
}

void FakeBoard::handle(const Bytes& payload) {
  if (payload.size() < 4) {
    send(kNak, 0, 0, 0, {0x10});
    return;
  }
  const std::uint8_t type = payload[0];
  if (type == kStart) {
    startNonces.push_back(payload[1]);
    if (script.ignoreStarts > 0) {
      --script.ignoreStarts;
      return;
    }
    hostNonce_ = payload[1];
    boardNonce_ = static_cast<std::uint8_t>(boardNonce_ % 255 + 1);
    session_ = true;
    lastSequence_ = 0;
    Bytes body{1};
    putLe(body, maxRequest_, 2);
    putLe(body, tickRate_, 4);
    body.insert(body.end(), {'f', 'a', 'k', 'e'});
    if (script.staleStartedFirst) {
      send(kStarted, static_cast<std::uint8_t>(hostNonce_ % 255 + 1), 77, 0, body);
    }
    send(kStarted, hostNonce_, boardNonce_, 0, body);
    return;
  }
  if (type != kRequest) {
    send(kNak, 0, 0, 0, {0x10});
    return;
  }
  if (!session_) {
    send(kNak, 0, 0, 0, {0x11});
    return;
  }
  if (payload[1] != hostNonce_ || payload[2] != boardNonce_) return;  // stale
  const std::uint8_t sequence = payload[3];
  const Bytes body(payload.begin() + 4, payload.end());
  requestBodies.push_back(body);
  requestSequences.push_back(sequence);
  requestPayloadSizes.push_back(payload.size());
  if (script.ignoreRequests > 0) {
    --script.ignoreRequests;
    return;
  }
  if (script.closeOnNextRequest) {
    closed_ = true;
    return;
  }
  if (script.bootOnNextRequest) {
    script.bootOnNextRequest = false;
    session_ = false;
    send(kBoot, 0, 0, 0, {1, 'f', 'a', 'k', 'e'});
    return;
  }
  if (script.nakRequests > 0) {
    --script.nakRequests;
    ++naksSent;
    send(kNak, hostNonce_, boardNonce_, 0, {0x02});
    return;
  }
  for (const std::string& line : script.logsBeforeResponse) {
    send(kLog, hostNonce_, boardNonce_, 0, Bytes(line.begin(), line.end()));
  }
  script.logsBeforeResponse.clear();
  const std::uint8_t opcode = body.empty() ? 0 : body[0];
  const bool sideEffects =
      opcode == 0x02 || opcode == 0x03 || opcode == 0x04 || opcode == 0x12 || opcode == 0x15;
  Bytes response;
  if (sequence == lastSequence_ && sideEffects && !lastResponse_.empty()) {
    response = lastResponse_;  // a retransmission: the same answer, no second run
  } else {
    response = execute(body);
  }
  if (script.truncateResponseTo) {
    response.resize(std::min(response.size(), *script.truncateResponseTo));
    script.truncateResponseTo.reset();
  }
  lastSequence_ = sequence;
  lastResponse_ = response;
  if (script.staleResponsesFirst) {
    script.staleResponsesFirst = false;
    send(kResponse, hostNonce_, boardNonce_, static_cast<std::uint8_t>(sequence + 1), response);
    send(kResponse, static_cast<std::uint8_t>(hostNonce_ + 1), boardNonce_, sequence, response);
  }
  const bool corrupt = script.corruptResponses > 0;
  if (corrupt) --script.corruptResponses;
  send(kResponse, hostNonce_, boardNonce_, sequence, response, corrupt);
}

Bytes FakeBoard::execute(const Bytes& body) {
  const std::uint8_t opcode = body.empty() ? 0 : body[0];
  Bytes results;
  std::int32_t status = 0;
  bool ok = true;
  std::size_t at = 1;
  const std::size_t readLimit = maxRequest_ - 16u;
  auto fail = [&](std::int32_t code) { status = code; };

  if (script.failOpcode && *script.failOpcode == opcode) {
    fail(script.failStatus);
  } else {
    switch (opcode) {
      case 0x01: {  // GET_GLOBAL_FUNC
        const std::string name(body.begin() + 1, body.end());
        if (name == "add_one") {
          putLe(results, 0x1000, 8);
        } else {
          fail(0x0100);
        }
        break;
      }
      case 0x02: {  // CALL_FUNC: parses every argument, returns their count
        getLe(body, at, 8, ok);
        const auto count = getLe(body, at, 1, ok);
        for (std::uint64_t i = 0; ok && i < count; ++i) {
          const auto code = getLe(body, at, 1, ok);
          if (code == 0 || code == 2 || code == 3) {
            getLe(body, at, 8, ok);
          } else if (code == 7) {
            getLe(body, at, 8, ok);
            const auto ndim = getLe(body, at, 1, ok);
            getLe(body, at, 4, ok);
            at += 8 * ndim;
          } else if (code != 4) {
            ok = false;
          }
        }
        if (!ok || at != body.size()) {
          fail(0x0001);
        } else {
          results.push_back(0);
          putLe(results, count, 8);
        }
        break;
      }
      case 0x03: {  // ALLOC
        const auto bytes = getLe(body, at, 4, ok);
        const std::uint64_t handle = nextHandle_;
        nextHandle_ += 0x100;
        memory[handle] = Bytes(bytes);
        putLe(results, handle, 8);
        break;
      }
      case 0x04: {  // FREE
        if (memory.erase(getLe(body, at, 8, ok)) == 0) fail(0x0402);
        break;
      }
      case 0x05: {  // COPY_TO_DEVICE
        const auto handle = getLe(body, at, 8, ok);
        const auto offset = getLe(body, at, 4, ok);
        const auto found = memory.find(handle);
        const std::size_t length = body.size() - std::min(at, body.size());
        if (!ok || found == memory.end() || offset + length > found->second.size()) {
          fail(0x0001);
        } else {
          std::copy(body.begin() + at, body.end(), found->second.begin() + offset);
        }
        break;
      }
      case 0x06: {  // COPY_FROM_DEVICE
        const auto handle = getLe(body, at, 8, ok);
        const auto offset = getLe(body, at, 4, ok);
        const auto length = getLe(body, at, 4, ok);
        const auto found = memory.find(handle);
        if (!ok || found == memory.end() || offset + length > found->second.size() ||
            length > readLimit) {
          fail(0x0001);
        } else {
          results.insert(results.end(), found->second.begin() + offset,
                         found->second.begin() + offset + length);
        }
        break;
      }
      case 0x10: {  // MODEL_INFO
        results.push_back(4);
        results.insert(results.end(), {'t', 'i', 'n', 'y'});
        results.push_back(1);
        results.push_back(1);
        putLe(results, input.size(), 4);
        putLe(results, output.size(), 4);
        putLe(results, profile.size(), 4);
        putLe(results, 1024, 4);
        putLe(results, 16, 4);
        break;
      }
      case 0x11: {  // SET_INPUT
        const auto index = getLe(body, at, 1, ok);
        const auto offset = getLe(body, at, 4, ok);
        const std::size_t length = body.size() - std::min(at, body.size());
        if (!ok || index != 0 || offset + length > input.size()) {
          fail(0x0001);
        } else {
          std::copy(body.begin() + at, body.end(), input.begin() + offset);
        }
        break;
      }
      case 0x12: {  // RUN
        ++runs;
        for (std::size_t i = 0; i < output.size(); ++i) {
          output[i] = static_cast<std::uint8_t>(input[i % input.size()] + 1);
        }
        putLe(results, 0, 4);
        putLe(results, 12345, 8);
        break;
      }
      case 0x13: {  // GET_OUTPUT
        const auto index = getLe(body, at, 1, ok);
        const auto offset = getLe(body, at, 4, ok);
        const auto length = getLe(body, at, 4, ok);
        if (!ok || index != 0 || offset + length > output.size() || length > readLimit) {
          fail(0x0001);
        } else {
          results.insert(results.end(), output.begin() + offset, output.begin() + offset + length);
        }
        break;
      }
      case 0x14: {  // GET_PROFILE
        const auto first = getLe(body, at, 4, ok);
        const auto count = getLe(body, at, 4, ok);
        const std::uint64_t returned =
            first >= profile.size() ? 0 : std::min<std::uint64_t>(count, profile.size() - first);
        putLe(results, profile.size(), 4);
        putLe(results, returned, 4);
        for (std::uint64_t i = 0; i < returned; ++i) {
          putLe(results, profile[first + i].first, 4);
          putLe(results, profile[first + i].second, 8);
        }
        break;
      }
      case 0x15:  // RESET_STATE
        ++resets;
        break;
      default:
        fail(0x0003);
        break;
    }
  }
  Bytes response{opcode};
  putLe(response, static_cast<std::uint32_t>(status), 4);
  if (status == 0) response.insert(response.end(), results.begin(), results.end());
  return response;
}

}  // namespace loupe::host::testing
