#include "deploy/software_npu_binding.h"

#include <sstream>

namespace loupe::deploy {

std::string missingDeviceMessage(const codegen::CompiledModel& model, const std::string& who) {
  for (const std::string& device : model.devices) {
    if (device != kSoftwareNpuDevice) {
      return who + " has no device called '" + device + "' (it provides: " + kSoftwareNpuDevice +
             ", the software NPU)";
    }
  }
  return {};
}

std::string softwareNpuBindingSource(const codegen::CompiledModel& model) {
  if (model.devices.empty()) return {};
  const std::string p = "tvmgen_" + model.modelName;
  std::ostringstream out;
  // The NPU's state (accumulators) is static: bound once, before the first run.
  out << "#include \"loupe/npu_device.h\"\n\n"
      << "static loupe_npu_device npu_state;\nstatic tvm_device_t npu_device;\n"
      << "static struct " << p << "_devices devices;\nstatic int devices_bound;\n\n"
      << "static int32_t bind_devices(void) {\n  int32_t status;\n"
      << "  if (devices_bound) return 0;\n"
      << "  status = TVMDeviceInit(&npu_device);\n"
      << "  if (status == 0) status = LoupeNpuDeviceInit(&npu_state);\n"
      << "  if (status == 0) status = LoupeNpuDeviceBind(&npu_device, &npu_state);\n"
      << "  if (status != 0) return status;\n"
      << "  devices." << kSoftwareNpuDevice << " = &npu_device;\n"
      << "  devices_bound = 1;\n  return 0;\n}\n\n";
  return out.str();
}

}  // namespace loupe::deploy
