// CUMSUM: running sums along the axis of a constant one-element int32 operand
// (negative counts from the end); exclusive leaves each element's own value
// out of its sum, reverse runs from the end of the axis. The output has the
// input's shape and type. As TFLite Micro computes it (cumsum.cc,
// reference_ops::CumSum), float32 and int8 only:
//  - float32: the running sum starts at 0.0f and adds each input (sum + in);
//  - int8: each input, less its zero point, is shifted left by 20 and scaled
//    by input scale / (2 * input scale); the running int32 sum of those is
//    requantised by 2 * input scale / (2^20 * output scale), plus the output
//    zero point, clamped. TFLM's quirk is kept: the running sum does not start
//    at 0 but at the scaled negated input zero point, so with a non-zero input
//    zero point every output is off by about -zero point * input scale /
//    output scale steps. The running sum wraps (TFLM's int32 += on its
//    targets). TFLM's Prepare aborts on an output multiplier of 1 or more
//    (2 * input scale >= 2^20 * output scale); the check refuses it.
#include <functional>

#include "ir/graph_printer.h"
#include "loupe/fixed_point.h"
#include "loupe/fixed_point_math.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// TFLM's kCumSumIntegerShift: the headroom given to int8 inputs.
constexpr int kIntegerLeftShift = 20;

ir::Attributes readCumsumOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::CumsumOptions>(op)) {
    a.set("exclusive", o->exclusive() ? 1 : 0).set("reverse", o->reverse() ? 1 : 0);
  }
  return a;
}

// The input seen as [outer, depth, inner], summed along depth.
struct CumsumPlan {
  std::int64_t outer = 1, depth = 1, inner = 1;
  bool exclusive = false, reverse = false;
  std::string problem;
};

CumsumPlan planCumsum(const ir::Graph& graph, const ir::Operator& op) {
  CumsumPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return plan.problem = "an input", plan;
  if (input->shape.empty()) return plan.problem = "an input of rank 1 or more", plan;
  const ConstantAxis axis = constantAxis(graph, op, 1, *input);
  if (!axis.problem.empty()) return plan.problem = axis.problem, plan;
  const std::size_t at = axis.axis;
  plan.outer = productOf(input->shape, 0, at);
  plan.depth = input->shape[at];
  plan.inner = productOf(input->shape, at + 1, input->shape.size());
  plan.exclusive = optionOf(op, "exclusive") != 0;
  plan.reverse = optionOf(op, "reverse") != 0;
  return plan;
}

// The fixed-point constants of an int8 CUMSUM, as TFLM's Prepare derives
// them, and the value its running sum starts from.
struct CumsumRequantization {
  std::int32_t inputOffset = 0;  // -input zero point
  std::int32_t inputMultiplier = 0;
  int inputShift = 0;
  std::int32_t outputMultiplier = 0;
  int outputShift = 0;
  std::int32_t outputZeroPoint = 0;
  std::int32_t start = 0;
  double realOutputMultiplier = 0.0;
};

// An input value, less its zero point, shifted and scaled into the running
// sum's fixed point.
std::int32_t scaledInput(const CumsumRequantization& r, std::int32_t value) {
  return loupe_multiply_by_quantized_multiplier_smaller_than_one(
      (value + r.inputOffset) * (1 << kIntegerLeftShift), r.inputMultiplier, r.inputShift);
}

std::int8_t requantizedOutput(const CumsumRequantization& r, std::int32_t sum) {
  const std::int32_t scaled = loupe_multiply_by_quantized_multiplier_smaller_than_one(
      sum, r.outputMultiplier, r.outputShift);
  return static_cast<std::int8_t>(
      loupe_clamp_i32(loupe_wrapping_add_i32(scaled, r.outputZeroPoint), -128, 127));
}

