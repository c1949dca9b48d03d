#include "ops/divisor_check.h"

#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"

namespace loupe::ops {

namespace {

template <typename T>
bool holds(const ir::Tensor& tensor, std::int64_t value) {
  for (T v : lowering::tensorValues<T>(tensor)) {
    if (v == static_cast<T>(value)) return true;
  }
  return false;
}

// loupe.check_index passes index 0 and fails index 1 against a limit of 1.
tir::Stmt failWhen(const tir::Expr& condition) {
  return tir::evaluateChecked(
      tir::callIntrinsic("loupe.check_index", tir::ScalarType::Int32,
                         {tir::select(condition, tir::intImm(1), tir::intImm(0)), tir::intImm(1)}));
}

}  // namespace

std::vector<tir::Stmt> zeroDivisorCheck(const ir::Graph& graph, const ir::Operator& op,
                                        const tir::Buffer& divisors, std::int64_t zero) {
  const ir::Tensor& input2 = *graph.input(op, 1);
  const bool isFloat = input2.dtype == ir::DType::Float32;
  if (input2.isConstant) {
    const bool hasZero = isFloat                            ? holds<float>(input2, zero)
                         : input2.dtype == ir::DType::Int32 ? holds<std::int32_t>(input2, zero)
                                                            : holds<std::int8_t>(input2, zero);
    if (!hasZero) return {};
  }
  return {flatLoop(input2.elementCount(), [&](const tir::Expr& i) {
    const tir::Expr divisor = tir::load(divisors, i);
    return failWhen(isFloat
                        ? tir::eq(divisor, tir::floatImm(static_cast<double>(zero)))
                        : tir::eq(tir::cast(tir::ScalarType::Int32, divisor), tir::intImm(zero)));
  })};
}

}  // namespace loupe::ops
