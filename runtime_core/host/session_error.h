// The one exception the session and the RPC client throw
// (docs/session_rpc.md): a kind a caller can switch on (retry the run, ask the
// user to replug the board, show the board's own error) and a message a person
// can read as it is.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace loupe::host {

enum class SessionErrorKind {
  NoResponse,            // nothing usable came back after every attempt
  CorruptedBeyondRetry,  // frames kept arriving damaged (or NAKed) until retries ran out
  BoardReset,            // the board sent BOOT (or said it has no session) mid-session
  LinkClosed,            // the transport is gone; the message says what the peer said
  RemoteError,           // the board answered with a non-zero tvm_crt_error_t
  Protocol,              // the board sent something the protocol does not allow
  Cancelled,             // the host stopped waiting (SessionOptions::stop)
};

std::string_view errorKindName(SessionErrorKind kind);

class SessionError : public std::runtime_error {
 public:
  SessionError(SessionErrorKind kind, const std::string& message, std::int32_t remoteStatus = 0)
      : std::runtime_error(message), kind_(kind), remoteStatus_(remoteStatus) {}

  SessionErrorKind kind() const { return kind_; }
  // The board's tvm_crt_error_t for RemoteError, 0 otherwise.
  std::int32_t remoteStatus() const { return remoteStatus_; }

 private:
  SessionErrorKind kind_;
  std::int32_t remoteStatus_;
};

// "invalid argument" for 0x0001, ... for the codes of the board's
// tvm/runtime/crt/error_codes.h (copied here as numbers; the host does not
// include the board's headers); empty for codes it does not know.
std::string_view crtErrorName(std::int32_t status);

// "error 0x0001 (invalid argument)", or "error 0x0705" for unknown codes.
std::string describeCrtError(std::int32_t status);

}  // namespace loupe::host
