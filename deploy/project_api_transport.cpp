#include "deploy/project_api_transport.h"

#include <algorithm>
#include <stdexcept>

namespace loupe::deploy {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
// The server's own time-out plus this is how long a call may take.
constexpr auto kCallMargin = std::chrono::seconds(10);
constexpr std::size_t kMaxReadBytes = 4096;

int base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64Encode(std::span<const std::uint8_t> bytes) {
  std::string text;
  text.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t chunk = (std::uint32_t{bytes[i]} << 16) |
                                (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                                (i + 2 < bytes.size() ? std::uint32_t{bytes[i + 2]} : 0);
    text += kAlphabet[(chunk >> 18) & 63];
    text += kAlphabet[(chunk >> 12) & 63];
    text += i + 1 < bytes.size() ? kAlphabet[(chunk >> 6) & 63] : '=';
    text += i + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=';
  }
  return text;
}

std::vector<std::uint8_t> base64Decode(const std::string& text) {
  if (text.size() % 4 != 0)
    throw std::invalid_argument("base64 text of a length not a multiple of 4");
  std::vector<std::uint8_t> bytes;
  bytes.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    int values[4];
    int padding = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = text[i + j];
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        values[j] = 0;
        ++padding;
        continue;
      }
      if (padding > 0 || (values[j] = base64Value(c)) < 0) {
        throw std::invalid_argument("not base64 at character " + std::to_string(i + j));
      }
    }
    const std::uint32_t chunk = (std::uint32_t(values[0]) << 18) |
                                (std::uint32_t(values[1]) << 12) | (std::uint32_t(values[2]) << 6) |
                                std::uint32_t(values[3]);
    bytes.push_back(static_cast<std::uint8_t>(chunk >> 16));
    if (padding < 2) bytes.push_back(static_cast<std::uint8_t>(chunk >> 8));
    if (padding < 1) bytes.push_back(static_cast<std::uint8_t>(chunk));
  }
  return bytes;
}

ProjectApiTransport::ProjectApiTransport(std::unique_ptr<ProjectApiClient> server)
    : server_(std::move(server)) {}

ProjectApiTransport::~ProjectApiTransport() {
  close();
}

void ProjectApiTransport::write(std::span<const std::uint8_t> bytes) {
  if (!server_) throw host::TransportClosed("the Project API link is closed");
  constexpr auto timeout = std::chrono::seconds(5);
  try {
    server_->call("write_transport", {{"data", base64Encode(bytes)}, {"timeout_sec", 5.0}},
                  timeout + kCallMargin);
  } catch (const ProjectApiError& e) {
    throw host::TransportClosed(e.what());
  }
}

std::size_t ProjectApiTransport::read(std::span<std::uint8_t> buffer,
                                      std::chrono::milliseconds timeout) {
  if (!server_) throw host::TransportClosed("the Project API link is closed");
  if (pending_.empty()) {
    try {
      const auto result = server_->call("read_transport",
                                        {{"n", std::min(buffer.size(), kMaxReadBytes)},
                                         {"timeout_sec", timeout.count() / 1000.0}},
                                        timeout + kCallMargin);
      const auto data = result.find("data");
      if (!result.is_object() || data == result.end() || !data->is_string()) {
        throw host::TransportClosed("platform " + server_->platform() +
                                    ": read_transport: the result has no base64 'data'");
      }
      pending_ = base64Decode(data->get<std::string>());
    } catch (const ProjectApiError& e) {
      throw host::TransportClosed(e.what());
    } catch (const std::invalid_argument& e) {
      throw host::TransportClosed("platform " + server_->platform() +
                                  ": read_transport: 'data' is " + e.what());
    }
  }
  const std::size_t count = std::min(buffer.size(), pending_.size());
  std::copy_n(pending_.begin(), count, buffer.begin());
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(count));
  return count;
}

void ProjectApiTransport::close() {
  if (!server_) return;
  try {
    server_->call("close_transport", nlohmann::json::object(), std::chrono::seconds(10));
  } catch (const ProjectApiError&) {
    // Closing anyway: the server is ended below whatever it answered.
  }
  server_.reset();
}

std::string ProjectApiTransport::describe() const {
  return server_ ? "the Project API server of " + server_->platform() : "a closed Project API link";
}

}  // namespace loupe::deploy
