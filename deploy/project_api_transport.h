// The link to a board that a Project API server reaches for Loupe
// (rfcs/003's read_transport / write_transport): bytes travel base64 in
// JSON-RPC calls, so a platform can use any link its server knows (a
// socket, a USB bulk pipe, a debugger's RTT) without Loupe knowing it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "deploy/project_api_client.h"
#include "transport.h"

namespace loupe::deploy {

std::string base64Encode(std::span<const std::uint8_t> bytes);
// Throws std::invalid_argument for text that is not base64.
std::vector<std::uint8_t> base64Decode(const std::string& text);

class ProjectApiTransport : public host::Transport {
 public:
  // Takes the server after open_transport succeeded.
  explicit ProjectApiTransport(std::unique_ptr<ProjectApiClient> server);
  ~ProjectApiTransport() override;

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  // close_transport, then the server is ended.
  void close() override;
  std::string describe() const override;

 private:
  std::unique_ptr<ProjectApiClient> server_;
  std::vector<std::uint8_t> pending_;  // received beyond what a read asked for
};

}  // namespace loupe::deploy
