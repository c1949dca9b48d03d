// AVERAGE_POOL_2D and MAX_POOL_2D -> TIR. Windows are clipped to the input as
// in the reference kernels (padding elements are left out, not counted).
// Each spatial dimension is split into runs of output positions whose windows
// are clipped alike: the interior run, where the whole window is inside the
// input, and the border positions. Every run gets its own loop nest with
// constant window bounds, so the interior divides by a constant and small
// windows unroll. When a dimension would need more than a few runs (a large
// window), the border positions share one run whose bounds are computed per
// position.
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <limits>

#include "lowering/lowering_rule.h"
#include "lowering/window_padding.h"
#include "reference/quantized_params.h"
#include "tir/simplify.h"

namespace loupe::lowering {

using namespace tir;

namespace {

constexpr std::size_t kMaxFixedRuns = 3;

// Output positions [begin, end) of one spatial dimension whose windows keep
// the filter taps [tapBegin, tapEnd) (fixed), or whose taps are computed per
// position (dynamic).
struct PoolRun {
  int begin = 0, end = 0;
  bool dynamic = false;
  int tapBegin = 0, tapEnd = 0;
};

struct WindowDim {
  int inSize = 0, filter = 1, stride = 1, padBefore = 0;
};

std::vector<PoolRun> planWindowRuns(int outSize, const WindowDim& d) {
  std::vector<PoolRun> runs;
  for (const WindowRun& r : windowRuns(outSize, d.inSize, d.filter, d.stride, 1, d.padBefore)) {
    runs.push_back({r.outBegin, r.outBegin + r.outCount, false, r.tapBegin, r.tapEnd});
  }
  if (runs.size() <= kMaxFixedRuns) return runs;
  // Keep the longest run fixed (the interior) and merge the rest around it.
  // Empty windows (only possible with explicit padding) stay fixed.
  auto empty = [](const PoolRun& r) { return r.tapEnd <= r.tapBegin; };
  std::size_t longest = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!empty(runs[i]) && (empty(runs[longest]) || runs[i].end - runs[i].begin >
                                                        runs[longest].end - runs[longest].begin)) {
      longest = i;
    }
  }
  std::vector<PoolRun> merged;
  std::size_t first = 0;  // the first run merged into merged.back()
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i == longest || empty(runs[i])) {
      merged.push_back(runs[i]);
    } else if (!merged.empty() && merged.back().dynamic) {
      merged.back().end = runs[i].end;
    } else {
      merged.push_back({runs[i].begin, runs[i].end, true, 0, 0});
      first = i;
    }
    // A dynamic run of one fixed run is that fixed run.
    if (merged.back().dynamic && (i + 1 == runs.size() || i + 1 == longest || empty(runs[i + 1]))) {
      if (i == first) merged.back() = runs[i];
    }
  }
  return merged;
}

// The window of one output position along one dimension: the first input
// position it reads and how many it reads (constants for a fixed run).
struct WindowSpan {
  Expr first;
  Expr count;
};

enum class PoolKind { Average, Max };

struct PoolLowering {
  PoolKind kind = PoolKind::Average;
  Buffer in, out;
  Buffer intAcc, floatAcc;                        // the running sum or maximum of one window
  std::int64_t height = 0, width = 0, depth = 0;  // input
  std::int64_t outHeight = 0, outWidth = 0;
  WindowDim y, x;
  ScalarType type = ScalarType::Int8;
  // Integer types: the activation clamp, or none when it is the type's range.
  bool clamp = false;
  reference::IntRange intRange;
  reference::FloatRange floatRange;

  // The reduction of one window into one output element.
  Stmt element(const Var& b, const Var& oy, const Var& ox, const WindowSpan& wy,
               const WindowSpan& wx) const {
    Var c = loopVar("c"), fy = loopVar("fy"), fx = loopVar("fx");
    const bool isFloat = type == ScalarType::Float32;
    const ScalarType accType = isFloat ? ScalarType::Float32 : ScalarType::Int32;
    const Buffer& acc = isFloat ? floatAcc : intAcc;
    const int h = static_cast<int>(height), w = static_cast<int>(width);
    const int ch = static_cast<int>(depth);
    const Expr iy = wy.first + refVar(fy), ix = wx.first + refVar(fx);
    const Expr value = cast(accType, load(in, ((refVar(b) * h + iy) * w + ix) * ch + refVar(c)));
    const Expr total = load(acc, 0);
    Expr init, update, result;
    if (kind == PoolKind::Average) {
      init = isFloat ? floatImm(0.0) : intImm(0);
      update = total + value;
      const Expr count = foldConstants(wy.count * wx.count);
      if (isFloat) {
        // The reference counts in float; a count is exact in float.
        result = total / (isIntImm(count) ? floatImm(static_cast<double>(count->intValue))
                                          : cast(ScalarType::Float32, count));
      } else if (isIntImm(count, 0)) {
        result = intImm(intRange.min);  // the reference's empty window
      } else {
        result = callIntrinsic("loupe.average_pool_round", ScalarType::Int32, {total, count});
      }
    } else {
      // std::max(total, value): keeps `total` unless it is less (NaN rules).
      init = isFloat ? floatImm(-FLT_MAX)
                     : intImm(type == ScalarType::Int8 ? std::numeric_limits<std::int8_t>::min()
                                                       : std::numeric_limits<std::int16_t>::min());
      update = isFloat ? select(total < value, value, total) : maxExpr(total, value);
      result = total;
    }
    if (isFloat) {
      result = callIntrinsic("loupe.clamp_f32", ScalarType::Float32,
                             {result, floatImm(floatRange.min), floatImm(floatRange.max)});
    } else if (clamp) {
      result = callIntrinsic("loupe.clamp_i32", ScalarType::Int32,
                             {result, intImm(intRange.min), intImm(intRange.max)});
    }
    const Expr outIndex =
        ((refVar(b) * static_cast<int>(outHeight) + refVar(oy)) * static_cast<int>(outWidth) +
         refVar(ox)) *
            ch +
        refVar(c);
    // Small constant windows unroll: a row of up to 8 taps, the whole
    // window when it has at most 16.
    const bool fixed = isIntImm(wy.count) && isIntImm(wx.count);
    const ForKind rowLoop = fixed && wx.count->intValue <= 8 ? ForKind::Unrolled : ForKind::Serial;
    const ForKind columnLoop = fixed && wy.count->intValue * wx.count->intValue <= 16
                                   ? ForKind::Unrolled
                                   : ForKind::Serial;
    Stmt body = allocate(
        acc, seq({store(acc, 0, init),
                  forLoop(fy, 0, wy.count, forLoop(fx, 0, wx.count, store(acc, 0, update), rowLoop),
                          columnLoop),
                  store(out, outIndex, cast(type, result))}));
    return forLoop(c, 0, ch, body);
  }

