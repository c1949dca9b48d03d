// The one device Loupe's firmware provides: the software NPU (runtime_core,
// loupe/npu_device.h), bound as devices->npu. The host platform's main() and
// the RPC firmware's model descriptor both print this binding into their C.
#pragma once

#include <string>

#include "codegen/compiled_model.h"
#include "targets/npu/npu_tir_function.h"

namespace loupe::deploy {

inline constexpr const char* kSoftwareNpuDevice = npu::kNpuDeviceName;

// Empty when every device of `model` is provided; else what `who` lacks.
std::string missingDeviceMessage(const codegen::CompiledModel& model, const std::string& who);

// For a model with devices: the include, the static NPU state and devices
// struct, and `static int32_t bind_devices(void)`, which binds them once and
// fills `devices` (returning a tvm_crt_error_t); empty for a model without.
std::string softwareNpuBindingSource(const codegen::CompiledModel& model);

}  // namespace loupe::deploy
