// RESIZE_BILINEAR: an NHWC input resized to the constant [height, width] of
// the size operand, each output value interpolated between the four input
// pixels around its position, as TFLite Micro computes it:
//  - float32: scale = in / out in float (or (in - 1) / (out - 1) with
//    align_corners and more than one output); position = i * scale, or
//    (i + 0.5) * scale - 0.5 with half_pixel_centers; lower = max(floor, 0),
//    upper = min(ceil, in - 1); the value is
//    v00*(1-dy)*(1-dx) + v10*dy*(1-dx) + v01*(1-dy)*dx + v11*dy*dx + 0.0f
//    evaluated left to right in float (dy = position - lower), all four
//    products computed even where a weight is 0;
//  - int8: the same in 10-bit fixed point without floating point (the
//    scale rounded to 1/1024, the four weighted values summed in 20 bits and
//    rounded half away from zero); the quantisation parameters are not read.
// TFLM refuses align_corners together with half_pixel_centers. Positions,
// bounds and weights depend only on shapes and flags: the lowering reads
// tables computed at compile time by the functions the reference runs.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/resize_geometry.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

ir::Attributes readResizeBilinearOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::ResizeBilinearOptions>(op)) {
    a.set("align_corners", o->align_corners() ? 1 : 0)
        .set("half_pixel_centers", o->half_pixel_centers() ? 1 : 0);
  }
  return a;
}

// Where output row (column) i samples the input along one axis.
struct FloatSample {
  float position = 0.0f;
  std::int32_t lower = 0, upper = 0;
};

// TFLM's float scale of one axis.
float floatScale(std::int32_t inputSize, std::int32_t outputSize, bool alignCorners) {
  if (alignCorners && outputSize > 1) {
    return static_cast<float>(inputSize - 1) / static_cast<float>(outputSize - 1);
  }
  return static_cast<float>(inputSize) / static_cast<float>(outputSize);
}

// TFLM's ComputeInterpolationValues.
FloatSample floatSample(std::int32_t index, float scale, bool halfPixelCenters,
                        std::int32_t inputSize) {
  FloatSample s;
  const auto value = static_cast<float>(index);
  s.position = halfPixelCenters ? (value + 0.5f) * scale - 0.5f : value * scale;
  s.lower = std::max(static_cast<std::int32_t>(std::floor(s.position)), std::int32_t{0});
  s.upper = std::min(static_cast<std::int32_t>(std::ceil(s.position)), inputSize - 1);
  return s;
}

// The same in 10-bit fixed point: position * 1024.
struct IntegerSample {
  std::int32_t position = 0;
  std::int32_t lower = 0, upper = 0;
};

constexpr std::int32_t kOne = 1 << 10;  // 1.0 in the int8 kernel's fixed point

// TFLM's scale_10 of one axis (integer division rounding to nearest).
std::int32_t integerScale(std::int32_t inputSize, std::int32_t outputSize, bool alignCorners) {
  if (alignCorners && outputSize > 1) {
    return (kOne * (inputSize - 1) + (outputSize - 1) / 2) / (outputSize - 1);
  }
  return (kOne * inputSize + outputSize / 2) / outputSize;
}

// TFLM's ComputeInterpolationValuesInteger (C++ division truncates toward
// zero, so a small negative position has lower bound 0).
IntegerSample integerSample(std::int32_t index, std::int32_t scale, bool halfPixelCenters,
                            std::int32_t inputSize) {
  IntegerSample s;
  s.position = halfPixelCenters ? index * scale + scale / 2 - kOne / 2 : index * scale;
  s.lower = std::max(s.position / kOne, std::int32_t{0});
  s.upper = std::min((s.position + kOne - 1) / kOne, inputSize - 1);
  return s;
}

// Sizes beyond this overflow the int8 kernel's int32 fixed-point positions.
constexpr std::int32_t kMaxIntegerSize = 1 << 20;

