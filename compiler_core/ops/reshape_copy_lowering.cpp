// RESHAPE, SQUEEZE and EXPAND_DIMS -> TIR when they need a function (their
// output is a model output, or their input a constant): an element copy,
// since the bytes do not change, only the shape.
#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

PrimFunc lowerCopy(const ir::Graph& graph, const ir::Operator& op,
                   const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != output.dtype) {
    fail(op, "input and output element types differ (" + std::string(ir::dtypeName(input.dtype)) +
                 ", " + std::string(ir::dtypeName(output.dtype)) + "); a copy keeps the type");
  }
  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.input(op.inputs[0], "input");
  Buffer out = fb.param(op.outputs[0], "output", true);
  Var i = loopVar("i");
  return fb.finish(forLoop(i, 0, static_cast<int>(output.elementCount()),
                           store(out, refVar(i), load(in, refVar(i)))));
}

}  // namespace loupe::lowering
