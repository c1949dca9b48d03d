// The tensors a debug build of a model sends during one RUN (TENSOR messages,
// docs/session_rpc.md), put back together: each tensor's chunks arrive in
// order, offset 0 first. A chunk lost on the link leaves a gap that finish()
// names, rather than a tensor with wrong bytes that would be blamed on an
// operator.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace loupe::host {

struct StreamedTensor {
  std::uint32_t operatorIndex = 0;  // the operator that wrote it last
  std::uint32_t arrival = 0;        // 0 for the first tensor written, 1 for the next, ...
  std::vector<std::uint8_t> bytes;
};

class DebugTensorStream {
 public:
  // One TENSOR message body. Never throws (it runs inside Session::request):
  // what is wrong with it is kept for finish().
  void take(std::span<const std::uint8_t> body);

  // Tensor index -> what the board sent. Throws SessionError Protocol naming
  // the first tensor with missing or malformed chunks. Clears the stream.
  std::map<std::uint32_t, StreamedTensor> finish();

 private:
  struct Assembly {
    StreamedTensor tensor;
    std::size_t received = 0;
  };
  std::map<std::uint32_t, Assembly> tensors_;
  std::string firstProblem_;
  std::uint32_t arrivals_ = 0;
};

}  // namespace loupe::host