struct BilinearPlan : ResizeGeometry {
  bool integer = false;  // int8: the fixed-point samples below, else the float ones
  std::vector<FloatSample> floatRows, floatCols;
  std::vector<IntegerSample> integerRows, integerCols;
  std::string unsupported;  // TFLM's kernel would not compute these shapes correctly
};

// Whether every lower bound lies inside its axis: TFLM clamps only the upper
// one and would read past the input otherwise.
template <typename Sample>
bool insideAxis(const std::vector<Sample>& samples, std::int32_t inputSize) {
  return std::all_of(samples.begin(), samples.end(),
                     [&](const Sample& s) { return s.lower < inputSize; });
}

// The int8 kernel's two weights of a sample, in 1/1024: of the lower and of
// the upper row (column).
std::int32_t lowerWeight(const IntegerSample& s) {
  return kOne - (s.position - kOne * s.lower);
}
std::int32_t upperWeight(const IntegerSample& s) {
  return s.position - kOne * s.lower;
}

// The largest |lower weight| + |upper weight| of an axis.
std::int64_t largestWeightSum(const std::vector<IntegerSample>& samples) {
  std::int64_t largest = 0;
  for (const IntegerSample& s : samples) {
    largest = std::max<std::int64_t>(largest, std::abs(lowerWeight(s)) + std::abs(upperWeight(s)));
  }
  return largest;
}

BilinearPlan planBilinear(const ir::Graph& graph, const ir::Operator& op) {
  BilinearPlan plan;
  static_cast<ResizeGeometry&>(plan) = resizeGeometry(graph, op);
  if (!plan.problem.empty()) return plan;
  const bool alignCorners = plan.alignCorners;
  const bool halfPixelCenters = plan.halfPixelCenters;
  plan.integer = graph.input(op, 0)->dtype == ir::DType::Int8;
  if (!plan.integer) {
    const float heightScale = floatScale(plan.inHeight, plan.outHeight, alignCorners);
    const float widthScale = floatScale(plan.inWidth, plan.outWidth, alignCorners);
    for (std::int32_t y = 0; y < plan.outHeight; ++y) {
      plan.floatRows.push_back(floatSample(y, heightScale, halfPixelCenters, plan.inHeight));
    }
    for (std::int32_t x = 0; x < plan.outWidth; ++x) {
      plan.floatCols.push_back(floatSample(x, widthScale, halfPixelCenters, plan.inWidth));
    }
    if (!insideAxis(plan.floatRows, plan.inHeight) || !insideAxis(plan.floatCols, plan.inWidth)) {
      plan.unsupported = "a size for which TFLite Micro's positions stay inside the input";
    }
    return plan;
  }
  if (std::max({plan.inHeight, plan.inWidth, plan.outHeight, plan.outWidth}) >= kMaxIntegerSize) {
    plan.unsupported =
        "int8 heights and widths below 2^20 (TFLite Micro's fixed-point positions overflow "
        "beyond)";
    return plan;
  }
  const std::int32_t heightScale = integerScale(plan.inHeight, plan.outHeight, alignCorners);
  const std::int32_t widthScale = integerScale(plan.inWidth, plan.outWidth, alignCorners);
  for (std::int32_t y = 0; y < plan.outHeight; ++y) {
    plan.integerRows.push_back(integerSample(y, heightScale, halfPixelCenters, plan.inHeight));
  }
  for (std::int32_t x = 0; x < plan.outWidth; ++x) {
    plan.integerCols.push_back(integerSample(x, widthScale, halfPixelCenters, plan.inWidth));
  }
  if (!insideAxis(plan.integerRows, plan.inHeight) || !insideAxis(plan.integerCols, plan.inWidth)) {
    plan.unsupported =
        "a size for which TFLite Micro's int8 fixed-point positions stay inside the input "
        "(its 10-bit scale rounds past the last row or column)";
    return plan;
  }
  // TFLM sums in int64; the lowering sums in int32. Weights lie in
  // [-512, 1536], so a sum and its rounding stay near 2^29; checked anyway.
  const std::int64_t largestSum =
      128 * largestWeightSum(plan.integerRows) * largestWeightSum(plan.integerCols) + (1 << 19);
  if (largestSum > std::numeric_limits<std::int32_t>::max()) {
    plan.unsupported = "int8 interpolation weights whose sums fit in 32 bits";
  }
  return plan;
}