  // The window span of position `o` in `run`. For a dynamic run the clipped
  // bounds are Lets (appended to `lets`, bound around the position's body).
  static WindowSpan span(const PoolRun& run, const WindowDim& d, const Var& o,
                         const std::string& axis, std::vector<std::pair<Var, Expr>>& lets) {
    const Expr origin = refVar(o) * d.stride - d.padBefore;
    if (!run.dynamic) return {origin + run.tapBegin, intImm(run.tapEnd - run.tapBegin)};
    Var first = makeVar("i" + axis + "_first"), count = makeVar("f" + axis + "_count");
    lets.emplace_back(first, maxExpr(intImm(0), origin));
    lets.emplace_back(count, minExpr(intImm(d.inSize), origin + d.filter) - refVar(first));
    return {refVar(first), refVar(count)};
  }

  static Stmt wrapLets(const std::vector<std::pair<Var, Expr>>& lets, Stmt body) {
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) body = let(it->first, it->second, body);
    return body;
  }

  Stmt build(std::int64_t batches) const {
    const std::vector<PoolRun> rowRuns = planWindowRuns(static_cast<int>(outHeight), y);
    const std::vector<PoolRun> colRuns = planWindowRuns(static_cast<int>(outWidth), x);
    Var b = loopVar("b");
    std::vector<Stmt> rows;
    for (const PoolRun& rowRun : rowRuns) {
      Var oy = loopVar("oy");
      std::vector<std::pair<Var, Expr>> rowLets;
      const WindowSpan wy = span(rowRun, y, oy, "y", rowLets);
      std::vector<Stmt> cols;
      for (const PoolRun& colRun : colRuns) {
        Var ox = loopVar("ox");
        std::vector<std::pair<Var, Expr>> colLets;
        const WindowSpan wx = span(colRun, x, ox, "x", colLets);
        cols.push_back(forLoop(ox, colRun.begin, colRun.end - colRun.begin,
                               wrapLets(colLets, element(b, oy, ox, wy, wx))));
      }
      rows.push_back(
          forLoop(oy, rowRun.begin, rowRun.end - rowRun.begin, wrapLets(rowLets, seq(cols))));
    }
    return forLoop(b, 0, static_cast<int>(batches), seq(rows));
  }
};

PrimFunc lowerPool2D(PoolKind kind, const ir::Graph& graph, const ir::Operator& op,
                     const std::string& functionName) {
  const auto& attrs = std::get<ir::Pool2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  FunctionBuilder fb(graph, op, functionName);
  PoolLowering p;
  p.kind = kind;
  p.in = fb.input(op.inputs[0], "input");
  p.out = fb.param(op.outputs[0], "output", true);
  p.type = p.out->type;
  p.intAcc = fb.local("acc", ScalarType::Int32, 1);
  p.floatAcc = fb.local("acc", ScalarType::Float32, 1);
  p.height = input.shape[1];
  p.width = input.shape[2];
  p.depth = input.shape[3];
  p.outHeight = output.shape[1];
  p.outWidth = output.shape[2];
  const WindowPadding pad =
      windowPadding(attrs, static_cast<int>(p.height), static_cast<int>(p.width));
  p.y = {static_cast<int>(p.height), attrs.filterH, attrs.strideH, pad.top};
  p.x = {static_cast<int>(p.width), attrs.filterW, attrs.strideW, pad.left};
  if (p.type == ScalarType::Float32) {
    p.floatRange = reference::floatActivationRange(attrs.activation);
  } else {
    p.intRange = reference::quantizedActivationRange(attrs.activation, output);
    const reference::IntRange typeRange = p.type == ScalarType::Int8
                                              ? reference::IntRange{-128, 127}
                                              : reference::IntRange{-32768, 32767};
    p.clamp = !(p.intRange == typeRange);
  }
  return fb.finish(p.build(input.shape[0]));
}

}  // namespace

PrimFunc lowerAveragePool2D(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  return lowerPool2D(PoolKind::Average, graph, op, functionName);
}

PrimFunc lowerMaxPool2D(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  return lowerPool2D(PoolKind::Max, graph, op, functionName);
}

}  // namespace loupe::lowering
