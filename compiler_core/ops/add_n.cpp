// ADD_N: the element-wise sum of two or more tensors of one shape and type,
// as TFLite Micro computes it:
//  - float32: x = 0.0f, then x += input_j in input order (so -0.0 inputs sum
//    to +0.0);
//  - int8 (all inputs share one scale and zero point): each input is offset
//    by minus the zero point, shifted left 20 bits and rescaled by 1/2
//    (input scale / twice the input scale), the rescaled values are summed,
//    and the sum is requantised by 2 * input scale / (2^20 * output scale),
//    offset by the output zero point and clamped to int8. TFLM's sum starts
//    from the rescaled input offset itself rather than from 0, i.e. it adds
//    one extra term for "-zero point"; Loupe keeps that quirk. Sums of 16 or
//    more inputs can pass int32; they wrap, as on the hardware TFLM runs on.
#include <string>

#include "ir/graph_printer.h"
#include "loupe/fixed_point_math.h"
#include "loupe/quantized_arith.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

constexpr int kLeftShift = 20;  // TFLM's kAddNIntegerShift

struct AddNParams {
  std::int32_t inputOffset = 0;   // minus the inputs' zero point
  std::int32_t outputOffset = 0;  // the output's zero point
  reference::QuantizedMultiplier input, output;
  double realInput = 0.0, realOutput = 0.0;  // what the multipliers stand for
  std::int32_t initialSum = 0;               // TFLM's sum before the first input
};

// TFLM's CalculateOpData for int8 (multipliers derived in double).
AddNParams addNParams(const ir::Tensor& input, const ir::Tensor& output) {
  AddNParams p;
  p.inputOffset = -input.quantization.zeroPoint();
  p.outputOffset = output.quantization.zeroPoint();
  const double twiceInputScale = 2 * static_cast<double>(input.quantization.scale());
  p.realInput = static_cast<double>(input.quantization.scale()) / twiceInputScale;
  p.realOutput =
      twiceInputScale / ((1 << kLeftShift) * static_cast<double>(output.quantization.scale()));
  p.input = reference::quantizeMultiplier(p.realInput);
  p.output = reference::quantizeMultiplier(p.realOutput);
  p.initialSum =
      loupe_add_sub_rescale_input(0, p.inputOffset, kLeftShift, p.input.multiplier, p.input.shift);
  return p;
}

std::optional<InferredOutput> addNShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* first = graph.input(op, 0);
  if (first == nullptr) return shapeProblem("at least two inputs");
  for (std::size_t slot = 1; slot < op.inputs.size(); ++slot) {
    const ir::Tensor* input = graph.input(op, slot);
    if (input == nullptr || input->shape != first->shape) {
      return shapeProblem("every input of " + tensorText(*first) + "'s shape");
    }
  }
  return shaped(first->shape, {first->dtype});
}

std::optional<std::string> checkAddN(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* first = graph.input(op, 0);
  if (first == nullptr || op.inputs.size() < 2) return "needs at least two inputs";
  const ir::Tensor& output = graph.output(op, 0);
  if (first->dtype != ir::DType::Float32 && first->dtype != ir::DType::Int8) {
    return "input dtype " + reference::describeDtype(first->dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  for (std::size_t slot = 1; slot < op.inputs.size(); ++slot) {
    const ir::Tensor* input = graph.input(op, slot);
    if (input == nullptr || input->shape != first->shape || input->dtype != first->dtype) {
      return "needs every input of " + tensorText(*first) + "'s shape and type" +
             (input ? ", found " + tensorText(*input) : std::string());
    }
  }
  if (output.dtype != first->dtype || output.shape != first->shape) {
    return "output " + tensorText(output) + " must have the inputs' type and shape";
  }
  if (first->dtype != ir::DType::Int8) return std::nullopt;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const ir::Tensor& input = *graph.input(op, slot);
    const std::string role = "input " + std::to_string(slot);
    if (auto problem = reference::checkPerTensorQuantization(role, input)) return problem;
    if (input.quantization.scale() != first->quantization.scale() ||
        input.quantization.zeroPoint() != first->quantization.zeroPoint()) {
      return reference::describeTensor(role, input) +
             " must have input 0's scale and zero point (TFLite Micro requires it)";
    }
  }
  if (auto problem = reference::checkPerTensorQuantization("output", output)) return problem;
  const std::int32_t zeroPoint = first->quantization.zeroPoint();
  if (zeroPoint < -128 || zeroPoint > 127) {
    return "the inputs' zero point " + std::to_string(zeroPoint) + " is outside int8";
  }
  // TFLM's QuantizeMultiplierSmallerThanOneExp accepts only (0, 1).
  const AddNParams p = addNParams(*first, output);
  if (!(p.realOutput > 0.0 && p.realOutput < 1.0)) {
    return "output scale " + std::to_string(output.quantization.scale()) +
           " gives a requantisation multiplier of " + std::to_string(p.realOutput) +
           "; TFLite Micro needs it below 1";
  }
  return std::nullopt;
}

void evalAddN(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Tensor& output = graph.output(op, 0);
  const std::int64_t count = output.elementCount();
  if (output.dtype == ir::DType::Float32) {
    float* out = store.mutableData<float>(op.outputs[0]);
    for (std::int64_t i = 0; i < count; ++i) {
      float sum = 0.0f;
      for (int input : op.inputs) sum += store.data<float>(input)[i];
      out[i] = sum;
    }
    return;
  }
  const AddNParams p = addNParams(*graph.input(op, 0), output);
  auto* out = store.mutableData<std::int8_t>(op.outputs[0]);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int32_t sum = p.initialSum;
    for (int input : op.inputs) {
      sum = loupe_wrapping_add_i32(
          sum, loupe_add_sub_rescale_input(store.data<std::int8_t>(input)[i], p.inputOffset,
                                           kLeftShift, p.input.multiplier, p.input.shift));
    }
    out[i] = static_cast<std::int8_t>(loupe_add_sub_requantize(
        sum, p.output.multiplier, p.output.shift, p.outputOffset, -128, 127));
  }
}

