#include "lowering/strided_copy.h"

#include <algorithm>
#include <string>

#include "lowering/lowering_support.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Innermost runs up to this long become straight-line code: a few loads and
// stores cost less than the loop around them.
constexpr std::int64_t kUnrolledRun = 8;

}  // namespace

std::vector<CopyAxis> simplifyCopyAxes(const std::vector<CopyAxis>& axes) {
  const bool empty =
      std::any_of(axes.begin(), axes.end(), [](const CopyAxis& a) { return a.extent == 0; });
  if (empty) return {{0, 1, 1}};
  std::vector<CopyAxis> out;
  for (const CopyAxis& axis : axes) {
    if (axis.extent == 1) continue;
    out.push_back(axis);
    // Merge from the inside out, so a run of mergeable axes becomes one.
    while (out.size() >= 2) {
      const CopyAxis inner = out.back();
      const CopyAxis& outer = out[out.size() - 2];
      if (outer.inStride != inner.extent * inner.inStride ||
          outer.outStride != inner.extent * inner.outStride) {
        break;
      }
      const CopyAxis merged{outer.extent * inner.extent, inner.inStride, inner.outStride};
      out.pop_back();
      out.back() = merged;
    }
  }
  return out;
}

Stmt copyNest(const Buffer& in, const Expr& inBase, const Buffer& out, const Expr& outBase,
              const std::vector<CopyAxis>& axes) {
  std::vector<Var> counters;
  Expr inAt = inBase, outAt = outBase;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    counters.push_back(loopVar("i" + std::to_string(k)));
    inAt = inAt + refVar(counters[k]) * static_cast<int>(axes[k].inStride);
    outAt = outAt + refVar(counters[k]) * static_cast<int>(axes[k].outStride);
  }
  Stmt body = store(out, outAt, load(in, inAt));
  for (std::size_t k = axes.size(); k-- > 0;) {
    const bool unroll = k + 1 == axes.size() && axes[k].extent <= kUnrolledRun;
    const ForKind kind = unroll ? ForKind::Unrolled : ForKind::Serial;
    body = forLoop(counters[k], 0, static_cast<int>(axes[k].extent), body, kind);
  }
  return body;
}

}  // namespace loupe::lowering
