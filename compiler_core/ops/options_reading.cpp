#include "ops/options_reading.h"

#include <cmath>

#include "frontend/tflite_importer.h"

namespace loupe::ops {

void failOptions(const std::string& where, const std::string& what) {
  throw frontend::ImportError(where + ": " + what);
}

ir::Padding readPadding(tflite::Padding value, const std::string& where) {
  switch (value) {
    case tflite::Padding::SAME:
      return ir::Padding::Same;
    case tflite::Padding::VALID:
      return ir::Padding::Valid;
  }
  failOptions(where, "unknown padding value " + std::to_string(static_cast<int>(value)) +
                         " (expected 0 SAME or 1 VALID)");
}

ir::Activation readActivation(tflite::ActivationFunctionType value, const std::string& where) {
  switch (value) {
    case tflite::ActivationFunctionType::NONE:
      return ir::Activation::None;
    case tflite::ActivationFunctionType::RELU:
      return ir::Activation::Relu;
    case tflite::ActivationFunctionType::RELU_N1_TO_1:
      return ir::Activation::ReluN1To1;
    case tflite::ActivationFunctionType::RELU6:
      return ir::Activation::Relu6;
    case tflite::ActivationFunctionType::TANH:
      return ir::Activation::Tanh;
    case tflite::ActivationFunctionType::SIGN_BIT:
      return ir::Activation::SignBit;
  }
  failOptions(where, "unknown fused activation value " + std::to_string(static_cast<int>(value)));
}

int readPositive(int value, const char* field, const std::string& where) {
  if (value < 1) {
    failOptions(where,
                std::string(field) + " is " + std::to_string(value) + "; it must be at least 1");
  }
  return value;
}

float readFinite(float value, const char* field, const std::string& where) {
  if (!std::isfinite(value)) failOptions(where, std::string(field) + " is not a finite number");
  return value;
}

}  // namespace loupe::ops
