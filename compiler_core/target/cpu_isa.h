// The instruction set the generated C is lowered for. Arm's M-profile cores
// fall into three groups for integer kernels: plain Thumb (Cortex-M3: one
// multiply-accumulate per instruction, SMLAL two lanes at a time; the
// Cortex-M0/M0+ lack SMLAL and keep the loop nests), the DSP extension (Cortex-M4,
// M7, M33: SMLAD, two 16-bit multiply-accumulates per instruction) and MVE,
// Helium (Cortex-M55: 16 int8 lanes). The lowering picks kernels by this; the
// kernels themselves (loupe/simd_kernels.h) check the compiler's feature
// macros, so code lowered for one group still computes the same bytes on any
// CPU, only slower.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::target {

enum class CpuIsa {
  Scalar,  // portable loop nests: the host, -mcpu=generic, Cortex-M0 and M0+
  Thumb,   // plain Thumb (Armv7-M without DSP): Cortex-M3
  Dsp,     // Armv7E-M / Armv8-M Mainline DSP extension: Cortex-M4, M7, M33
  Mve,     // Armv8.1-M MVE (Helium): Cortex-M55
};

// "scalar", "thumb", "dsp", "mve".
std::string_view cpuIsaName(CpuIsa isa);

// The CPUs -mcpu may name (GCC's spelling), in order.
const std::vector<std::string>& knownCpus();

// The instruction set of `mcpu` ("cortex-m55" -> Mve), or nullopt for a name
// not in knownCpus().
std::optional<CpuIsa> cpuIsaOf(std::string_view mcpu);

}  // namespace loupe::target
