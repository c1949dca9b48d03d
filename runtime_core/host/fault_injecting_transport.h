// A transport wrapper for tests that damages the link the way a real UART
// does: it drops bytes and flips bits, at random with a seeded generator or at
// exact byte positions, separately in each direction, and can put garbage (a
// boot banner, line noise) in front of the first bytes read.
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "transport.h"

namespace loupe::host {

// Faults in one direction. Positions count that direction's bytes from 0.
struct FaultPlan {
  double dropRate = 0.0;     // chance each byte is lost
  double corruptRate = 0.0;  // chance each byte has one bit flipped
  std::set<std::size_t> dropAt;
  std::set<std::size_t> corruptAt;
};

struct FaultInjectionOptions {
  std::uint64_t seed = 1;
  FaultPlan toBoard;    // bytes written
  FaultPlan fromBoard;  // bytes read
  std::vector<std::uint8_t> garbageBeforeFirstRead;
};

struct InjectedFaults {
  std::size_t droppedToBoard = 0;
  std::size_t corruptedToBoard = 0;
  std::size_t droppedFromBoard = 0;
  std::size_t corruptedFromBoard = 0;
};

class FaultInjectingTransport : public Transport {
 public:
  FaultInjectingTransport(Transport& inner, FaultInjectionOptions options);

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  void close() override { inner_.close(); }
  std::string describe() const override;

  const InjectedFaults& injected() const { return injected_; }
  // Changes the plans from now on (positions keep counting from the start).
  void setPlans(FaultPlan toBoard, FaultPlan fromBoard);

 private:
  // Applies plan to bytes in place; returns how many bytes are kept.
  std::size_t damage(std::span<std::uint8_t> bytes, const FaultPlan& plan, std::size_t& position,
                     std::size_t& dropped, std::size_t& corrupted);

  Transport& inner_;
  FaultInjectionOptions options_;
  std::mt19937_64 random_;
  std::size_t writtenPosition_ = 0;
  std::size_t readPosition_ = 0;
  std::vector<std::uint8_t> pendingGarbage_;
  InjectedFaults injected_;
};

}  // namespace loupe::host
