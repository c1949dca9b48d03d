// The host session: see session.h and docs/session_rpc.md.
#include "session.h"

#include <algorithm>
#include <array>

#include "wire_bytes.h"

namespace loupe::host {
namespace {

using Clock = std::chrono::steady_clock;

// The smallest max request the RPC client can work with: a COPY_TO_DEVICE
// header (4 + 1 + 8 + 4 bytes) and one byte of data.
constexpr std::uint16_t kSmallestUsableMaxRequest = 18;

std::chrono::milliseconds remainingUntil(Clock::time_point deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  return std::max(left, std::chrono::milliseconds{1});
}

// Appended piecewise: GCC 12's -O3 -Wrestrict misfires on "'" + std::string.
std::string quoted(std::string_view text) {
  std::string result;
  result.reserve(text.size() + 2);
  result += '\'';
  result.append(text);
  result += '\'';
  return result;
}

}  // namespace

std::string describeNakReason(std::uint8_t reason) {
  switch (static_cast<NakReason>(reason)) {
    case NakReason::CrcMismatch:
      return "CRC mismatch";
    case NakReason::TooLong:
      return "frame too long";
    case NakReason::BadEscape:
      return "bad escape";
    case NakReason::Truncated:
      return "truncated frame";
    case NakReason::MalformedMessage:
      return "malformed message";
    case NakReason::NoSession:
      return "no session";
  }
  return "reason " + std::to_string(reason);
}

Session::Session(Transport& transport, SessionOptions options)
    : transport_(transport),
      options_(options),
      decoder_(options.maxResponsePayload),
      random_(static_cast<std::mt19937::result_type>(
          options.nonceSeed != 0 ? options.nonceSeed : std::random_device{}())) {}

const SessionStatistics& Session::statistics() const {
  statistics_.framing = decoder_.errors();
  return statistics_;
}

std::uint8_t Session::freshNonce() {
  std::uniform_int_distribution<int> pick(1, 255);
  std::uint8_t nonce;
  do {
    nonce = static_cast<std::uint8_t>(pick(random_));
  } while (nonce == lastHostNonce_);
  lastHostNonce_ = nonce;
  return nonce;
}

void Session::send(SessionMessageType type, std::uint8_t sequence,
                   std::span<const std::uint8_t> body, std::string_view what) {
  const bool handshake = type == SessionMessageType::Start;
  std::vector<std::uint8_t> payload{static_cast<std::uint8_t>(type),
                                    handshake ? lastHostNonce_ : board_.hostNonce,
                                    handshake ? std::uint8_t{0} : board_.boardNonce, sequence};
  payload.insert(payload.end(), body.begin(), body.end());
  const std::vector<std::uint8_t> frame = encodeFrame(payload);
  try {
    transport_.write(frame);
  } catch (const TransportClosed& closed) {
    linkClosed(closed, what);
  }
  statistics_.wireBytesWritten += frame.size();
  statistics_.payloadBytesWritten += payload.size();
  ++statistics_.framesWritten;
}

bool Session::nextPayload(std::vector<std::uint8_t>& payload, Clock::time_point deadline,
                          std::string_view what) {
  std::array<std::uint8_t, 4096> buffer;
  for (;;) {
    if (decoder_.hasPayload()) {
      payload = decoder_.takePayload();
      ++statistics_.framesRead;
      statistics_.payloadBytesRead += payload.size();
      return true;
    }
    if (Clock::now() >= deadline) return false;
    if (options_.stop.stop_requested()) {
      throw SessionError(SessionErrorKind::Cancelled,
                         "stopped waiting for the board's answer to " + std::string(what));
    }
    std::size_t count = 0;
    try {
      count = transport_.read(buffer, std::min(remainingUntil(deadline), kStopPollInterval));
    } catch (const TransportClosed& closed) {
      linkClosed(closed, what);
    }
    count = std::min(count, buffer.size());
    statistics_.wireBytesRead += count;
    decoder_.feed(std::span(buffer).first(count));
  }
}

void Session::linkClosed(const TransportClosed& closed, std::string_view what) {
  open_ = false;
  throw SessionError(SessionErrorKind::LinkClosed, "the link to the board closed during " +
                                                       std::string(what) + ": " + closed.what());
}

bool Session::isCurrentSession(const Header& header) const {
  return open_ && header.hostNonce == board_.hostNonce && header.boardNonce == board_.boardNonce;
}

bool Session::isCurrentOrNone(const Header& header) const {
  return isCurrentSession(header) || (header.hostNonce == 0 && header.boardNonce == 0);
}

void Session::takeLog(std::span<const std::uint8_t> text) {
  ++statistics_.logsReceived;
  std::string line(text.begin(), text.end());
  if (logHandler_) {
    logHandler_(line);
  } else {
    logs_.push_back(std::move(line));
  }
}

const BoardInfo& Session::start() {
  open_ = false;
  const Clock::time_point deadline = Clock::now() + options_.startTimeout;
  const std::size_t bytesBefore = statistics_.wireBytesRead;
  std::size_t attempts = 0;
  std::size_t boots = 0;
  std::vector<std::uint8_t> payload;
  const std::array<std::uint8_t, 1> startBody{kSessionProtocolVersion};
  while (Clock::now() < deadline) {
    const std::uint8_t nonce = freshNonce();
    send(SessionMessageType::Start, 0, startBody, "START");
    ++attempts;
    ++statistics_.startsSent;
    const Clock::time_point resendAt =
        std::min(Clock::now() + options_.startRetryInterval, deadline);
    while (nextPayload(payload, resendAt, "START")) {
      if (payload.size() < kSessionHeaderBytes) {
        ++statistics_.droppedMalformed;
        continue;
      }
      const Header header{static_cast<SessionMessageType>(payload[0]), payload[1], payload[2],
                          payload[3]};
      const auto body = std::span(payload).subspan(kSessionHeaderBytes);
      switch (header.type) {
        case SessionMessageType::Started: {
          if (header.hostNonce != nonce) {
            ++statistics_.droppedStale;
            break;
          }
          WireReader reader(body, "STARTED");
          BoardInfo info;
          info.version = reader.u8();
          if (info.version != kSessionProtocolVersion) {
            throw SessionError(SessionErrorKind::Protocol,
                               "the board speaks session protocol version " +
                                   std::to_string(info.version) + ", the host version " +
                                   std::to_string(kSessionProtocolVersion));
          }
          info.maxRequest = reader.u16();
          info.tickRate = reader.u32();
          info.name = reader.text(reader.remaining());
          if (header.boardNonce == 0) {
            throw SessionError(SessionErrorKind::Protocol, "the board's STARTED has board nonce 0");
          }
          if (info.maxRequest < kSmallestUsableMaxRequest) {
            throw SessionError(SessionErrorKind::Protocol,
                               "the board's max request of " + std::to_string(info.maxRequest) +
                                   " bytes is too small (at least " +
                                   std::to_string(kSmallestUsableMaxRequest) + " needed)");
          }
          info.hostNonce = nonce;
          info.boardNonce = header.boardNonce;
          // Sequence numbers go on from the last session's: a board that
          // still remembers its last one never takes a new request for a
          // retransmission.
          board_ = std::move(info);
          open_ = true;
          return board_;
        }
        case SessionMessageType::Boot:
          ++boots;  // before a session, BOOT only says the board is there
          break;
        case SessionMessageType::Log:
          if (header.hostNonce == 0 && header.boardNonce == 0) {
            takeLog(body);
          } else {
            ++statistics_.droppedStale;
          }
          break;
        case SessionMessageType::Nak:
          ++statistics_.naksReceived;
          break;
        case SessionMessageType::Response:
          ++statistics_.droppedStale;
          break;
        default:
          ++statistics_.droppedMalformed;
          break;
      }
    }
  }
  const std::size_t heard = statistics_.wireBytesRead - bytesBefore;
  std::string message = "no answer from the board to START within " +
                        std::to_string(options_.startTimeout.count()) + " ms (" +
                        std::to_string(attempts) + " attempts) over " + transport_.describe();
  if (heard == 0) {
    message += "; nothing at all came back";
  } else {
    message += "; it sent " + std::to_string(heard) + " bytes but no STARTED for this host";
    if (boots > 0) message += " (it did send BOOT)";
  }
  throw SessionError(SessionErrorKind::NoResponse, message);
}

std::vector<std::uint8_t> Session::request(std::span<const std::uint8_t> body,
                                           std::string_view what,
                                           std::chrono::milliseconds timeout) {
  const std::string name(what);
  if (!open_) {
    throw SessionError(SessionErrorKind::Protocol,
                       "cannot send " + name + ": no session with the board is open");
  }
  if (kSessionHeaderBytes + body.size() > board_.maxRequest) {
    throw SessionError(SessionErrorKind::Protocol,
                       "the " + name + " request of " +
                           std::to_string(kSessionHeaderBytes + body.size()) +
                           " bytes does not fit the board's max request of " +
                           std::to_string(board_.maxRequest) + " bytes");
  }
  lastSequence_ = static_cast<std::uint8_t>(lastSequence_ % 255 + 1);
  const std::uint8_t sequence = lastSequence_;
  ++statistics_.requests;

  const std::size_t damagedBefore =
      decoder_.errors().droppedFrames() + statistics_.droppedMalformed;
  std::size_t naks = 0;
  std::string lastNak;
  std::vector<std::uint8_t> payload;
  for (int attempt = 1;; ++attempt) {
    send(SessionMessageType::Request, sequence, body, what);
    Clock::time_point deadline = Clock::now() + timeout;
    bool naked = false;
    while (!naked && nextPayload(payload, deadline, what)) {
      if (payload.size() < kSessionHeaderBytes) {
        ++statistics_.droppedMalformed;
        continue;
      }
      const Header header{static_cast<SessionMessageType>(payload[0]), payload[1], payload[2],
                          payload[3]};
      switch (header.type) {
        case SessionMessageType::Boot: {
          open_ = false;
          const auto boot = std::span(payload).subspan(kSessionHeaderBytes);
          std::string detail;
          if (boot.size() > 1) detail = ": " + quoted(std::string(boot.begin() + 1, boot.end()));
          throw SessionError(SessionErrorKind::BoardReset,
                             "the board reset during " + name + " (it sent BOOT" + detail + ")");
        }
        case SessionMessageType::Response:
          if (!isCurrentSession(header)) {
            ++statistics_.droppedStale;
          } else if (header.sequence != sequence) {
            ++statistics_.droppedWrongSequence;
          } else {
            payload.erase(payload.begin(), payload.begin() + kSessionHeaderBytes);
            return payload;
          }
          break;
        case SessionMessageType::Log:
          if (isCurrentOrNone(header)) {
            takeLog(std::span(payload).subspan(kSessionHeaderBytes));
          } else {
            ++statistics_.droppedStale;
          }
          break;
        case SessionMessageType::Tensor:
          if (!isCurrentSession(header) || header.sequence != sequence) {
            ++statistics_.droppedStale;
          } else {
            ++statistics_.tensorChunksReceived;
            deadline = Clock::now() + timeout;
            if (tensorHandler_) tensorHandler_(std::span(payload).subspan(kSessionHeaderBytes));
          }
          break;
        case SessionMessageType::Nak: {
          if (!isCurrentOrNone(header)) {
            ++statistics_.droppedStale;
            break;
          }
          ++statistics_.naksReceived;
          const std::uint8_t reason = payload.size() > kSessionHeaderBytes ? payload[4] : 0;
          if (reason == static_cast<std::uint8_t>(NakReason::NoSession)) {
            open_ = false;
            throw SessionError(SessionErrorKind::BoardReset,
                               "the board has no session (it answered " + name +
                                   " with NAK 'no session'); it probably reset");
          }
          ++naks;
          lastNak = describeNakReason(reason);
          // A truncated frame is the one before the frame whose start
          // marker cut it short: usually an earlier attempt of this request
          // that lost a byte, cut by our own retransmission. The frame now
          // on the wire is whole, so wait for its answer; if it too was
          // damaged, another NAK or the time-out says so.
          if (reason != static_cast<std::uint8_t>(NakReason::Truncated)) naked = true;
          break;
        }
        case SessionMessageType::Started:
          ++statistics_.droppedStale;
          break;
        default:
          ++statistics_.droppedMalformed;
          break;
      }
    }
    if (attempt > options_.retries) {
      const std::size_t damaged =
          decoder_.errors().droppedFrames() + statistics_.droppedMalformed - damagedBefore;
      const std::string attempts = std::to_string(attempt) + " attempts";
      if (naks + damaged > 0) {
        std::string message = "frames to or from the board were corrupted beyond retry during " +
                              name + ": " + attempts + ", ";
        message += std::to_string(naks) + " NAKs from the board";
        if (naks > 0) message += " (last: " + lastNak + ")";
        message += ", " + std::to_string(damaged) + " damaged frames dropped by the host";
        throw SessionError(SessionErrorKind::CorruptedBeyondRetry, message);
      }
      throw SessionError(SessionErrorKind::NoResponse, "no response from the board to " + name +
                                                           " after " + attempts + " of " +
                                                           std::to_string(timeout.count()) + " ms");
    }
    ++statistics_.retries;
  }
}

}  // namespace loupe::host
