#include "ir/attributes.h"

#include "loupe/ethosu/ethosu_payload.h"

namespace loupe::ir {

std::string_view paddingName(Padding padding) {
  return padding == Padding::Same ? "SAME" : "VALID";
}

std::string explicitPaddingToString(const ExplicitPadding& padding) {
  return "explicit(t=" + std::to_string(padding.top) + ",b=" + std::to_string(padding.bottom) +
         ",l=" + std::to_string(padding.left) + ",r=" + std::to_string(padding.right) + ")";
}

std::string_view activationName(Activation activation) {
  switch (activation) {
    case Activation::None:
      return "NONE";
    case Activation::Relu:
      return "RELU";
    case Activation::ReluN1To1:
      return "RELU_N1_TO_1";
    case Activation::Relu6:
      return "RELU6";
    case Activation::Tanh:
      return "TANH";
    case Activation::SignBit:
      return "SIGN_BIT";
  }
  return "NONE";
}

std::string_view ethosuAcceleratorName(int accelerator) {
  switch (accelerator) {
    case LOUPE_ETHOSU_U55_32:
      return "ethos-u55-32";
    case LOUPE_ETHOSU_U55_64:
      return "ethos-u55-64";
    case LOUPE_ETHOSU_U55_128:
      return "ethos-u55-128";
    case LOUPE_ETHOSU_U55_256:
      return "ethos-u55-256";
    case LOUPE_ETHOSU_U65_256:
      return "ethos-u65-256";
    case LOUPE_ETHOSU_U65_512:
      return "ethos-u65-512";
    default:
      return "unknown";
  }
}

}  // namespace loupe::ir