CumsumRequantization requantizationOf(const ir::Tensor& input, const ir::Tensor& output) {
  CumsumRequantization r;
  const double inputScale = static_cast<double>(input.quantization.scale());
  const double twiceInputScale = 2 * inputScale;
  r.realOutputMultiplier = twiceInputScale / ((1 << kIntegerLeftShift) *
                                              static_cast<double>(output.quantization.scale()));
  loupe_quantize_multiplier(inputScale / twiceInputScale, &r.inputMultiplier, &r.inputShift);
  loupe_quantize_multiplier(r.realOutputMultiplier, &r.outputMultiplier, &r.outputShift);
  r.inputOffset = -input.quantization.zeroPoint();
  r.outputZeroPoint = output.quantization.zeroPoint();
  // TFLM starts the sum from the scaled input offset (its comment says 0).
  r.start = loupe_multiply_by_quantized_multiplier_smaller_than_one(
      r.inputOffset * (1 << kIntegerLeftShift), r.inputMultiplier, r.inputShift);
  return r;
}

std::optional<InferredOutput> cumsumShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  // An axis known only at run time does not change the shape.
  if (constantOperand(graph, op, 1)) {
    const CumsumPlan plan = planCumsum(graph, op);
    if (!plan.problem.empty()) return shapeProblem(plan.problem);
  }
  return shaped(input->shape, {input->dtype});
}

std::optional<std::string> checkInt8Quantization(const ir::Tensor& input,
                                                 const ir::Tensor& output) {
  if (auto problem = reference::checkPerTensorQuantization("input", input)) return problem;
  if (auto problem = reference::checkPerTensorQuantization("output", output)) return problem;
  for (const ir::Tensor* tensor : {&input, &output}) {
    const std::int32_t zeroPoint = tensor->quantization.zeroPoint();
    if (zeroPoint < -128 || zeroPoint > 127) {
      return reference::describeTensor(tensor == &input ? "input" : "output", *tensor) +
             " has zero point " + std::to_string(zeroPoint) + " outside the int8 range";
    }
  }
  const CumsumRequantization r = requantizationOf(input, output);
  if (!(r.realOutputMultiplier < 1.0) || r.outputShift > 0) {
    return "twice the input scale must be below 2^20 times the output scale (TFLite Micro's "
           "output multiplier must be less than 1), found input scale " +
           std::to_string(input.quantization.scale()) + " and output scale " +
           std::to_string(output.quantization.scale());
  }
  return std::nullopt;
}

