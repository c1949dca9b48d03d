#include "ir/attributes.h"

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

}  // namespace loupe::ir
