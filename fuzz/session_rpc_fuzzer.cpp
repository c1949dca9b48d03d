// libFuzzer target for the host session and RPC client
// (runtime_core/host session.cpp, rpc_client.cpp): whatever a board sends,
// the host must fail with a SessionError (or refuse an argument), never crash,
// read past a buffer, trust a length it has not checked, or send the board a
// request longer than the max request the board announced.
//
// The input is a script of what the board sends, record by record:
//   c % 4 == 0: raw bytes (length byte, bytes): garbage, broken frames;
//   c % 4 == 1: a message with the current session's nonces and the
//               outstanding sequence (type byte, length byte, body), framed;
//   c % 4 == 2: a message with its header as given (4 bytes, length, body);
//   c % 4 == 3: a read that times out.
// The link closes when the script ends. Every time-out is an hour, so the
// clock never decides anything: runs are reproducible.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "frame_codec.h"
#include "rpc_client.h"
#include "session.h"

namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr std::uint8_t kBoardNonce = 0x42;

void check(bool condition) {
  if (!condition) std::abort();
}

class ScriptedBoard : public loupe::host::Transport {
 public:
  ScriptedBoard(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  void setSession(const loupe::host::Session* session) { session_ = session; }
  std::size_t consumed() const { return position_; }

  void write(std::span<const std::uint8_t> bytes) override {
    if (closed_) throw loupe::host::TransportClosed("scripted board: closed");
    fromHost_.feed(bytes);
    while (fromHost_.hasPayload()) {
      const Bytes payload = fromHost_.takePayload();
      check(payload.size() >= loupe::host::kSessionHeaderBytes);
      if (payload[0] == static_cast<std::uint8_t>(loupe::host::SessionMessageType::Start)) {
        hostNonce_ = payload[1];
        check(hostNonce_ != 0);
      } else {
        check(payload[0] == static_cast<std::uint8_t>(loupe::host::SessionMessageType::Request));
        check(payload[3] != 0);
        check(session_ != nullptr && session_->isOpen());
        check(payload.size() <= session_->boardInfo().maxRequest);
        sequence_ = payload[3];
      }
    }
  }

  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds) override {
    if (pending_.empty()) nextRecord();
    const std::size_t count = std::min(buffer.size(), pending_.size());
    std::copy_n(pending_.begin(), count, buffer.begin());
    pending_.erase(pending_.begin(), pending_.begin() + count);
    return count;
  }

  void close() override { closed_ = true; }
  std::string describe() const override { return "scripted board"; }

 private:
  std::uint8_t take() { return position_ < size_ ? data_[position_++] : 0; }
  Bytes takeBytes(std::size_t count) {
    count = std::min(count, size_ - position_);
    Bytes bytes(data_ + position_, data_ + position_ + count);
    position_ += count;
    return bytes;
  }

  void nextRecord() {
    if (position_ >= size_ || closed_) {
      closed_ = true;
      throw loupe::host::TransportClosed("scripted board: the script ended");
    }
    const std::uint8_t control = take();
    switch (control % 4) {
      case 0:
        pending_ = takeBytes(take());
        break;
      case 1: {
        const std::uint8_t type = take();
        Bytes payload{type, hostNonce_, kBoardNonce, type == 3 ? std::uint8_t{0} : sequence_};
        const Bytes body = takeBytes(take());
        payload.insert(payload.end(), body.begin(), body.end());
        pending_ = loupe::host::encodeFrame(payload);
        break;
      }
      case 2: {
        Bytes payload = takeBytes(4);
        const Bytes body = takeBytes(take());
        payload.insert(payload.end(), body.begin(), body.end());
        pending_ = loupe::host::encodeFrame(payload);
        break;
      }
      default:
        break;  // nothing this time
    }
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
  bool closed_ = false;
  Bytes pending_;
  loupe::host::FrameDecoder fromHost_;
  const loupe::host::Session* session_ = nullptr;
  std::uint8_t hostNonce_ = 0;
  std::uint8_t sequence_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace loupe::host;
  using std::chrono::hours;
  ScriptedBoard board(data, size);
  SessionOptions options;
  options.startTimeout = hours{1};
  options.startRetryInterval = hours{1};
  options.responseTimeout = hours{1};
  options.runTimeout = hours{1};
  options.nonceSeed = 1;
  Session session(board, options);
  board.setSession(&session);
  RpcClient rpc(session);

  const Bytes bytes(300, 0xA5);
  TensorArgument tensor;
  tensor.shape = {1, 2, 3};
  const std::vector<CallArgument> arguments{std::int64_t{1}, 2.0, HandleArgument{3}, NullArgument{},
                                            tensor};
  const std::vector<void (*)(RpcClient&, const Bytes&, const std::vector<CallArgument>&)> calls{
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>&) { c.modelInfo(); },
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>&) {
        c.getGlobalFunction("tvmgen_default_run");
      },
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>& a) {
        const CallResult result = c.callFunction(7, a);
        (void)result.asInt(), (void)result.asFloat(), (void)result.asHandle();
      },
      [](RpcClient& c, const Bytes& b, const std::vector<CallArgument>&) {
        const std::uint64_t handle = c.alloc(300);
        c.copyToDevice(handle, 0, b);
        c.copyFromDevice(handle, 0, 300);
        c.free(handle);
      },
      [](RpcClient& c, const Bytes& b, const std::vector<CallArgument>&) { c.setInput(0, b); },
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>&) {
        const RunResult result = c.run();
        (void)c.ticksToNanoseconds(result.ticks);
      },
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>&) { c.getOutput(0); },
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>&) { c.getProfile(); },
      [](RpcClient& c, const Bytes&, const std::vector<CallArgument>&) { c.resetState(); },
  };

  std::size_t lastConsumed = static_cast<std::size_t>(-1);
  while (board.consumed() != lastConsumed) {
    lastConsumed = board.consumed();
    for (const auto& call : calls) {
      try {
        if (!session.isOpen()) session.start();
        call(rpc, bytes, arguments);
      } catch (const SessionError& error) {
        if (error.kind() == SessionErrorKind::LinkClosed) return 0;
      } catch (const std::invalid_argument&) {
      } catch (const std::out_of_range&) {
      }
    }
  }
  return 0;
}
