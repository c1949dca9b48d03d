// The fault-injecting test transport: see fault_injecting_transport.h.
#include "fault_injecting_transport.h"

#include <algorithm>

namespace loupe::host {

FaultInjectingTransport::FaultInjectingTransport(Transport& inner, FaultInjectionOptions options)
    : inner_(inner),
      options_(std::move(options)),
      random_(options_.seed),
      pendingGarbage_(options_.garbageBeforeFirstRead) {}

std::string FaultInjectingTransport::describe() const {
  return inner_.describe() + " (with injected faults)";
}

void FaultInjectingTransport::setPlans(FaultPlan toBoard, FaultPlan fromBoard) {
  options_.toBoard = std::move(toBoard);
  options_.fromBoard = std::move(fromBoard);
}

std::size_t FaultInjectingTransport::damage(std::span<std::uint8_t> bytes, const FaultPlan& plan,
                                            std::size_t& position, std::size_t& dropped,
                                            std::size_t& corrupted) {
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  std::uniform_int_distribution<int> bit(0, 7);
  std::size_t kept = 0;
  for (std::uint8_t byte : bytes) {
    const std::size_t at = position++;
    if (plan.dropAt.contains(at) || (plan.dropRate > 0 && chance(random_) < plan.dropRate)) {
      ++dropped;
      continue;
    }
    if (plan.corruptAt.contains(at) ||
        (plan.corruptRate > 0 && chance(random_) < plan.corruptRate)) {
      byte = static_cast<std::uint8_t>(byte ^ (1u << bit(random_)));
      ++corrupted;
    }
    bytes[kept++] = byte;
  }
  return kept;
}

void FaultInjectingTransport::write(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
  const std::size_t kept = damage(copy, options_.toBoard, writtenPosition_,
                                  injected_.droppedToBoard, injected_.corruptedToBoard);
  inner_.write(std::span(copy).first(kept));
}

std::size_t FaultInjectingTransport::read(std::span<std::uint8_t> buffer,
                                          std::chrono::milliseconds timeout) {
  if (!pendingGarbage_.empty()) {
    const std::size_t count = std::min(buffer.size(), pendingGarbage_.size());
    std::copy_n(pendingGarbage_.begin(), count, buffer.begin());
    pendingGarbage_.erase(pendingGarbage_.begin(), pendingGarbage_.begin() + count);
    return count;
  }
  // Everything read may be dropped; keep reading until a byte survives or the
  // time-out passes, as a real lossy link would look.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    const std::size_t count = inner_.read(buffer, std::max(left, std::chrono::milliseconds{0}));
    if (count == 0) return 0;
    const std::size_t kept = damage(buffer.first(count), options_.fromBoard, readPosition_,
                                    injected_.droppedFromBoard, injected_.corruptedFromBoard);
    if (kept > 0 || std::chrono::steady_clock::now() >= deadline) return kept;
  }
}

}  // namespace loupe::host
