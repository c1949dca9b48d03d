#include "ops/broadcast_loops.h"

#include <string>
#include <vector>

#include "lowering/lowering_support.h"
#include "ops/strides.h"

namespace loupe::ops {

tir::Stmt flatLoop(std::int64_t elements, const std::function<tir::Stmt(const tir::Expr&)>& body) {
  const tir::Var i = tir::makeVar("i");
  return tir::forLoop(i, tir::intImm(0), tir::intImm(elements), body(tir::refVar(i)));
}

tir::Stmt broadcastLoops(const ir::Shape& out, const ir::Shape& a, const ir::Shape& b,
                         const BroadcastBody& body) {
  if (a == out && b == out) {
    return flatLoop(ir::elementCount(out), [&](const tir::Expr& i) { return body(i, i, i); });
  }
  const std::size_t rank = out.size();
  const auto aStrides = broadcastStrides(a, rank);
  const auto bStrides = broadcastStrides(b, rank);
  std::vector<std::int64_t> outStrides(rank, 1);
  for (std::size_t d = rank; d-- > 1;) outStrides[d - 1] = outStrides[d] * out[d];
  std::vector<tir::Var> counters;
  std::vector<std::size_t> dims;
  tir::Expr outAt = tir::intImm(0), aAt = tir::intImm(0), bAt = tir::intImm(0);
  for (std::size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    counters.push_back(tir::makeVar("i" + std::to_string(d)));
    dims.push_back(d);
    const tir::Expr i = tir::refVar(counters.back());
    outAt = outAt + i * tir::intImm(outStrides[d]);
    aAt = aAt + i * tir::intImm(aStrides[d]);
    bAt = bAt + i * tir::intImm(bStrides[d]);
  }
  tir::Stmt nest = body(outAt, aAt, bAt);
  for (std::size_t k = counters.size(); k-- > 0;) {
    nest = tir::forLoop(counters[k], tir::intImm(0), tir::intImm(out[dims[k]]), nest);
  }
  return nest;
}

tir::PrimFunc lowerBroadcastBinary(
    const ir::Graph& graph, const ir::Operator& op, const std::string& functionName,
    const std::function<tir::Expr(const tir::Expr& a, const tir::Expr& b)>& value) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer a = fb.input(op.inputs[0], "input1");
  const tir::Buffer b = fb.input(op.inputs[1], "input2");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(broadcastLoops(
      graph.output(op, 0).shape, graph.tensor(op.inputs[0]).shape, graph.tensor(op.inputs[1]).shape,
      [&](const tir::Expr& o, const tir::Expr& i1, const tir::Expr& i2) {
        return tir::store(out, o, value(tir::load(a, i1), tir::load(b, i2)));
      }));
}

}  // namespace loupe::ops
