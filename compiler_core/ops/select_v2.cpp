// SELECT_V2: output = condition ? x : y element by element, the three
// operands broadcast against each other (NumPy rules), as TFLite Micro
// computes it. The condition is bool (one byte, true when non-zero); x, y
// and the output share one element type (float32, int8 or int16) and the
// stored values are copied as they are: TFLM ignores any quantisation.
// TFLM's quirk: when the condition, x, y and the output each hold one
// element, the output keeps its declared shape even where broadcasting
// would give another (a scalar output for [1]-shaped operands).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/strides.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

struct SelectOperands {
  const ir::Tensor* condition = nullptr;
  const ir::Tensor* x = nullptr;
  const ir::Tensor* y = nullptr;
};

SelectOperands operandsOf(const ir::Graph& graph, const ir::Operator& op) {
  return {graph.input(op, 0), graph.input(op, 1), graph.input(op, 2)};
}

// TFLM's scalar exception: every operand and the output hold one element.
bool isMixedScalar(const SelectOperands& in, const ir::Tensor& output) {
  return in.condition->elementCount() == 1 && in.x->elementCount() == 1 &&
         in.y->elementCount() == 1 && output.elementCount() == 1;
}

std::optional<ir::Shape> broadcastOfThree(const SelectOperands& in) {
  const auto conditionAndX = reference::broadcastShape(in.condition->shape, in.x->shape);
  if (!conditionAndX) return std::nullopt;
  return reference::broadcastShape(*conditionAndX, in.y->shape);
}

std::string operandsText(const SelectOperands& in) {
  return tensorText(*in.condition) + ", " + tensorText(*in.x) + " and " + tensorText(*in.y);
}

std::optional<InferredOutput> selectShape(const ir::Graph& graph, const ir::Operator& op) {
  const SelectOperands in = operandsOf(graph, op);
  if (in.condition == nullptr || in.x == nullptr || in.y == nullptr) {
    return shapeProblem("three inputs");
  }
  const ir::Tensor& output = graph.output(op, 0);
  if (isMixedScalar(in, output)) return shaped(output.shape, {in.x->dtype});
  const auto shape = broadcastOfThree(in);
  if (!shape) return shapeProblem(operandsText(in) + " to broadcast");
  return shaped(*shape, {in.x->dtype});
}

std::optional<std::string> checkSelect(const ir::Graph& graph, const ir::Operator& op) {
  const SelectOperands in = operandsOf(graph, op);
  if (in.condition == nullptr || in.x == nullptr || in.y == nullptr) {
    return "needs three inputs";
  }
  const ir::Tensor& output = graph.output(op, 0);
  if (in.condition->dtype != ir::DType::Bool) {
    return reference::describeTensor("condition", *in.condition) + " must be bool";
  }
  const ir::DType type = in.x->dtype;
  if (type != ir::DType::Float32 && type != ir::DType::Int8 && type != ir::DType::Int16) {
    return "x dtype " + reference::describeDtype(type) +
           " is not supported (expected float32, int8 or int16)";
  }
  if (in.y->dtype != type || output.dtype != type) {
    return "x, y and the output must share one element type, found " + tensorText(*in.x) + ", " +
           tensorText(*in.y) + " and " + tensorText(output);
  }
  if (isMixedScalar(in, output)) return std::nullopt;
  const auto shape = broadcastOfThree(in);
  if (!shape || *shape != output.shape) {
    return "output " + tensorText(output) + " is not the broadcast of " + operandsText(in);
  }
  return std::nullopt;
}

// The output, then the condition, x and y: one stride vector per operand.
struct SelectStrides {
  std::vector<std::int64_t> output, condition, x, y;
};

SelectStrides stridesOf(const ir::Graph& graph, const ir::Operator& op) {
  const SelectOperands in = operandsOf(graph, op);
  const ir::Shape& out = graph.output(op, 0).shape;
  SelectStrides s;
  s.output.assign(out.size(), 1);
  for (std::size_t d = out.size(); d-- > 1;) s.output[d - 1] = s.output[d] * out[d];
  s.condition = broadcastStrides(in.condition->shape, out.size());
  s.x = broadcastStrides(in.x->shape, out.size());
  s.y = broadcastStrides(in.y->shape, out.size());
  return s;
}

// --- reference evaluation -----------------------------------------------------