std::optional<std::string> checkCumsum(const ir::Graph& graph, const ir::Operator& op) {
  const CumsumPlan plan = planCumsum(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& axis = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  if (axis.dtype != ir::DType::Int32) {
    return "axis operand " + tensorText(axis) + " must be int32, as in TFLite Micro";
  }
  if (output.dtype != input.dtype || output.shape != input.shape) {
    return "output " + tensorText(output) + " must have the type and shape of input " +
           tensorText(input);
  }
  if (input.dtype == ir::DType::Int8) return checkInt8Quantization(input, output);
  return std::nullopt;
}

// Calls visit(element) along every lane of the axis, in summation order.
template <typename Visit>
void forEachInSumOrder(const CumsumPlan& plan, Visit&& visit) {
  for (std::int64_t o = 0; o < plan.outer; ++o) {
    for (std::int64_t i = 0; i < plan.inner; ++i) {
      const std::int64_t lane = o * plan.depth * plan.inner + i;
      for (std::int64_t d = 0; d < plan.depth; ++d) {
        const std::int64_t position = plan.reverse ? plan.depth - 1 - d : d;
        visit(d == 0, lane + position * plan.inner);
      }
    }
  }
}

void evalCumsum(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const CumsumPlan plan = planCumsum(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  if (input.dtype == ir::DType::Float32) {
    const float* in = store.data<float>(op.inputs[0]);
    float* out = store.mutableData<float>(op.outputs[0]);
    float sum = 0.0f;
    forEachInSumOrder(plan, [&](bool first, std::int64_t at) {
      if (first) sum = 0.0f;
      const float value = in[at];
      if (plan.exclusive) out[at] = sum;
      sum = sum + value;
      if (!plan.exclusive) out[at] = sum;
    });
    return;
  }
  const CumsumRequantization r = requantizationOf(input, graph.output(op, 0));
  const std::int8_t* in = store.data<std::int8_t>(op.inputs[0]);
  std::int8_t* out = store.mutableData<std::int8_t>(op.outputs[0]);
  std::int32_t sum = 0;
  forEachInSumOrder(plan, [&](bool first, std::int64_t at) {
    if (first) sum = r.start;
    const std::int32_t value = scaledInput(r, in[at]);
    if (plan.exclusive) out[at] = requantizedOutput(r, sum);
    sum = loupe_wrapping_add_i32(sum, value);
    if (!plan.exclusive) out[at] = requantizedOutput(r, sum);
  });
}

// for o, i: sum = start; for d along the axis (backwards with reverse):
// x = in[at]; [exclusive: out[at] = f(sum)]; sum += g(x); [else out[at] = f(sum)],
// with f and g the identity for float32 and the requantisations for int8.
tir::PrimFunc lowerCumsum(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  const CumsumPlan plan = planCumsum(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const bool isFloat = input.dtype == ir::DType::Float32;
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  // No element: nothing to sum (a bare running sum would be an unused local).
  if (input.elementCount() == 0) return fb.finish(tir::seq({}));
  const tir::Buffer sum =
      fb.local("sum", isFloat ? tir::ScalarType::Float32 : tir::ScalarType::Int32, 1);
  const tir::Var o = lowering::loopVar("o"), i = lowering::loopVar("i");
  const tir::Var d = lowering::loopVar("d");
  const tir::Var x = tir::makeVar("x", isFloat ? tir::ScalarType::Float32 : tir::ScalarType::Int32);
  const tir::Expr position =
      plan.reverse ? tir::intImm(plan.depth - 1) - tir::refVar(d) : tir::refVar(d);
  const tir::Expr at = tir::refVar(o) * tir::intImm(plan.depth * plan.inner) + tir::refVar(i) +
                       position * tir::intImm(plan.inner);
  const tir::Expr total = tir::load(sum, 0);

  tir::Expr start, value, added;
  std::function<tir::Expr(const tir::Expr&)> outputOf;
  if (isFloat) {
    start = tir::floatImm(0.0);
    value = tir::load(in, at);
    added = total + tir::refVar(x);
    outputOf = [](const tir::Expr& s) { return s; };
  } else {
    const CumsumRequantization r = requantizationOf(input, graph.output(op, 0));
    start = tir::intImm(r.start);
    value = tir::callIntrinsic(
        "loupe.multiply_by_quantized_multiplier_smaller_than_one", tir::ScalarType::Int32,
        {(tir::cast(tir::ScalarType::Int32, tir::load(in, at)) + r.inputOffset) *
             tir::intImm(1 << kIntegerLeftShift),
         r.inputMultiplier, r.inputShift});
    added = tir::callIntrinsic("loupe.wrapping_add_i32", tir::ScalarType::Int32,
                               {total, tir::refVar(x)});
    outputOf = [r](const tir::Expr& s) {
      const tir::Expr scaled =
          tir::callIntrinsic("loupe.multiply_by_quantized_multiplier_smaller_than_one",
                             tir::ScalarType::Int32, {s, r.outputMultiplier, r.outputShift});
      const tir::Expr shifted = tir::callIntrinsic("loupe.wrapping_add_i32", tir::ScalarType::Int32,
                                                   {scaled, r.outputZeroPoint});
      return tir::cast(
          tir::ScalarType::Int8,
          tir::callIntrinsic("loupe.clamp_i32", tir::ScalarType::Int32, {shifted, -128, 127}));
    };
  }
  // The input is read before the output is written, whatever their storage.
  const tir::Stmt step =
      plan.exclusive ? tir::seq({tir::store(out, at, outputOf(total)), tir::store(sum, 0, added)})
                     : tir::seq({tir::store(sum, 0, added), tir::store(out, at, outputOf(total))});
  const tir::Stmt lane = tir::allocate(
      sum, tir::seq({tir::store(sum, 0, start),
                     tir::forLoop(d, 0, tir::intImm(plan.depth), tir::let(x, value, step))}));
  return fb.finish(tir::forLoop(o, 0, tir::intImm(plan.outer),
                                tir::forLoop(i, 0, tir::intImm(plan.inner), lane)));
}

const reference::Kernel kCumsumKernel{ir::OpType::Cumsum, checkCumsum, evalCumsum};

}  // namespace

extern const OperatorDefinition kCumsumDefinition{
    .type = ir::OpType::Cumsum,
    .dtypes = "float32, int8",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::CumsumOptions>(),
               .maxVersion = 1,
               .readOptions = readCumsumOptions},
    .shape = cumsumShape,
    .kernel = &kCumsumKernel,
    .lower = lowerCumsum,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
