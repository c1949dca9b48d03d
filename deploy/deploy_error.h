// What can go wrong between a compiled model and its outputs on a board,
// each with a message that says what to do about it.
#pragma once

#include <stdexcept>
#include <string>

namespace loupe::deploy {

class DeployError : public std::runtime_error {
 public:
  enum class Kind {
    UnknownPlatform,  // no platform of that name
    ToolMissing,      // a program the platform needs is not installed
    BuildFailed,      // the compiler or linker failed (message holds its output)
    DoesNotFit,       // the model is too large for the board (which memory, by how much)
    FlashFailed,      // the programmer could not write the firmware (its output, likely causes)
    StartFailed,      // the firmware could not be started or reached
    Mismatch,         // the firmware on the board is not the model, or inputs of wrong sizes
    RunFailed,        // the model's run function returned an error on the board
    Cancelled,        // the user stopped it
  };

  DeployError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

}  // namespace loupe::deploy
