#include "debug_tensor_stream.h"

#include "session_error.h"
#include "wire_bytes.h"

namespace loupe::host {

void DebugTensorStream::take(std::span<const std::uint8_t> body) {
  const auto problem = [this](const std::string& text) {
    if (firstProblem_.empty()) firstProblem_ = text;
  };
  if (body.size() < 16) {
    problem("a TENSOR message of " + std::to_string(body.size()) +
            " bytes, shorter than its 16-byte header");
    return;
  }
  WireReader reader(body, "TENSOR");
  const std::uint32_t op = reader.u32();
  const std::uint32_t index = reader.u32();
  const std::uint32_t offset = reader.u32();
  const std::uint32_t total = reader.u32();
  const auto data = reader.rest();
  const std::string name = "tensor " + std::to_string(index) + " of operator " + std::to_string(op);
  if (data.size() > total || offset > total - data.size()) {
    problem(name + ": bytes " + std::to_string(offset) + ".." +
            std::to_string(offset + data.size()) + " lie beyond its " + std::to_string(total) +
            " bytes");
    return;
  }
  Assembly& assembly = tensors_[index];
  if (offset == 0) {
    // Written again (state updated in place, a later operator): the later
    // value replaces the earlier, as it would in the board's memory.
    assembly.tensor.operatorIndex = op;
    assembly.tensor.arrival = arrivals_++;
    assembly.tensor.bytes.assign(total, 0);
    assembly.received = 0;
  } else if (assembly.tensor.operatorIndex != op || assembly.tensor.bytes.size() != total ||
             offset != assembly.received) {
    problem(name + ": bytes " + std::to_string(assembly.received) + ".." + std::to_string(offset) +
            " never arrived (a frame was lost on the link)");
    return;
  }
  std::copy(data.begin(), data.end(), assembly.tensor.bytes.begin() + offset);
  assembly.received = offset + data.size();
}

std::map<std::uint32_t, StreamedTensor> DebugTensorStream::finish() {
  std::string problem = std::move(firstProblem_);
  firstProblem_.clear();
  std::map<std::uint32_t, StreamedTensor> done;
  for (auto& [index, assembly] : tensors_) {
    if (problem.empty() && assembly.received != assembly.tensor.bytes.size()) {
      problem = "tensor " + std::to_string(index) + " of operator " +
                std::to_string(assembly.tensor.operatorIndex) + ": only " +
                std::to_string(assembly.received) + " of its " +
                std::to_string(assembly.tensor.bytes.size()) +
                " bytes arrived (a frame was lost on the link)";
    }
    done.emplace(index, std::move(assembly.tensor));
  }
  tensors_.clear();
  arrivals_ = 0;
  if (!problem.empty()) {
    throw SessionError(SessionErrorKind::Protocol,
                       "the board's tensors are incomplete: " + problem);
  }
  return done;
}

}  // namespace loupe::host
