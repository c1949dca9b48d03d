// STRIDED_SLICE: begin, end and strides per dimension, with TFLite's masks.
// Its shape rule is the reference kernel's plan (ops/strided_slice_plan.h).
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kStridedSliceKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readStridedSliceOptions(const tflite::Operator& op, const std::string&) {
  ir::StridedSliceAttrs a;
  if (const auto* o = optionsAs<tflite::StridedSliceOptions>(op)) {
    a.beginMask = o->begin_mask();
    a.endMask = o->end_mask();
    a.ellipsisMask = o->ellipsis_mask();
    a.newAxisMask = o->new_axis_mask();
    a.shrinkAxisMask = o->shrink_axis_mask();
    a.offset = o->offset();
  }
  return a;
}

}  // namespace

extern const OperatorDefinition kStridedSliceDefinition{
    .type = ir::OpType::StridedSlice,
    .dtypes = "float32, int8, int16, int32, bool (input and output same type)",
    .import = {.minInputs = 3,
               .maxInputs = 4,
               .optionsType = optionsTypeOf<tflite::StridedSliceOptions>(),
               .maxVersion = 8,
               .readOptions = readStridedSliceOptions},
    .kernel = &reference::kStridedSliceKernel,
    .lower = lowering::lowerStridedSlice,
};

}  // namespace loupe::ops