// Calls visit(output, condition, x, y) with the element indices of every
// output element in row-major order.
template <typename Visit>
void forEachSelectElement(const ir::Shape& out, const SelectStrides& s, Visit&& visit) {
  const std::size_t rank = out.size();
  const std::int64_t total = ir::elementCount(out);
  std::vector<std::int32_t> counter(rank, 0);
  std::int64_t c = 0, x = 0, y = 0;
  for (std::int64_t o = 0; o < total; ++o) {
    visit(o, c, x, y);
    // Advance the row-major counter and the operands' indices with it.
    for (std::size_t k = rank; k-- > 0;) {
      ++counter[k];
      c += s.condition[k];
      x += s.x[k];
      y += s.y[k];
      if (counter[k] < out[k]) break;
      c -= s.condition[k] * counter[k];
      x -= s.x[k] * counter[k];
      y -= s.y[k] * counter[k];
      counter[k] = 0;
    }
  }
}

template <typename T>
void evalTyped(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto* condition = store.data<std::uint8_t>(op.inputs[0]);
  const T* x = store.data<T>(op.inputs[1]);
  const T* y = store.data<T>(op.inputs[2]);
  T* out = store.mutableData<T>(op.outputs[0]);
  forEachSelectElement(graph.output(op, 0).shape, stridesOf(graph, op),
                       [&](std::int64_t o, std::int64_t c, std::int64_t i, std::int64_t j) {
                         out[o] = condition[c] != 0 ? x[i] : y[j];
                       });
}

void evalSelect(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  switch (graph.tensor(op.inputs[1]).dtype) {
    case ir::DType::Float32:
      return evalTyped<float>(graph, op, store);
    case ir::DType::Int8:
      return evalTyped<std::int8_t>(graph, op, store);
    default:
      return evalTyped<std::int16_t>(graph, op, store);
  }
}

// --- lowering -------------------------------------------------------------------

using SelectBody = std::function<tir::Stmt(const tir::Expr& output, const tir::Expr& condition,
                                           const tir::Expr& x, const tir::Expr& y)>;

// broadcastLoops for three operands: one flat loop when all shapes equal the
// output's, else one loop per output dimension longer than 1 (none in the
// scalar exception), each operand indexed with its broadcast strides.
tir::Stmt selectLoops(const ir::Graph& graph, const ir::Operator& op, const SelectBody& body) {
  const SelectOperands in = operandsOf(graph, op);
  const ir::Shape& out = graph.output(op, 0).shape;
  if (in.condition->shape == out && in.x->shape == out && in.y->shape == out) {
    return flatLoop(ir::elementCount(out), [&](const tir::Expr& i) { return body(i, i, i, i); });
  }
  const SelectStrides s = stridesOf(graph, op);
  std::vector<tir::Var> counters;
  std::vector<std::size_t> dims;
  tir::Expr o = tir::intImm(0), c = tir::intImm(0), x = tir::intImm(0), y = tir::intImm(0);
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    counters.push_back(tir::makeVar("i" + std::to_string(d)));
    dims.push_back(d);
    const tir::Expr i = tir::refVar(counters.back());
    o = o + i * tir::intImm(s.output[d]);
    c = c + i * tir::intImm(s.condition[d]);
    x = x + i * tir::intImm(s.x[d]);
    y = y + i * tir::intImm(s.y[d]);
  }
  tir::Stmt nest = body(o, c, x, y);
  for (std::size_t k = counters.size(); k-- > 0;) {
    nest = tir::forLoop(counters[k], tir::intImm(0), tir::intImm(out[dims[k]]), nest);
  }
  return nest;
}

tir::PrimFunc lowerSelect(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer condition = fb.input(op.inputs[0], "condition");
  const tir::Buffer x = fb.input(op.inputs[1], "x");
  const tir::Buffer y = fb.input(op.inputs[2], "y");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Stmt body = selectLoops(
      graph, op,
      [&](const tir::Expr& o, const tir::Expr& c, const tir::Expr& i, const tir::Expr& j) {
        const tir::Expr holds = tir::ne(tir::load(condition, c), tir::intImm(0));
        return tir::store(out, o, tir::select(holds, tir::load(x, i), tir::load(y, j)));
      });
  return fb.finish(body);
}

const reference::Kernel kSelectV2Kernel{ir::OpType::SelectV2, checkSelect, evalSelect};

}  // namespace

extern const OperatorDefinition kSelectV2Definition{
    .type = ir::OpType::SelectV2,
    .dtypes = "bool condition; float32, int8, int16 values",
    .import = {.minInputs = 3,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::SelectV2Options>(),
               .maxVersion = 2},
    .shape = selectShape,
    .kernel = &kSelectV2Kernel,
    .lower = lowerSelect,
};

}  // namespace loupe::ops
