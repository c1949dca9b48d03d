// MIRROR_PAD: the input with constant paddings [rank, 2] (int32 or int64)
// before and after each dimension, filled with the input mirrored at its
// edge. REFLECT leaves the edge element out of the mirror (offset 1: [1,2,3]
// padded by 2 on both sides is [3,2,1,2,3,2,1]); SYMMETRIC repeats it
// (offset 0: [2,1,1,2,3,3,2]). TFLite Micro moves float32 and int8 elements
// and does not check the paddings: one larger than size - offset reads
// outside the input before and repeats element 0 after; Loupe refuses them
// (and negative ones). Without an options table TFLM's mode is "unknown",
// which pads as SYMMETRIC; the importer records that. The quantisation
// parameters are not looked at.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "ops/strides.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

constexpr std::int64_t kReflect = static_cast<std::int64_t>(tflite::MirrorPadMode::REFLECT);
constexpr std::int64_t kSymmetric = static_cast<std::int64_t>(tflite::MirrorPadMode::SYMMETRIC);

ir::Attributes readMirrorPadOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::MirrorPadOptions>(op);
  const std::int64_t mode = o == nullptr ? kSymmetric : static_cast<std::int64_t>(o->mode());
  if (mode != kReflect && mode != kSymmetric) {
    failOptions(where,
                "unknown mode " + std::to_string(mode) + " (expected 0 REFLECT or 1 SYMMETRIC)");
  }
  ir::OptionAttrs a;
  a.set("mode", mode);
  return a;
}

struct PadDimension {
  std::int64_t size = 0;    // of the input
  std::int64_t before = 0;  // padding
  std::int64_t after = 0;
};

struct MirrorPadPlan {
  std::vector<PadDimension> dims;
  std::int64_t offset = 1;  // 1: REFLECT, 0: SYMMETRIC
  ir::Shape outputShape;
  std::string problem;
};

MirrorPadPlan planMirrorPad(const ir::Graph& graph, const ir::Operator& op) {
  MirrorPadPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* paddings = graph.input(op, 1);
  if (input == nullptr || paddings == nullptr) return plan.problem = "input and paddings", plan;
  const std::size_t rank = input->shape.size();
  const auto pads = constantOperand(graph, op, 1);
  if (!pads) {
    return plan.problem = "constant int32 or int64 paddings (found " + tensorText(*paddings) + ")",
           plan;
  }
  if (paddings->shape != ir::Shape{static_cast<std::int32_t>(rank), 2}) {
    return plan.problem = "paddings of shape [" + std::to_string(rank) + ",2] for " +
                          tensorText(*input) + " (found " + tensorText(*paddings) + ")",
           plan;
  }
  const std::int64_t mode = optionOf(op, "mode", kReflect);
  if (mode != kReflect && mode != kSymmetric) {
    return plan.problem = "mode 0 (REFLECT) or 1 (SYMMETRIC), found " + std::to_string(mode), plan;
  }
  plan.offset = mode == kReflect ? 1 : 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const PadDimension dim{input->shape[d], (*pads)[2 * d], (*pads)[2 * d + 1]};
    const std::int64_t limit = dim.size - plan.offset;
    if (dim.before < 0 || dim.after < 0 || dim.before > limit || dim.after > limit) {
      return plan.problem = "paddings from 0 to " +
                            std::to_string(std::max<std::int64_t>(limit, 0)) + " in dimension " +
                            std::to_string(d) + " of " + tensorText(*input) +
                            (plan.offset ? " (REFLECT)" : " (SYMMETRIC)") + "; found " +
                            std::to_string(dim.before) + " and " + std::to_string(dim.after),
             plan;
    }
    plan.dims.push_back(dim);
    plan.outputShape.push_back(static_cast<std::int32_t>(dim.before + dim.size + dim.after));
  }
  return plan;
}

// The input position that output position `at` of a dimension shows.
std::int64_t mirroredPosition(std::int64_t at, const PadDimension& dim, std::int64_t offset) {
  if (at < dim.before) return dim.before - 1 - at + offset;
  at -= dim.before;
  if (at < dim.size) return at;
  at -= dim.size;
  return dim.size - 1 - offset - at;
}

