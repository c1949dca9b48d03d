// SPACE_TO_DEPTH and DEPTH_TO_SPACE: NHWC rearrangements by block_size. With
// b the block size and C the input channels, SPACE_TO_DEPTH gives
//   output[n][h][w][(dy * b + dx) * C + c] = input[n][h * b + dy][w * b + dx][c]
// (each b x b patch of pixels becomes one pixel of b * b * C channels, the
// patch in row-major order), and DEPTH_TO_SPACE is its inverse. As TFLite
// Micro: 4-D tensors, float32 or int8 in and out, height and width divisible
// by b (SPACE_TO_DEPTH) or channels divisible by b * b (DEPTH_TO_SPACE); the
// quantisation parameters are not looked at (the bytes move). TFLM's
// SPACE_TO_DEPTH does not check block_size itself (0 divides by zero); the
// importer refuses a block_size below 1 for both.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

enum class Direction { SpaceToDepth, DepthToSpace };

ir::Attributes readSpaceToDepthOptions(const tflite::Operator& op, const std::string& where) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::SpaceToDepthOptions>(op)) {
    a.set("block_size", readPositive(o->block_size(), "block_size", where));
  }
  return a;
}

ir::Attributes readDepthToSpaceOptions(const tflite::Operator& op, const std::string& where) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::DepthToSpaceOptions>(op)) {
    a.set("block_size", readPositive(o->block_size(), "block_size", where));
  }
  return a;
}

// The output shape an input and block size give, or the problem.
struct BlockPlan {
  std::int64_t block = 1;
  ir::Shape outputShape;
  std::string problem;
};

BlockPlan planBlocks(const ir::Graph& graph, const ir::Operator& op, Direction direction) {
  BlockPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return plan.problem = "an input", plan;
  if (input->shape.size() != 4) {
    return plan.problem = "a 4-D NHWC input (found " + tensorText(*input) + ")", plan;
  }
  plan.block = optionOf(op, "block_size", 0);
  if (plan.block < 1) {
    return plan.problem = "a block_size of at least 1 (found " + std::to_string(plan.block) + ")",
           plan;
  }
  const std::int64_t b = plan.block;
  const std::int64_t height = input->shape[1], width = input->shape[2], depth = input->shape[3];
  if (direction == Direction::SpaceToDepth) {
    if (height % b != 0 || width % b != 0) {
      return plan.problem = "a height and width of " + tensorText(*input) +
                            " divisible by block_size " + std::to_string(b),
             plan;
    }
    plan.outputShape = {input->shape[0], static_cast<std::int32_t>(height / b),
                        static_cast<std::int32_t>(width / b),
                        static_cast<std::int32_t>(depth * b * b)};
  } else {
    if (depth % (b * b) != 0) {
      return plan.problem = "channels of " + tensorText(*input) + " divisible by block_size^2 " +
                            std::to_string(b * b),
             plan;
    }
    plan.outputShape = {input->shape[0], static_cast<std::int32_t>(height * b),
                        static_cast<std::int32_t>(width * b),
                        static_cast<std::int32_t>(depth / (b * b))};
  }
  return plan;
}

template <Direction kDirection>
std::optional<InferredOutput> blockShape(const ir::Graph& graph, const ir::Operator& op) {
  const BlockPlan plan = planBlocks(graph, op, kDirection);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

template <Direction kDirection>
std::optional<std::string> checkBlocks(const ir::Graph& graph, const ir::Operator& op) {
  const BlockPlan plan = planBlocks(graph, op, kDirection);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  return checkFloat32OrInt8Copy(graph, op, plan.outputShape);
}

// Element by element over the output: where each output element comes from.
template <Direction kDirection>
void evalBlocks(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const BlockPlan plan = planBlocks(graph, op, kDirection);
  const ir::Tensor& input = *graph.input(op, 0);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(input.dtype));
  const std::int64_t b = plan.block;
  const std::int64_t inHeight = input.shape[1], inWidth = input.shape[2];
  const std::int64_t inDepth = input.shape[3];
  const std::int64_t outHeight = plan.outputShape[1], outWidth = plan.outputShape[2];
  const std::int64_t outDepth = plan.outputShape[3];
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  std::int64_t o = 0;
  for (std::int64_t n = 0; n < plan.outputShape[0]; ++n) {
    for (std::int64_t h = 0; h < outHeight; ++h) {
      for (std::int64_t w = 0; w < outWidth; ++w) {
        for (std::int64_t d = 0; d < outDepth; ++d, ++o) {
          std::int64_t inH = 0, inW = 0, inD = 0;
          if constexpr (kDirection == Direction::SpaceToDepth) {
            // Output channel d is channel d % C of patch position d / C.
            const std::int64_t patch = d / inDepth;
            inH = h * b + patch / b;
            inW = w * b + patch % b;
            inD = d % inDepth;
          } else {
            // Output pixel (h, w) is patch position (h % b, w % b) of input
            // pixel (h / b, w / b).
            inH = h / b;
            inW = w / b;
            inD = ((h % b) * b + w % b) * outDepth + d;
          }
          const std::int64_t from = ((n * inHeight + inH) * inWidth + inW) * inDepth + inD;
          std::copy_n(in.begin() + from * elementSize, elementSize, out.begin() + o * elementSize);
        }
      }
    }
  }
}