std::optional<InferredOutput> bilinearShape(const ir::Graph& graph, const ir::Operator& op) {
  const BilinearPlan plan = planBilinear(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkBilinear(const ir::Graph& graph, const ir::Operator& op) {
  const BilinearPlan plan = planBilinear(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  if (!plan.unsupported.empty()) return "needs " + plan.unsupported;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  if (auto problem = checkOutput(output, input.dtype, plan.outputShape)) return problem;
  if (optionOf(op, "align_corners") != 0 && optionOf(op, "half_pixel_centers") != 0) {
    return "align_corners and half_pixel_centers are both set (TFLite Micro allows one at most)";
  }
  return std::nullopt;
}

// Flat NHWC index of input pixel (b, y, x), channel 0.
std::int64_t pixelAt(const BilinearPlan& plan, std::int64_t b, std::int32_t y, std::int32_t x) {
  return ((b * plan.inHeight + y) * plan.inWidth + x) * plan.depth;
}

void evalFloat(const BilinearPlan& plan, const float* in, float* out) {
  for (std::int64_t b = 0; b < plan.batches; ++b) {
    for (const FloatSample& ry : plan.floatRows) {
      for (const FloatSample& rx : plan.floatCols) {
        const float* p00 = in + pixelAt(plan, b, ry.lower, rx.lower);
        const float* p10 = in + pixelAt(plan, b, ry.upper, rx.lower);
        const float* p01 = in + pixelAt(plan, b, ry.lower, rx.upper);
        const float* p11 = in + pixelAt(plan, b, ry.upper, rx.upper);
        // TFLM's expression: ints promoted to float, products left to right.
        const float dy = ry.position - static_cast<float>(ry.lower);
        const float dx = rx.position - static_cast<float>(rx.lower);
        for (std::int32_t c = 0; c < plan.depth; ++c) {
          *out++ = p00[c] * (1.0f - dy) * (1.0f - dx) + p10[c] * dy * (1.0f - dx) +
                   p01[c] * (1.0f - dy) * dx + p11[c] * dy * dx + 0.0f;
        }
      }
    }
  }
}

void evalInt8(const BilinearPlan& plan, const std::int8_t* in, std::int8_t* out) {
  for (std::int64_t b = 0; b < plan.batches; ++b) {
    for (const IntegerSample& ry : plan.integerRows) {
      for (const IntegerSample& rx : plan.integerCols) {
        const std::int8_t* p00 = in + pixelAt(plan, b, ry.lower, rx.lower);
        const std::int8_t* p10 = in + pixelAt(plan, b, ry.upper, rx.lower);
        const std::int8_t* p01 = in + pixelAt(plan, b, ry.lower, rx.upper);
        const std::int8_t* p11 = in + pixelAt(plan, b, ry.upper, rx.upper);
        for (std::int32_t c = 0; c < plan.depth; ++c) {
          const std::int64_t sum = std::int64_t{p00[c]} * lowerWeight(ry) * lowerWeight(rx) +
                                   std::int64_t{p10[c]} * upperWeight(ry) * lowerWeight(rx) +
                                   std::int64_t{p01[c]} * lowerWeight(ry) * upperWeight(rx) +
                                   std::int64_t{p11[c]} * upperWeight(ry) * upperWeight(rx);
          // TFLM's double-rounding build: half away from zero, then truncating division.
          const std::int64_t half = sum > 0 ? (1 << 19) : -(1 << 19);
          *out++ = static_cast<std::int8_t>((sum + half) / (1 << 20));
        }
      }
    }
  }
}

void evalBilinear(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const BilinearPlan plan = planBilinear(graph, op);
  if (plan.integer) {
    evalInt8(plan, store.data<std::int8_t>(op.inputs[0]),
             store.mutableData<std::int8_t>(op.outputs[0]));
  } else {
    evalFloat(plan, store.data<float>(op.inputs[0]), store.mutableData<float>(op.outputs[0]));
  }
}

// Per-axis tables of a lowering: the offsets of the lower and upper rows
// (columns) in elements and their two weights.
struct AxisTables {
  std::vector<std::int32_t> lowerOffset, upperOffset;
  std::vector<float> floatLowerWeight, floatUpperWeight;
  std::vector<std::int32_t> integerLowerWeight, integerUpperWeight;
};

template <typename Sample>
AxisTables axisOffsets(const std::vector<Sample>& samples, std::int32_t stride) {
  AxisTables t;
  for (const Sample& s : samples) {
    t.lowerOffset.push_back(s.lower * stride);
    t.upperOffset.push_back(s.upper * stride);
  }
  return t;
}

AxisTables floatTables(const std::vector<FloatSample>& samples, std::int32_t stride) {
  AxisTables t = axisOffsets(samples, stride);
  for (const FloatSample& s : samples) {
    // The float operations TFLM performs for every element, done once.
    const float fraction = s.position - static_cast<float>(s.lower);
    t.floatLowerWeight.push_back(1.0f - fraction);
    t.floatUpperWeight.push_back(fraction);
  }
  return t;
}

AxisTables integerTables(const std::vector<IntegerSample>& samples, std::int32_t stride) {
  AxisTables t = axisOffsets(samples, stride);
  for (const IntegerSample& s : samples) {
    t.integerLowerWeight.push_back(lowerWeight(s));
    t.integerUpperWeight.push_back(upperWeight(s));
  }
  return t;
}

// The buffers of one axis's tables and the variables its loop binds to them.
struct AxisBuffers {
  tir::Buffer lowerOffset, upperOffset, lowerWeight, upperWeight;
  tir::Var lowerAt, upperAt, lowerW, upperW;
};

AxisBuffers axisBuffers(lowering::FunctionBuilder& fb, const AxisTables& t, const std::string& axis,
                        bool integer) {
  AxisBuffers a;
  a.lowerOffset = fb.constant(axis + "_lower_offset", tir::ScalarType::Int32, t.lowerOffset);
  a.upperOffset = fb.constant(axis + "_upper_offset", tir::ScalarType::Int32, t.upperOffset);
  const tir::ScalarType weightType = integer ? tir::ScalarType::Int32 : tir::ScalarType::Float32;
  if (integer) {
    a.lowerWeight = fb.constant(axis + "_lower_weight", weightType, t.integerLowerWeight);
    a.upperWeight = fb.constant(axis + "_upper_weight", weightType, t.integerUpperWeight);
  } else {
    a.lowerWeight = fb.constant(axis + "_lower_weight", weightType, t.floatLowerWeight);
    a.upperWeight = fb.constant(axis + "_upper_weight", weightType, t.floatUpperWeight);
  }
  a.lowerAt = tir::makeVar(axis + "_lower");
  a.upperAt = tir::makeVar(axis + "_upper");
  a.lowerW = tir::makeVar(axis + "_lower_w", weightType);
  a.upperW = tir::makeVar(axis + "_upper_w", weightType);
  return a;
}

// Binds the axis's four table entries at `index` around `body`.
tir::Stmt bindAxis(const AxisBuffers& a, const tir::Expr& index, tir::Stmt body) {
  return tir::let(
      a.lowerAt, tir::load(a.lowerOffset, index),
      tir::let(a.upperAt, tir::load(a.upperOffset, index),
               tir::let(a.lowerW, tir::load(a.lowerWeight, index),
                        tir::let(a.upperW, tir::load(a.upperWeight, index), std::move(body)))));
}

// for b, y (row tables), x (column tables), c: the four input values at
// batch + row offset + column offset + c, weighted as the reference does.
tir::PrimFunc lowerBilinear(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  const BilinearPlan plan = planBilinear(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const std::int32_t rowStride = plan.inWidth * plan.depth;
  const AxisBuffers rows = axisBuffers(fb,
                                       plan.integer ? integerTables(plan.integerRows, rowStride)
                                                    : floatTables(plan.floatRows, rowStride),
                                       "row", plan.integer);
  const AxisBuffers cols = axisBuffers(fb,
                                       plan.integer ? integerTables(plan.integerCols, plan.depth)
                                                    : floatTables(plan.floatCols, plan.depth),
                                       "col", plan.integer);
  const tir::Var b = tir::makeVar("b"), y = tir::makeVar("y"), x = tir::makeVar("x"),
                 c = tir::makeVar("c"), batch = tir::makeVar("batch");
  auto value = [&](const tir::Var& row, const tir::Var& col) {
    const tir::Expr v =
        tir::load(in, tir::refVar(batch) + tir::refVar(row) + tir::refVar(col) + tir::refVar(c));
    return plan.integer ? tir::cast(tir::ScalarType::Int32, v) : v;
  };
  auto term = [&](const tir::Var& row, const tir::Var& col, const tir::Var& rowWeight,
                  const tir::Var& colWeight) {
    return value(row, col) * tir::refVar(rowWeight) * tir::refVar(colWeight);
  };
  const tir::Expr sum = term(rows.lowerAt, cols.lowerAt, rows.lowerW, cols.lowerW) +
                        term(rows.upperAt, cols.lowerAt, rows.upperW, cols.lowerW) +
                        term(rows.lowerAt, cols.upperAt, rows.lowerW, cols.upperW) +
                        term(rows.upperAt, cols.upperAt, rows.upperW, cols.upperW);
  const tir::Expr to = ((tir::refVar(b) * tir::intImm(plan.outHeight) + tir::refVar(y)) *
                            tir::intImm(plan.outWidth) +
                        tir::refVar(x)) *
                           tir::intImm(plan.depth) +
                       tir::refVar(c);
  tir::Stmt element;
  if (plan.integer) {
    // Half away from zero in 2^-20, then C's truncating division, as the reference.
    const tir::Var total = tir::makeVar("sum");
    const tir::Expr half = tir::select(tir::refVar(total) > tir::intImm(0), tir::intImm(1 << 19),
                                       tir::intImm(-(1 << 19)));
    element = tir::let(total, sum,
                       tir::store(out, to,
                                  tir::cast(tir::ScalarType::Int8,
                                            (tir::refVar(total) + half) / tir::intImm(1 << 20))));
  } else {
    // TFLM adds its rounding offset 0.0f too: it turns a -0.0 sum into +0.0.
    element = tir::store(out, to, sum + tir::floatImm(0.0));
  }
  const tir::Stmt channels = tir::forLoop(c, tir::intImm(0), tir::intImm(plan.depth), element);
  const tir::Stmt columns = tir::forLoop(x, tir::intImm(0), tir::intImm(plan.outWidth),
                                         bindAxis(cols, tir::refVar(x), channels));
  const tir::Stmt rowLoop = tir::forLoop(y, tir::intImm(0), tir::intImm(plan.outHeight),
                                         bindAxis(rows, tir::refVar(y), columns));
  return fb.finish(tir::forLoop(
      b, tir::intImm(0), tir::intImm(plan.batches),
      tir::let(batch, tir::refVar(b) * tir::intImm(std::int64_t{plan.inHeight} * rowStride),
               rowLoop)));
}

const reference::Kernel kResizeBilinearKernel{ir::OpType::ResizeBilinear, checkBilinear,
                                              evalBilinear};

// Four weighted input values per output element.
std::int64_t bilinearMacs(const ir::Graph& graph, const ir::Operator& op) {
  return 4 * oneMacPerOutputElement(graph, op);
}

}  // namespace

extern const OperatorDefinition kResizeBilinearDefinition{
    .type = ir::OpType::ResizeBilinear,
    .dtypes = "float32, int8 (quantisation not read); constant int32 size",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ResizeBilinearOptions>(),
               .maxVersion = 4,
               .readOptions = readResizeBilinearOptions},
    .shape = bilinearShape,
    .kernel = &kResizeBilinearKernel,
    .lower = lowerBilinear,
    .macs = bilinearMacs,
};

}  // namespace loupe::ops
