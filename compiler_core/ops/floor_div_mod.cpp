// FLOOR_DIV and FLOOR_MOD: the quotient rounded toward minus infinity and
// its remainder (which takes the divisor's sign), element-wise with NumPy
// broadcasting. TFLite Micro runs both on float32 only; int32, which models
// use for index arithmetic (movenet's FLOOR_DIV), follows TFLite's kernels,
// whose formulas are the same:
//   FLOOR_DIV  floor(double(a) / double(b)) in the element type. TFLM checks
//              every divisor first and fails on a zero (also -0.0); so does
//              Loupe: the reference throws, the generated C returns an error
//              status, before any output is written. For int32 the double
//              floor is the exact floor of a / b.
//   FLOOR_MOD  r = fmodf(a, b) (float32) or C's a % b (int32), plus b when r
//              is nonzero and its sign differs from b's. float32 divisors are
//              not checked (a zero gives NaN); int32 zeros fail, as in TFLite.
// The generated C has no double type, so float32 FLOOR_DIV corrects the float
// quotient t = a / b with the exact remainder fmodf(a, b): where t is an
// integer that the division rounded up past the exact quotient, the floor is
// t - 1 (this is why TFLM's -9.9 / -3.3 gives 2, not floorf(3.0f)). The
// reference computes the same, which is TFLM's result for zeros, infinities,
// NaN and every quotient below 2^24 in magnitude; above, where float32 holds
// only integers, the result is t, which may be one float step above TFLM's.
// int32 extremes TFLite leaves undefined: INT32_MIN floor-divided by -1 gives
// INT32_MIN (wrapped) and INT32_MIN modulo -1 gives 0.
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "loupe/float_math.h"
#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/divisor_check.h"
#include "ops/elementwise_binary_common.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::ops {

namespace {

// Float32 quotients from here on are integers: the float32 correction stops.
constexpr float kIntegralQuotients = 16777216.0f;  // 2^24

std::optional<InferredOutput> broadcastShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op);
}

// --- element functions (the reference; the lowering builds the same) -----------

float absolute(float x) {
  return x < 0.0f ? 0.0f - x : x;
}

// RN(floor(a / b)) from float arithmetic (see the header).
float flooredQuotient(float a, float b) {
  const float quotient = a / b;
  const float floored = loupe_floorf(quotient);
  const float remainder = loupe_fmodf(a, b);
  const bool positive = a < 0.0f ? b < 0.0f : b > 0.0f;
  const float twiceRemainder = absolute(remainder) * 2.0f;
  const bool roundedUp = positive ? twiceRemainder > absolute(b) : twiceRemainder < absolute(b);
  const bool corrected = floored == quotient && remainder != 0.0f &&
                         absolute(quotient) < kIntegralQuotients && absolute(b) < INFINITY &&
                         roundedUp;
  return corrected ? quotient - 1.0f : floored;
}

std::int32_t flooredQuotient(std::int32_t a, std::int32_t b) {
  if (b == -1) return static_cast<std::int32_t>(-static_cast<std::int64_t>(a));
  const std::int32_t quotient = a / b, remainder = a % b;
  return remainder != 0 && (remainder < 0) != (b < 0) ? quotient - 1 : quotient;
}

float flooredRemainder(float a, float b) {
  const float remainder = loupe_fmodf(a, b);
  return remainder != 0.0f && (remainder < 0.0f) != (b < 0.0f) ? remainder + b : remainder;
}

std::int32_t flooredRemainder(std::int32_t a, std::int32_t b) {
  if (b == -1) return 0;
  const std::int32_t remainder = a % b;
  return remainder != 0 && (remainder < 0) != (b < 0) ? remainder + b : remainder;
}

// Which divisors fail the operator.
template <bool kFloorDiv>
bool checksDivisors(ir::DType dtype) {
  return kFloorDiv || dtype == ir::DType::Int32;
}

const char* operatorName(bool floorDiv) {
  return floorDiv ? "FLOOR_DIV" : "FLOOR_MOD";
}

// --- check and reference --------------------------------------------------------

