// RESIZE_NEAREST_NEIGHBOR: an NHWC input resized to the constant [height,
// width] of the size operand, each output pixel a copy of one input pixel.
// As in TFLite Micro, the source of output row (column) i is computed in
// float: scale = in / out, or (in - 1) / (out - 1) with align_corners and
// more than one output; position = (i + 0.5 if half_pixel_centers else i) *
// scale, rounded half away from zero with align_corners and floored without,
// then at most in - 1, and with half_pixel_centers at least 0. Both flags may
// be set together (TFLM does not forbid it). The source of every row and
// column depends only on shapes and flags, so the lowering reads tables
// computed at compile time by the function the reference runs. Pixels are
// moved as bytes (float32 included), as TFLM's int32 copy of float data.
#include <algorithm>
#include <cmath>
#include <cstring>

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

ir::Attributes readResizeNearestNeighborOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::ResizeNearestNeighborOptions>(op)) {
    a.set("align_corners", o->align_corners() ? 1 : 0)
        .set("half_pixel_centers", o->half_pixel_centers() ? 1 : 0);
  }
  return a;
}

// The input row (column) output row (column) `index` copies: TFLM's
// GetNearestNeighbor, float arithmetic included.
std::int32_t nearestSource(std::int32_t index, std::int32_t inputSize, std::int32_t outputSize,
                           bool alignCorners, bool halfPixelCenters) {
  const float scale = alignCorners && outputSize > 1
                          ? static_cast<float>(inputSize - 1) / static_cast<float>(outputSize - 1)
                          : static_cast<float>(inputSize) / static_cast<float>(outputSize);
  const float offset = halfPixelCenters ? 0.5f : 0.0f;
  const float position = (static_cast<float>(index) + offset) * scale;
  const auto rounded =
      static_cast<std::int32_t>(alignCorners ? std::round(position) : std::floor(position));
  std::int32_t source = std::min(rounded, inputSize - 1);
  if (halfPixelCenters) source = std::max(source, std::int32_t{0});
  return source;
}

// The input seen as [batches, inHeight, inWidth, depth].
struct NearestPlan : ResizeGeometry {
  std::vector<std::int32_t> sourceRows;  // per output row
  std::vector<std::int32_t> sourceCols;  // per output column
};

NearestPlan planNearest(const ir::Graph& graph, const ir::Operator& op) {
  NearestPlan plan;
  static_cast<ResizeGeometry&>(plan) = resizeGeometry(graph, op);
  if (!plan.problem.empty()) return plan;
  const bool alignCorners = plan.alignCorners;
  const bool halfPixelCenters = plan.halfPixelCenters;
  for (std::int32_t y = 0; y < plan.outHeight; ++y) {
    plan.sourceRows.push_back(
        nearestSource(y, plan.inHeight, plan.outHeight, alignCorners, halfPixelCenters));
  }
  for (std::int32_t x = 0; x < plan.outWidth; ++x) {
    plan.sourceCols.push_back(
        nearestSource(x, plan.inWidth, plan.outWidth, alignCorners, halfPixelCenters));
  }
  return plan;
}

std::optional<InferredOutput> nearestShape(const ir::Graph& graph, const ir::Operator& op) {
  const NearestPlan plan = planNearest(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkNearest(const ir::Graph& graph, const ir::Operator& op) {
  const NearestPlan plan = planNearest(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8 &&
      input.dtype != ir::DType::Int16) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32, int8 or int16, as TFLite Micro)";
  }
  if (auto problem = checkOutput(output, input.dtype, plan.outputShape)) return problem;
  return std::nullopt;
}

void evalNearest(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const NearestPlan plan = planNearest(graph, op);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(graph.input(op, 0)->dtype));
  const std::int64_t pixelBytes = plan.depth * elementSize;
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  std::int64_t to = 0;
  for (std::int64_t b = 0; b < plan.batches; ++b) {
    for (std::int32_t y = 0; y < plan.outHeight; ++y) {
      for (std::int32_t x = 0; x < plan.outWidth; ++x) {
        const std::int64_t from =
            ((b * plan.inHeight + plan.sourceRows[static_cast<std::size_t>(y)]) * plan.inWidth +
             plan.sourceCols[static_cast<std::size_t>(x)]) *
            pixelBytes;
        std::memcpy(out.data() + to, in.data() + from, static_cast<std::size_t>(pixelBytes));
        to += pixelBytes;
      }
    }
  }
}

// for b, y: row = b * inHeight * inWidth * depth + row_offset[y];
//   for x: pixel = row + col_offset[x]; for c: out[...] = in[pixel + c].
tir::PrimFunc lowerNearest(const ir::Graph& graph, const ir::Operator& op,
                           const std::string& functionName) {
  const NearestPlan plan = planNearest(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  std::vector<std::int32_t> rowOffsets, colOffsets;
  for (std::int32_t row : plan.sourceRows) rowOffsets.push_back(row * plan.inWidth * plan.depth);
  for (std::int32_t col : plan.sourceCols) colOffsets.push_back(col * plan.depth);
  const tir::Buffer rowOffset =
      fb.constant("source_row_offset", tir::ScalarType::Int32, rowOffsets);
  const tir::Buffer colOffset =
      fb.constant("source_col_offset", tir::ScalarType::Int32, colOffsets);
  const tir::Var b = tir::makeVar("b"), y = tir::makeVar("y"), x = tir::makeVar("x"),
                 c = tir::makeVar("c");
  const tir::Var row = tir::makeVar("source_row"), pixel = tir::makeVar("source_pixel");
  const tir::Expr to = ((tir::refVar(b) * tir::intImm(plan.outHeight) + tir::refVar(y)) *
                            tir::intImm(plan.outWidth) +
                        tir::refVar(x)) *
                           tir::intImm(plan.depth) +
                       tir::refVar(c);
  const tir::Stmt copy =
      tir::forLoop(c, tir::intImm(0), tir::intImm(plan.depth),
                   tir::store(out, to, tir::load(in, tir::refVar(pixel) + tir::refVar(c))));
  const tir::Stmt columns =
      tir::forLoop(x, tir::intImm(0), tir::intImm(plan.outWidth),
                   tir::let(pixel, tir::refVar(row) + tir::load(colOffset, tir::refVar(x)), copy));
  const tir::Stmt rows = tir::forLoop(
      y, tir::intImm(0), tir::intImm(plan.outHeight),
      tir::let(
          row,
          tir::refVar(b) * tir::intImm(std::int64_t{plan.inHeight} * plan.inWidth * plan.depth) +
              tir::load(rowOffset, tir::refVar(y)),
          columns));
  return fb.finish(tir::forLoop(b, tir::intImm(0), tir::intImm(plan.batches), rows));
}

const reference::Kernel kResizeNearestNeighborKernel{ir::OpType::ResizeNearestNeighbor,
                                                     checkNearest, evalNearest};

}  // namespace

extern const OperatorDefinition kResizeNearestNeighborDefinition{
    .type = ir::OpType::ResizeNearestNeighbor,
    .dtypes = "float32, int8, int16 (pixels are copied); constant int32 size",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ResizeNearestNeighborOptions>(),
               .maxVersion = 4,
               .readOptions = readResizeNearestNeighborOptions},
    .shape = nearestShape,
    .kernel = &kResizeNearestNeighborKernel,
    .lower = lowerNearest,
};

}  // namespace loupe::ops