std::optional<InferredOutput> mirrorPadShape(const ir::Graph& graph, const ir::Operator& op) {
  const MirrorPadPlan plan = planMirrorPad(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkMirrorPad(const ir::Graph& graph, const ir::Operator& op) {
  const MirrorPadPlan plan = planMirrorPad(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  return checkFloat32OrInt8Copy(graph, op, plan.outputShape);
}

// Element by element over the output, each dimension mirrored on its own.
void evalMirrorPad(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const MirrorPadPlan plan = planMirrorPad(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(input.dtype));
  const std::vector<std::int64_t> inStrides = rowMajorStrides(input.shape);
  const std::vector<std::int64_t> outStrides = rowMajorStrides(plan.outputShape);
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  const std::int64_t count = ir::elementCount(plan.outputShape);
  for (std::int64_t o = 0; o < count; ++o) {
    std::int64_t from = 0;
    for (std::size_t d = 0; d < plan.dims.size(); ++d) {
      const std::int64_t at = (o / outStrides[d]) % plan.outputShape[d];
      from += mirroredPosition(at, plan.dims[d], plan.offset) * inStrides[d];
    }
    std::copy_n(in.begin() + from * elementSize, elementSize, out.begin() + o * elementSize);
  }
}

// A run of one dimension's output positions whose input positions step by
// +1 (the middle) or -1 (a mirrored padding).
struct Segment {
  std::int64_t length = 0;
  std::int64_t inStart = 0;
  std::int64_t outStart = 0;
  std::int64_t direction = 1;
};

std::vector<Segment> segmentsOf(const PadDimension& dim, std::int64_t offset) {
  std::vector<Segment> segments;
  if (dim.before > 0) segments.push_back({dim.before, dim.before - 1 + offset, 0, -1});
  if (dim.size > 0) segments.push_back({dim.size, 0, dim.before, 1});
  if (dim.after > 0) {
    segments.push_back({dim.after, dim.size - 1 - offset, dim.before + dim.size, -1});
  }
  return segments;
}

// Each dimension's output is up to three segments (mirrored before, the
// input, mirrored after); every combination of one segment per dimension is
// a block of the output that one strided copy fills, backwards along the
// mirrored dimensions.
struct MirrorPadLowering {
  const MirrorPadPlan& plan;
  std::vector<std::int64_t> inStrides, outStrides;
  tir::Buffer in, out;
  std::vector<tir::Stmt> nests;

  void addBlocks(std::size_t d, std::vector<lowering::CopyAxis>& axes, std::int64_t inBase,
                 std::int64_t outBase) {
    if (d == plan.dims.size()) {
      nests.push_back(lowering::copyNest(in, tir::intImm(inBase), out, tir::intImm(outBase),
                                         lowering::simplifyCopyAxes(axes)));
      return;
    }
    for (const Segment& s : segmentsOf(plan.dims[d], plan.offset)) {
      axes.push_back({s.length, s.direction * inStrides[d], outStrides[d]});
      addBlocks(d + 1, axes, inBase + s.inStart * inStrides[d],
                outBase + s.outStart * outStrides[d]);
      axes.pop_back();
    }
  }
};

tir::PrimFunc lowerMirrorPad(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const MirrorPadPlan plan = planMirrorPad(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  MirrorPadLowering blocks{.plan = plan,
                           .inStrides = rowMajorStrides(input.shape),
                           .outStrides = rowMajorStrides(plan.outputShape),
                           .in = fb.input(op.inputs[0], "input"),
                           .out = fb.param(op.outputs[0], "output", true),
                           .nests = {}};
  std::vector<lowering::CopyAxis> axes;
  blocks.addBlocks(0, axes, 0, 0);
  // An empty input (which admits no padding) gives no blocks: a copy of nothing.
  if (blocks.nests.empty()) {
    blocks.nests.push_back(lowering::copyNest(blocks.in, tir::intImm(0), blocks.out, tir::intImm(0),
                                              lowering::simplifyCopyAxes({{0, 1, 1}})));
  }
  return fb.finish(tir::seq(std::move(blocks.nests)));
}

const reference::Kernel kMirrorPadKernel{ir::OpType::MirrorPad, checkMirrorPad, evalMirrorPad};

}  // namespace

extern const OperatorDefinition kMirrorPadDefinition{
    .type = ir::OpType::MirrorPad,
    .dtypes = "float32, int8 (bytes are moved); paddings constant int32 or int64",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::MirrorPadOptions>(),
               .maxVersion = 3,
               .readOptions = readMirrorPadOptions},
    .shape = mirrorPadShape,
    .kernel = &kMirrorPadKernel,
    .lower = lowerMirrorPad,
};

}  // namespace loupe::ops
