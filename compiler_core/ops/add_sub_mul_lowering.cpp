// ADD, SUB and MUL -> TIR, with NumPy broadcasting as the reference kernels
// support it. The output is walked in row-major order by one loop per
// dimension after merging the dimensions both inputs read alike (equal shapes
// become one flat loop); a broadcast input reads with stride 0. Quantised
// parameters are immediates computed by the reference's own functions; a
// broadcast operand's rescaled value is bound outside the loops it does not
// depend on, and a constant scalar operand is rescaled at compile time.
#include <cstdint>
#include <functional>
#include <tuple>

#include "loupe/quantized_arith.h"
#include "lowering/lowering_rule.h"
#include "reference/quantized_params.h"
#include "tir/simplify.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// The output's dimensions after merging, with each input's element stride
// along each of them (0 where the input is broadcast).
struct BroadcastNest {
  std::vector<std::int64_t> extents;
  std::vector<std::int64_t> strides1, strides2;
};

BroadcastNest broadcastNest(const ir::Shape& out, const ir::Shape& shape1,
                            const ir::Shape& shape2) {
  const std::size_t rank = out.size();
  auto stridesOf = [&](const ir::Shape& shape) {
    std::vector<std::int64_t> strides(rank, 0);
    std::int64_t stride = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      const std::size_t dim = shape.size() - 1 - k;
      strides[rank - 1 - k] = shape[dim] == 1 ? 0 : stride;
      stride *= shape[dim];
    }
    return strides;
  };
  const auto s1 = stridesOf(shape1), s2 = stridesOf(shape2);
  BroadcastNest nest;
  for (std::size_t d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;  // one position: no loop
    // An outer dimension merges into the inner one when both inputs step
    // through it as a continuation of the inner one (or not at all).
    if (!nest.extents.empty() && nest.strides1.back() == s1[d] * out[d] &&
        nest.strides2.back() == s2[d] * out[d]) {
      nest.extents.back() *= out[d];
      nest.strides1.back() = s1[d];
      nest.strides2.back() = s2[d];
      continue;
    }
    nest.extents.push_back(out[d]);
    nest.strides1.push_back(s1[d]);
    nest.strides2.push_back(s2[d]);
  }
  return nest;
}

enum class BinaryKind { Add, Sub, Mul };

// One operand as the element expression sees it.
struct Operand {
  Expr value;         // the element at the current position (before rescaling)
  bool inner = true;  // whether it changes along the innermost loop
};

// Computes the output element from the two operands' element values.
using Combine = std::function<Expr(const Expr&, const Expr&)>;

// Operand `slot`: an immediate for a constant scalar, else a load.
Expr operandValue(FunctionBuilder& fb, const ir::Graph& graph, const ir::Operator& op,
                  std::size_t slot, const Expr& index) {
  const ir::Tensor& t = *graph.input(op, slot);
  const std::string role = slot == 0 ? "input1" : "input2";
  if (t.isConstant && t.elementCount() == 1) {
    switch (t.dtype) {
      case ir::DType::Float32:
        return floatImm(tensorValues<float>(t).at(0));
      case ir::DType::Int8:
        return intImm(tensorValues<std::int8_t>(t).at(0), ScalarType::Int8);
      case ir::DType::Int16:
        return intImm(tensorValues<std::int16_t>(t).at(0), ScalarType::Int16);
      default:
        return intImm(tensorValues<std::int32_t>(t).at(0));
    }
  }
  return load(fb.input(op.inputs[slot], role), index);
}