// One strided copy. SPACE_TO_DEPTH walks the output in order as
// [n, h, w, dy, dx, c]; DEPTH_TO_SPACE walks it as [n, h, dy, w, dx, c] with
// h and w counting input pixels. In both, dx and c merge into one run of
// b * C contiguous elements on each side.
template <Direction kDirection>
tir::PrimFunc lowerBlocks(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  const BlockPlan plan = planBlocks(graph, op, kDirection);
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t b = plan.block;
  const std::int64_t batches = input.shape[0];
  const std::int64_t inHeight = input.shape[1], inWidth = input.shape[2];
  const std::int64_t inDepth = input.shape[3];
  const std::int64_t outHeight = plan.outputShape[1], outWidth = plan.outputShape[2];
  const std::int64_t outDepth = plan.outputShape[3];
  std::vector<lowering::CopyAxis> axes;
  if constexpr (kDirection == Direction::SpaceToDepth) {
    axes = {{batches, inHeight * inWidth * inDepth, outHeight * outWidth * outDepth},
            {outHeight, b * inWidth * inDepth, outWidth * outDepth},
            {outWidth, b * inDepth, outDepth},
            {b, inWidth * inDepth, b * inDepth},
            {b, inDepth, inDepth},
            {inDepth, 1, 1}};
  } else {
    axes = {{batches, inHeight * inWidth * inDepth, outHeight * outWidth * outDepth},
            {inHeight, inWidth * inDepth, b * outWidth * outDepth},
            {b, b * outDepth, outWidth * outDepth},
            {inWidth, inDepth, b * outDepth},
            {b, outDepth, outDepth},
            {outDepth, 1, 1}};
  }
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(lowering::copyNest(in, tir::intImm(0), out, tir::intImm(0),
                                      lowering::simplifyCopyAxes(axes)));
}

const reference::Kernel kSpaceToDepthKernel{ir::OpType::SpaceToDepth,
                                            checkBlocks<Direction::SpaceToDepth>,
                                            evalBlocks<Direction::SpaceToDepth>};
const reference::Kernel kDepthToSpaceKernel{ir::OpType::DepthToSpace,
                                            checkBlocks<Direction::DepthToSpace>,
                                            evalBlocks<Direction::DepthToSpace>};

}  // namespace

extern const OperatorDefinition kSpaceToDepthDefinition{
    .type = ir::OpType::SpaceToDepth,
    .dtypes = "float32, int8 (bytes are moved)",
    .import = {.minInputs = 1,
               .maxInputs = 1,
               .optionsType = optionsTypeOf<tflite::SpaceToDepthOptions>(),
               .optionsRequired = true,
               .maxVersion = 2,
               .readOptions = readSpaceToDepthOptions},
    .shape = blockShape<Direction::SpaceToDepth>,
    .kernel = &kSpaceToDepthKernel,
    .lower = lowerBlocks<Direction::SpaceToDepth>,
};

extern const OperatorDefinition kDepthToSpaceDefinition{
    .type = ir::OpType::DepthToSpace,
    .dtypes = "float32, int8 (bytes are moved)",
    .import = {.minInputs = 1,
               .maxInputs = 1,
               .optionsType = optionsTypeOf<tflite::DepthToSpaceOptions>(),
               .optionsRequired = true,
               .maxVersion = 2,
               .readOptions = readDepthToSpaceOptions},
    .shape = blockShape<Direction::DepthToSpace>,
    .kernel = &kDepthToSpaceKernel,
    .lower = lowerBlocks<Direction::DepthToSpace>,
};

}  // namespace loupe::ops
