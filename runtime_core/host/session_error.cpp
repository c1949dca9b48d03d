// Names for the session's error kinds and the board's error codes.
#include "session_error.h"

#include <cstdio>

namespace loupe::host {

std::string_view errorKindName(SessionErrorKind kind) {
  switch (kind) {
    case SessionErrorKind::NoResponse:
      return "no response";
    case SessionErrorKind::CorruptedBeyondRetry:
      return "corrupted beyond retry";
    case SessionErrorKind::BoardReset:
      return "board reset";
    case SessionErrorKind::LinkClosed:
      return "link closed";
    case SessionErrorKind::RemoteError:
      return "remote error";
    case SessionErrorKind::Protocol:
      return "protocol error";
    case SessionErrorKind::Cancelled:
      return "cancelled";
  }
  return "unknown";
}

std::string_view crtErrorName(std::int32_t status) {
  // The high byte is the category of error_codes.h, the low byte the code in it.
  switch (status) {
    case 0x0000:
      return "no error";
    case 0x0001:
      return "invalid argument";
    case 0x0002:
      return "runtime not initialized";
    case 0x0003:
      return "check failed";
    case 0x0100:
      return "function name not found";
    case 0x0101:
      return "function index invalid";
    case 0x0102:
      return "function registry full";
    case 0x0103:
      return "function already defined";
    case 0x0104:
      return "function name invalid";
    case 0x0105:
      return "buffer too small";
    case 0x0200:
      return "module table full";
    case 0x0201:
      return "module handle invalid";
    case 0x0300:
      return "function handle invalid";
    case 0x0301:
      return "wrong number of function arguments";
    case 0x0302:
      return "function call failed";
    case 0x0400:
      return "out of memory";
    case 0x0401:
      return "invalid memory size";
    case 0x0402:
      return "invalid free";
    case 0x0403:
      return "memory not initialized";
    case 0x0404:
      return "stack allocator: free out of order";
    case 0x0405:
      return "timer in the wrong state";
    case 0x0406:
      return "timer unavailable";
    case 0x0500:
      return "workspace too small";
    case 0x0501:
      return "workspace missing";
    case 0x0600:
      return "invalid device";
    default:
      return {};
  }
}

std::string describeCrtError(std::int32_t status) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04X", static_cast<std::uint32_t>(status));
  std::string text = std::string("error ") + hex;
  if (const std::string_view name = crtErrorName(status); !name.empty()) {
    text += " (" + std::string(name) + ")";
  }
  return text;
}

}  // namespace loupe::host