std::optional<std::string> checkFloorOperands(const ir::Graph& graph, const ir::Operator& op) {
  return reference::checkBinaryOperands(graph, op, {ir::DType::Float32, ir::DType::Int32});
}

template <typename T>
void requireNonZeroDivisors(const ir::Graph& graph, const ir::Operator& op,
                            const reference::TensorStore& store, bool floorDiv) {
  const T* divisors = store.data<T>(op.inputs[1]);
  const std::int64_t count = graph.tensor(op.inputs[1]).elementCount();
  for (std::int64_t i = 0; i < count; ++i) {
    if (divisors[i] == T(0)) {
      throw std::out_of_range("#" + std::to_string(op.index) + " " + operatorName(floorDiv) +
                              ": input2 element " + std::to_string(i) + " is a zero divisor");
    }
  }
}

template <bool kFloorDiv, typename T>
void evalTyped(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  if (checksDivisors<kFloorDiv>(graph.input(op, 0)->dtype)) {
    requireNonZeroDivisors<T>(graph, op, store, kFloorDiv);
  }
  reference::evalBinaryBroadcast<T>(graph, op, store, [](T a, T b) {
    return kFloorDiv ? flooredQuotient(a, b) : flooredRemainder(a, b);
  });
}

template <bool kFloorDiv>
void evalFloor(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  if (graph.input(op, 0)->dtype == ir::DType::Float32) {
    evalTyped<kFloorDiv, float>(graph, op, store);
  } else {
    evalTyped<kFloorDiv, std::int32_t>(graph, op, store);
  }
}

// --- lowering -----------------------------------------------------------------

using tir::Expr;

Expr absolute(const Expr& x) {
  return tir::select(x < tir::floatImm(0.0), tir::floatImm(0.0) - x, x);
}

Expr floatCall(const char* name, std::vector<Expr> args) {
  return tir::callIntrinsic(name, tir::ScalarType::Float32, std::move(args));
}

// The element statements of one output element from dividend x and divisor y
// (both bound to variables), as the element functions above compute it.
tir::Stmt floorDivFloat(const tir::Buffer& out, const Expr& at, const Expr& x, const Expr& y) {
  const tir::Var quotient = tir::makeVar("quotient", tir::ScalarType::Float32),
                 floored = tir::makeVar("floored", tir::ScalarType::Float32),
                 remainder = tir::makeVar("remainder", tir::ScalarType::Float32);
  const Expr t = tir::refVar(quotient), f = tir::refVar(floored), r = tir::refVar(remainder);
  const Expr zero = tir::floatImm(0.0);
  const Expr positive = tir::select(x < zero, y<zero, y> zero);
  const Expr twiceRemainder = absolute(r) * tir::floatImm(2.0);
  const Expr roundedUp =
      tir::select(positive, twiceRemainder > absolute(y), twiceRemainder < absolute(y));
  Expr corrected = tir::logicalAnd(tir::eq(f, t), tir::ne(r, zero));
  corrected = tir::logicalAnd(corrected, absolute(t) < tir::floatImm(kIntegralQuotients));
  corrected = tir::logicalAnd(corrected, absolute(y) < tir::floatImm(INFINITY));
  corrected = tir::logicalAnd(corrected, roundedUp);
  return tir::let(
      quotient, x / y,
      tir::let(floored, floatCall("loupe.floorf", {t}),
               tir::let(remainder, floatCall("loupe.fmodf", {x, y}),
                        tir::store(out, at, tir::select(corrected, t - tir::floatImm(1.0), f)))));
}

// INT32_MIN / -1 without C's overflow: -x in 64 bits, wrapped back.
Expr wrappedNegation(const Expr& x) {
  return tir::cast(tir::ScalarType::Int32,
                   tir::intImm(0, tir::ScalarType::Int64) - tir::cast(tir::ScalarType::Int64, x));
}

