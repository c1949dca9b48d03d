// PAD and PADV2 -> TIR: a copy of the input into the middle of the output and
// fills of the pad value around it. Dimensions without padding merge into the
// dimension outside them, so the innermost copy is as long as possible; for
// every remaining dimension the padding before and after is one contiguous
// run of output elements (one fill loop each). The paddings must be constant
// (the reference kernel's check says so); the pad value is the constant value
// operand when there is one, else the output zero point for int8 and 0.
#include <cstdint>
#include <vector>

#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

namespace {

struct PadDim {
  std::int64_t in = 0, before = 0, after = 0;
  std::int64_t out() const { return before + in + after; }
};

std::vector<PadDim> mergedPadDims(const ir::Shape& inShape, const std::vector<std::int32_t>& pads) {
  std::vector<PadDim> dims;
  for (std::size_t d = 0; d < inShape.size(); ++d) {
    const PadDim dim{inShape[d], pads[2 * d], pads[2 * d + 1]};
    if (!dims.empty() && dim.before == 0 && dim.after == 0) {
      PadDim& outer = dims.back();
      outer.in *= dim.in;
      outer.before *= dim.in;
      outer.after *= dim.in;
      continue;
    }
    dims.push_back(dim);
  }
  if (dims.empty()) dims.push_back({1, 0, 0});  // a scalar
  return dims;
}

struct PadLowering {
  std::vector<PadDim> dims;
  Buffer in, out;
  Expr value;

  std::int64_t outStride(std::size_t d) const {
    std::int64_t stride = 1;
    for (std::size_t k = d + 1; k < dims.size(); ++k) stride *= dims[k].out();
    return stride;
  }
  std::int64_t inStride(std::size_t d) const {
    std::int64_t stride = 1;
    for (std::size_t k = d + 1; k < dims.size(); ++k) stride *= dims[k].in;
    return stride;
  }

  Stmt fill(const Expr& first, std::int64_t count) const {
    Var j = loopVar("j");
    return forLoop(j, 0, static_cast<int>(count), store(out, first + refVar(j), value));
  }

  // Output block of dimension d starting at outBase, input block at inBase.
  Stmt block(std::size_t d, const Expr& outBase, const Expr& inBase) const {
    const PadDim& dim = dims[d];
    const std::int64_t os = outStride(d), is = inStride(d);
    Var i = loopVar("i" + std::to_string(d));
    const Expr outAt = outBase + (refVar(i) + static_cast<int>(dim.before)) * static_cast<int>(os);
    const Expr inAt = inBase + refVar(i) * static_cast<int>(is);
    Stmt inner =
        d + 1 == dims.size() ? store(out, outAt, load(in, inAt)) : block(d + 1, outAt, inAt);
    return seq({fill(outBase, dim.before * os), forLoop(i, 0, static_cast<int>(dim.in), inner),
                fill(outBase + static_cast<int>((dim.before + dim.in) * os), dim.after * os)});
  }
};

}  // namespace

PrimFunc lowerPad(const ir::Graph& graph, const ir::Operator& op, const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& paddings = *graph.input(op, 1);
  const ir::Tensor* constantValue = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!paddings.isConstant) fail(op, "paddings must be a constant tensor to compile to C");
  FunctionBuilder fb(graph, op, functionName);
  PadLowering p;
  p.in = fb.input(op.inputs[0], "input");
  p.dims = mergedPadDims(input.shape, tensorValues<std::int32_t>(paddings));
  const ScalarType type = fromDType(output.dtype);
  if (constantValue != nullptr && constantValue->isConstant) {
    switch (type) {
      case ScalarType::Float32:
        p.value = floatImm(tensorValues<float>(*constantValue).at(0));
        break;
      case ScalarType::Int8:
        p.value = intImm(tensorValues<std::int8_t>(*constantValue).at(0), type);
        break;
      case ScalarType::Int16:
        p.value = intImm(tensorValues<std::int16_t>(*constantValue).at(0), type);
        break;
      default:
        p.value = intImm(tensorValues<std::int32_t>(*constantValue).at(0), type);
        break;
    }
  } else if (constantValue != nullptr) {
    p.value = load(fb.param(op.inputs[2], "pad_value", false), 0);
  } else if (type == ScalarType::Float32) {
    p.value = floatImm(0.0);
  } else {
    // int8 pads with the output zero point; int16 is symmetric and int32
    // unquantised, where TFLite Micro pads with 0.
    p.value = intImm(type == ScalarType::Int8 ? output.quantization.zeroPoint() : 0, type);
  }
  p.out = fb.param(op.outputs[0], "output", true);
  return fb.finish(p.block(0, 0, 0));
}

}  // namespace loupe::lowering