PrimFunc lowerBinary(BinaryKind kind, const ir::Graph& graph, const ir::Operator& op,
                     const std::string& functionName) {
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attributes);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  FunctionBuilder fb(graph, op, functionName);
  const BroadcastNest nest = broadcastNest(output.shape, input1.shape, input2.shape);

  std::vector<Var> vars;
  Expr outIndex = 0, index1 = 0, index2 = 0;
  for (std::size_t d = 0; d < nest.extents.size(); ++d) {
    vars.push_back(loopVar("i" + std::to_string(d)));
    const Expr v = refVar(vars.back());
    outIndex = outIndex * static_cast<int>(nest.extents[d]) + v;
    index1 = index1 + v * static_cast<int>(nest.strides1[d]);
    index2 = index2 + v * static_cast<int>(nest.strides2[d]);
  }
  // Parameters in the order of the graph operands.
  Operand a{operandValue(fb, graph, op, 0, foldConstants(index1)),
            nest.extents.empty() || nest.strides1.back() != 0};
  Operand b{operandValue(fb, graph, op, 1, foldConstants(index2)),
            nest.extents.empty() || nest.strides2.back() != 0};
  Buffer out = fb.param(op.outputs[0], "output", true);

  // Per-element arithmetic. `rescale` maps an operand's element to what the
  // combination reads (quantised ADD/SUB: its value on the common scale; MUL:
  // its value minus the zero point).
  std::function<Expr(const Expr&, int)> rescale = [](const Expr& v, int) { return v; };
  Combine combine;
  switch (output.dtype) {
    case ir::DType::Float32: {
      const reference::FloatRange range = reference::floatActivationRange(attrs.activation);
      combine = [kind, range](const Expr& x, const Expr& y) {
        const Expr value = kind == BinaryKind::Add   ? x + y
                           : kind == BinaryKind::Sub ? x - y
                                                     : x * y;
        return callIntrinsic("loupe.clamp_f32", ScalarType::Float32,
                             {value, floatImm(range.min), floatImm(range.max)});
      };
      break;
    }
    case ir::DType::Int32: {
      if (kind == BinaryKind::Add) {
        // Wraps like TFLite's two's-complement sum; no fused activation.
        combine = [](const Expr& x, const Expr& y) {
          return callIntrinsic("loupe.wrapping_add_i32", ScalarType::Int32, {x, y});
        };
        break;
      }
      const reference::IntRange range = reference::int32ActivationRange(attrs.activation);
      combine = [kind, range](const Expr& x, const Expr& y) {
        // The low 32 bits of the difference or product, as the reference
        // keeps them.
        const Expr wide = kind == BinaryKind::Sub
                              ? cast(ScalarType::Int64, x) - cast(ScalarType::Int64, y)
                              : cast(ScalarType::Int64, x) * cast(ScalarType::Int64, y);
        Expr value = cast(ScalarType::Int32, wide);
        if (range.min == INT32_MIN && range.max == INT32_MAX) return value;
        return callIntrinsic("loupe.clamp_i32", ScalarType::Int32,
                             {value, intImm(range.min), intImm(range.max)});
      };
      break;
    }
    default: {
      if (kind == BinaryKind::Mul) {
        const loupe_mul_params p = reference::mulParams(input1, input2, output, attrs.activation);
        rescale = [p](const Expr& v, int slot) {
          return foldConstants(v + (slot == 0 ? p.input1_offset : p.input2_offset));
        };
        combine = [p](const Expr& x, const Expr& y) {
          return callIntrinsic(
              "loupe.requantize_i32", ScalarType::Int32,
              {x * y, p.output_multiplier, p.output_shift, p.output_offset, p.act_min, p.act_max});
        };
        break;
      }
      const loupe_add_sub_params p =
          reference::addSubParams(op.type, input1, input2, output, attrs.activation);
      rescale = [p](const Expr& v, int slot) {
        const std::int32_t offset = slot == 0 ? p.input1_offset : p.input2_offset;
        const std::int32_t multiplier = slot == 0 ? p.input1_multiplier : p.input2_multiplier;
        const int shift = slot == 0 ? p.input1_shift : p.input2_shift;
        if (isIntImm(v)) {
          return intImm(loupe_add_sub_rescale_input(static_cast<std::int32_t>(v->intValue), offset,
                                                    p.left_shift, multiplier, shift));
        }
        return callIntrinsic("loupe.add_sub_rescale_input", ScalarType::Int32,
                             {v, offset, p.left_shift, multiplier, shift});
      };
      combine = [kind, p](const Expr& x, const Expr& y) {
        return callIntrinsic("loupe.add_sub_requantize", ScalarType::Int32,
                             {kind == BinaryKind::Add ? x + y : x - y, p.output_multiplier,
                              p.output_shift, p.output_offset, p.act_min, p.act_max});
      };
      break;
    }
  }

  const ScalarType valueType =
      output.dtype == ir::DType::Float32 ? ScalarType::Float32 : ScalarType::Int32;
  Expr x = rescale(foldConstants(cast(valueType, a.value)), 0);
  Expr y = rescale(foldConstants(cast(valueType, b.value)), 1);
  // An operand that does not change along the innermost loop is bound in a
  // Let first, so hoisting moves it out of the loops it does not depend on.
  std::vector<std::pair<Var, Expr>> lets;
  for (auto [operand, expr, name] : {std::tuple{&a, &x, "lhs"}, std::tuple{&b, &y, "rhs"}}) {
    if (operand->inner || isIntImm(*expr) || (*expr)->kind == ExprKind::FloatImm) continue;
    Var v = makeVar(name, valueType);
    lets.emplace_back(v, *expr);
    *expr = refVar(v);
  }
  Stmt body = store(out, foldConstants(outIndex), cast(out->type, combine(x, y)));
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) body = let(it->first, it->second, body);
  for (std::size_t d = nest.extents.size(); d-- > 0;) {
    body = forLoop(vars[d], 0, static_cast<int>(nest.extents[d]), body);
  }
  return fb.finish(body);
}

}  // namespace

PrimFunc lowerAdd(const ir::Graph& graph, const ir::Operator& op, const std::string& functionName) {
  return lowerBinary(BinaryKind::Add, graph, op, functionName);
}

PrimFunc lowerSub(const ir::Graph& graph, const ir::Operator& op, const std::string& functionName) {
  return lowerBinary(BinaryKind::Sub, graph, op, functionName);
}

PrimFunc lowerMul(const ir::Graph& graph, const ir::Operator& op, const std::string& functionName) {
  return lowerBinary(BinaryKind::Mul, graph, op, functionName);
}

}  // namespace loupe::lowering