tir::Stmt floorDivInt32(const tir::Buffer& out, const Expr& at, const Expr& x, const Expr& y) {
  const tir::Var remainder = tir::makeVar("remainder");
  const Expr r = tir::refVar(remainder), zero = tir::intImm(0);
  const Expr byMinusOne = tir::eq(y, tir::intImm(-1));
  const Expr adjust = tir::logicalAnd(tir::ne(r, zero), tir::ne(r < zero, y < zero));
  const Expr floored = x / y - tir::select(adjust, tir::intImm(1), zero);
  // C leaves INT32_MIN / -1 and INT32_MIN % -1 undefined: -1 takes its own path.
  return tir::let(remainder, tir::select(byMinusOne, zero, x % y),
                  tir::store(out, at, tir::select(byMinusOne, wrappedNegation(x), floored)));
}

tir::Stmt floorModFloat(const tir::Buffer& out, const Expr& at, const Expr& x, const Expr& y) {
  const tir::Var remainder = tir::makeVar("remainder", tir::ScalarType::Float32);
  const Expr r = tir::refVar(remainder), zero = tir::floatImm(0.0);
  const Expr adjust = tir::logicalAnd(tir::ne(r, zero), tir::ne(r < zero, y < zero));
  return tir::let(remainder, floatCall("loupe.fmodf", {x, y}),
                  tir::store(out, at, tir::select(adjust, r + y, r)));
}

tir::Stmt floorModInt32(const tir::Buffer& out, const Expr& at, const Expr& x, const Expr& y) {
  const tir::Var remainder = tir::makeVar("remainder");
  const Expr r = tir::refVar(remainder), zero = tir::intImm(0);
  const Expr adjust = tir::logicalAnd(tir::ne(r, zero), tir::ne(r < zero, y < zero));
  // x % -1 is 0, and C leaves INT32_MIN % -1 undefined.
  return tir::let(remainder, tir::select(tir::eq(y, tir::intImm(-1)), zero, x % y),
                  tir::store(out, at, tir::select(adjust, r + y, r)));
}

template <bool kFloorDiv>
tir::PrimFunc lowerFloor(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  const ir::Tensor& input1 = *graph.input(op, 0);
  const bool isFloat = input1.dtype == ir::DType::Float32;
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer dividends = fb.input(op.inputs[0], "input1");
  const tir::Buffer divisors = fb.input(op.inputs[1], "input2");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  std::vector<tir::Stmt> body;
  if (checksDivisors<kFloorDiv>(input1.dtype)) body = zeroDivisorCheck(graph, op, divisors);
  body.push_back(broadcastLoops(
      graph.output(op, 0).shape, input1.shape, graph.input(op, 1)->shape,
      [&](const Expr& o, const Expr& i1, const Expr& i2) {
        const tir::ScalarType type = out->type;
        const tir::Var dividend = tir::makeVar("dividend", type),
                       divisor = tir::makeVar("divisor", type);
        const Expr x = tir::refVar(dividend), y = tir::refVar(divisor);
        const tir::Stmt element =
            kFloorDiv ? (isFloat ? floorDivFloat(out, o, x, y) : floorDivInt32(out, o, x, y))
                      : (isFloat ? floorModFloat(out, o, x, y) : floorModInt32(out, o, x, y));
        // The divisor first: a broadcast one is then hoisted out of the loops.
        return tir::let(divisor, tir::load(divisors, i2),
                        tir::let(dividend, tir::load(dividends, i1), element));
      }));
  return fb.finish(tir::seq(body));
}

const reference::Kernel kFloorDivKernel{ir::OpType::FloorDiv, checkFloorOperands, evalFloor<true>};
const reference::Kernel kFloorModKernel{ir::OpType::FloorMod, checkFloorOperands, evalFloor<false>};

}  // namespace

extern const OperatorDefinition kFloorDivDefinition{
    .type = ir::OpType::FloorDiv,
    .dtypes = "float32, int32 (same type for inputs and output)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::FloorDivOptions>(),
               .maxVersion = 2},
    .shape = broadcastShape,
    .kernel = &kFloorDivKernel,
    .lower = lowerFloor<true>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kFloorModDefinition{
    .type = ir::OpType::FloorMod,
    .dtypes = "float32, int32 (same type for inputs and output)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::FloorModOptions>(),
               .maxVersion = 1},
    .shape = broadcastShape,
    .kernel = &kFloorModKernel,
    .lower = lowerFloor<false>,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