// for i: sum = 0.0f; sum += input_j[i] for each j; out[i] = sum (float32),
// or sum = TFLM's initial sum; sum = wrap(sum + rescaled input_j[i]) for
// each j; out[i] = requantised sum (int8).
tir::PrimFunc lowerAddN(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  const ir::Tensor& output = graph.output(op, 0);
  const bool isFloat = output.dtype == ir::DType::Float32;
  lowering::FunctionBuilder fb(graph, op, functionName);
  std::vector<tir::Buffer> inputs;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    inputs.push_back(fb.input(op.inputs[slot], "input" + std::to_string(slot)));
  }
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Buffer sum =
      fb.local("sum", isFloat ? tir::ScalarType::Float32 : tir::ScalarType::Int32, 1);
  const tir::Var i = tir::makeVar("i");
  const tir::Expr at = tir::intImm(0);
  const tir::Expr current = tir::load(sum, at);
  std::vector<tir::Stmt> steps;
  AddNParams p;
  if (!isFloat) p = addNParams(*graph.input(op, 0), output);
  steps.push_back(tir::store(sum, at, isFloat ? tir::floatImm(0.0) : tir::intImm(p.initialSum)));
  for (const tir::Buffer& input : inputs) {
    const tir::Expr value = tir::load(input, tir::refVar(i));
    if (isFloat) {
      steps.push_back(tir::store(sum, at, current + value));
      continue;
    }
    const tir::Expr rescaled = tir::callIntrinsic(
        "loupe.add_sub_rescale_input", tir::ScalarType::Int32,
        {tir::cast(tir::ScalarType::Int32, value), tir::intImm(p.inputOffset),
         tir::intImm(kLeftShift), tir::intImm(p.input.multiplier), tir::intImm(p.input.shift)});
    steps.push_back(tir::store(
        sum, at,
        tir::callIntrinsic("loupe.wrapping_add_i32", tir::ScalarType::Int32, {current, rescaled})));
  }
  steps.push_back(tir::store(
      out, tir::refVar(i),
      isFloat
          ? current
          : tir::cast(tir::ScalarType::Int8,
                      tir::callIntrinsic(
                          "loupe.add_sub_requantize", tir::ScalarType::Int32,
                          {current, tir::intImm(p.output.multiplier), tir::intImm(p.output.shift),
                           tir::intImm(p.outputOffset), tir::intImm(-128), tir::intImm(127)}))));
  return fb.finish(
      tir::allocate(sum, tir::forLoop(i, tir::intImm(0), tir::intImm(output.elementCount()),
                                      tir::seq(std::move(steps)))));
}

const reference::Kernel kAddNKernel{ir::OpType::AddN, checkAddN, evalAddN};

// One addition per input after the first, per element.
std::int64_t addNMacs(const ir::Graph& graph, const ir::Operator& op) {
  const auto additions = static_cast<std::int64_t>(op.inputs.size()) - 1;
  return additions > 0 ? additions * oneMacPerOutputElement(graph, op) : 0;
}

}  // namespace

extern const OperatorDefinition kAddNDefinition{
    .type = ir::OpType::AddN,
    .dtypes = "float32, int8 (inputs share one scale and zero point)",
    .import = {.minInputs = 2,
               .maxInputs = -1,
               .optionsType = optionsTypeOf<tflite::AddNOptions>(),
               .maxVersion = 1},
    .shape = addNShape,
    .kernel = &kAddNKernel,
    .lower = lowerAddN,
    .macs = addNMacs,
};

}  // namespace loupe::ops
