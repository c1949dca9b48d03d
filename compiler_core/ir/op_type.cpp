#include "ir/op_type.h"

namespace loupe::ir {

std::string_view opTypeName(OpType type) {
  switch (type) {
#define LOUPE_OP_NAME(name, tflite, code) \
  case OpType::name:                      \
    return tflite;
    LOUPE_OP_TYPES(LOUPE_OP_NAME)
#undef LOUPE_OP_NAME
    case OpType::EthosU:
      return "CUSTOM(ethos-u)";
    case OpType::Opaque:
      return "OPAQUE";
  }
  return "OPAQUE";
}

std::optional<OpType> opTypeFromBuiltinCode(int builtinCode) {
  switch (builtinCode) {
#define LOUPE_OP_CODE(name, tflite, code) \
  case code:                              \
    return OpType::name;
    LOUPE_OP_TYPES(LOUPE_OP_CODE)
#undef LOUPE_OP_CODE
    default:
      return std::nullopt;
  }
}

}  // namespace loupe::ir
