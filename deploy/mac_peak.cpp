#include "deploy/mac_peak.h"

namespace loupe::deploy {

std::optional<double> peakMacsPerInstruction(std::string_view cpu) {
  if (cpu == "cortex-m3") return 1.0;
  if (cpu == "cortex-m4" || cpu == "cortex-m7" || cpu == "cortex-m33") return 2.0;
  if (cpu == "cortex-m55") return 16.0;
  return std::nullopt;
}

bool isMacKernelOperator(std::string_view type) {
  return type == "CONV_2D" || type == "DEPTHWISE_CONV_2D" || type == "FULLY_CONNECTED" ||
         type == "TRANSPOSE_CONV" || type == "BATCH_MATMUL";
}

}  // namespace loupe::deploy
