#include "deploy/mac_peak.h"

namespace loupe::deploy {

std::optional<double> peakMacsPerInstruction(std::string_view cpu) {
  if (cpu == "cortex-m3") return 1.0;
  if (cpu == "cortex-m4" || cpu == "cortex-m7" || cpu == "cortex-m33") return 2.0;
  if (cpu == "cortex-m55") return 16.0;
  return std::nullopt;
}

}  // namespace loupe::deploy
