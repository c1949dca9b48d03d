// The devices Loupe's firmware and host main() bind for the generated run
// function (`struct tvmgen_<name>_devices`, rfcs/000's device API): none.
// The Ethos-U is driven from main's code through its driver, not as a
// device; a target plugin whose regions run on a device of their own needs
// a platform that binds it.
#pragma once

#include <string>

#include "codegen/compiled_model.h"

namespace loupe::deploy {

// Empty when `who` ("the firmware") can run `model`; else which device it lacks.
inline std::string missingDeviceMessage(const codegen::CompiledModel& model,
                                        const std::string& who) {
  if (model.devices.empty()) return {};
  return who + " has no device called '" + model.devices.front() +
         "' (it binds none: the run function must take no devices)";
}

}  // namespace loupe::deploy
