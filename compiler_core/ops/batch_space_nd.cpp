// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND on NHWC (or NHC, read as NH1C)
// tensors, with constant int32 block_shape [bh, bw] and paddings / crops
// [[top, bottom], [left, right]] (one row and one block value for NHC).
// SPACE_TO_BATCH_ND pads the image, cuts it into bh x bw blocks and makes
// position (sh, sw) of every block a batch of its own:
//   output[(sh * bw + sw) * N + n][y][x][c] = padded[n][y * bh + sh][x * bw + sw][c];
// BATCH_TO_SPACE_ND is its inverse, then crops. As TFLite Micro: rank 3 or 4,
// float32 or int8, block_shape and paddings / crops read as int32 (Loupe
// requires them constant: they make the output shape). TFLM fills the
// padding by memset with SpaceToBatchParams::output_offset, which its kernel
// never sets (TFLite sets it to the output zero point); Loupe fills with the
// int8 output zero point (memset keeps its low byte) and with 0.0f for
// float32.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

enum class Direction { SpaceToBatch, BatchToSpace };

// Both operators seen on 4-D NHWC: the "space" side is the image, the
// "batch" side the blocks (SPACE_TO_BATCH_ND's output, BATCH_TO_SPACE_ND's
// input).
struct BlockLayout {
  std::int64_t batches = 1;                       // N of the image
  std::int64_t height = 1, width = 1, depth = 1;  // of the image
  std::int64_t blockHeight = 1, blockWidth = 1;
  // SPACE_TO_BATCH_ND: padding before the image; BATCH_TO_SPACE_ND: crops
  // at its start.
  std::int64_t top = 0, left = 0;
  std::int64_t blockedHeight = 1, blockedWidth = 1;  // of the batch side
  ir::Shape outputShape;
  std::string problem;
};

BlockLayout planLayout(const ir::Graph& graph, const ir::Operator& op, Direction direction) {
  BlockLayout plan;
  const char* const marginName = direction == Direction::SpaceToBatch ? "paddings" : "crops";
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* blockTensor = graph.input(op, 1);
  const ir::Tensor* marginTensor = graph.input(op, 2);
  if (input == nullptr || blockTensor == nullptr || marginTensor == nullptr) {
    return plan.problem = std::string("input, block_shape and ") + marginName, plan;
  }
  const std::size_t rank = input->shape.size();
  if (rank != 3 && rank != 4) {
    return plan.problem = "a 3-D or 4-D input, as TFLite Micro (found " + tensorText(*input) + ")",
           plan;
  }
  const auto spatial = static_cast<std::int32_t>(rank - 2);
  const auto block = constantOperand(graph, op, 1);
  const auto margins = constantOperand(graph, op, 2);
  if (!block || blockTensor->dtype != ir::DType::Int32 ||
      blockTensor->shape != ir::Shape{spatial}) {
    return plan.problem = "a constant int32 block_shape of shape [" + std::to_string(spatial) +
                          "] (found " + tensorText(*blockTensor) + ")",
           plan;
  }
  if (!margins || marginTensor->dtype != ir::DType::Int32 ||
      marginTensor->shape != ir::Shape{spatial, 2}) {
    return plan.problem = std::string("constant int32 ") + marginName + " of shape [" +
                          std::to_string(spatial) + ",2] (found " + tensorText(*marginTensor) + ")",
           plan;
  }
  const bool hasWidth = rank == 4;
  plan.blockHeight = (*block)[0];
  plan.blockWidth = hasWidth ? (*block)[1] : 1;
  plan.top = (*margins)[0];
  const std::int64_t bottom = (*margins)[1];
  plan.left = hasWidth ? (*margins)[2] : 0;
  const std::int64_t right = hasWidth ? (*margins)[3] : 0;
  if (plan.blockHeight < 1 || plan.blockWidth < 1) {
    return plan.problem = "block_shape values of at least 1", plan;
  }
  if (plan.top < 0 || bottom < 0 || plan.left < 0 || right < 0) {
    return plan.problem = std::string("non-negative ") + marginName, plan;
  }
  const std::int64_t blocks = plan.blockHeight * plan.blockWidth;
  const std::int64_t inBatches = input->shape[0], inHeight = input->shape[1];
  const std::int64_t inWidth = hasWidth ? input->shape[2] : 1;
  plan.depth = input->shape[rank - 1];
  if (direction == Direction::SpaceToBatch) {
    plan.batches = inBatches;
    plan.height = inHeight;
    plan.width = inWidth;
    const std::int64_t paddedHeight = inHeight + plan.top + bottom;
    const std::int64_t paddedWidth = inWidth + plan.left + right;
    if (paddedHeight % plan.blockHeight != 0 || paddedWidth % plan.blockWidth != 0) {
      return plan.problem =
                 "a padded height and width of " + tensorText(*input) + " divisible by block_shape",
             plan;
    }
    plan.blockedHeight = paddedHeight / plan.blockHeight;
    plan.blockedWidth = paddedWidth / plan.blockWidth;
    plan.outputShape = {static_cast<std::int32_t>(inBatches * blocks),
                        static_cast<std::int32_t>(plan.blockedHeight)};
    if (hasWidth) plan.outputShape.push_back(static_cast<std::int32_t>(plan.blockedWidth));
  } else {
    if (inBatches % blocks != 0) {
      return plan.problem = "a batch of " + tensorText(*input) + " divisible by the " +
                            std::to_string(blocks) + " positions of a block",
             plan;
    }
    plan.batches = inBatches / blocks;
    plan.blockedHeight = inHeight;
    plan.blockedWidth = inWidth;
    plan.height = inHeight * plan.blockHeight - plan.top - bottom;
    plan.width = inWidth * plan.blockWidth - plan.left - right;
    if (plan.height < 0 || plan.width < 0) {
      return plan.problem = "crops no larger than the image of " + tensorText(*input), plan;
    }
    plan.outputShape = {static_cast<std::int32_t>(plan.batches),
                        static_cast<std::int32_t>(plan.height)};
    if (hasWidth) plan.outputShape.push_back(static_cast<std::int32_t>(plan.width));
  }
  plan.outputShape.push_back(static_cast<std::int32_t>(plan.depth));
  return plan;
}

template <Direction kDirection>
std::optional<InferredOutput> layoutShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input != nullptr && (!constantOperand(graph, op, 1) || !constantOperand(graph, op, 2))) {
    return std::nullopt;  // the output shape depends on run-time data
  }
  const BlockLayout plan = planLayout(graph, op, kDirection);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {input->dtype});
}

template <Direction kDirection>
std::optional<std::string> checkLayout(const ir::Graph& graph, const ir::Operator& op) {
  const BlockLayout plan = planLayout(graph, op, kDirection);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  return checkFloat32OrInt8Copy(graph, op, plan.outputShape);
}

// The byte SPACE_TO_BATCH_ND's padding is made of.
std::uint8_t padByte(const ir::Tensor& output) {
  if (output.dtype != ir::DType::Int8) return 0;
  return static_cast<std::uint8_t>(output.quantization.zeroPoint());
}

// Element by element over the output: the image position it shows, or the
// padding.
void evalSpaceToBatch(const ir::Graph& graph, const ir::Operator& op,
                      reference::TensorStore& store) {
  const BlockLayout p = planLayout(graph, op, Direction::SpaceToBatch);
  const ir::Tensor& output = graph.output(op, 0);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(output.dtype));
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  const std::int64_t outBatches = p.batches * p.blockHeight * p.blockWidth;
  std::int64_t o = 0;
  for (std::int64_t ob = 0; ob < outBatches; ++ob) {
    const std::int64_t n = ob % p.batches;
    const std::int64_t position = ob / p.batches;  // sh * bw + sw
    for (std::int64_t y = 0; y < p.blockedHeight; ++y) {
      for (std::int64_t x = 0; x < p.blockedWidth; ++x) {
        const std::int64_t h = y * p.blockHeight + position / p.blockWidth - p.top;
        const std::int64_t w = x * p.blockWidth + position % p.blockWidth - p.left;
        const bool inside = h >= 0 && h < p.height && w >= 0 && w < p.width;
        for (std::int64_t c = 0; c < p.depth; ++c, ++o) {
          auto to = out.begin() + o * elementSize;
          if (!inside) {
            std::fill_n(to, elementSize, padByte(output));
            continue;
          }
          const std::int64_t from = ((n * p.height + h) * p.width + w) * p.depth + c;
          std::copy_n(in.begin() + from * elementSize, elementSize, to);
        }
      }
    }
  }
}

// Element by element over the output: the block position it comes from.
void evalBatchToSpace(const ir::Graph& graph, const ir::Operator& op,
                      reference::TensorStore& store) {
  const BlockLayout p = planLayout(graph, op, Direction::BatchToSpace);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(graph.output(op, 0).dtype));
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  std::int64_t o = 0;
  for (std::int64_t n = 0; n < p.batches; ++n) {
    for (std::int64_t h = 0; h < p.height; ++h) {
      for (std::int64_t w = 0; w < p.width; ++w) {
        const std::int64_t padH = h + p.top, padW = w + p.left;  // before cropping
        const std::int64_t inBatch =
            ((padH % p.blockHeight) * p.blockWidth + padW % p.blockWidth) * p.batches + n;
        const std::int64_t y = padH / p.blockHeight, x = padW / p.blockWidth;
        for (std::int64_t c = 0; c < p.depth; ++c, ++o) {
          const std::int64_t from =
              ((inBatch * p.blockedHeight + y) * p.blockedWidth + x) * p.depth + c;
          std::copy_n(in.begin() + from * elementSize, elementSize, out.begin() + o * elementSize);
        }
      }
    }
  }
}

// The blocks-side positions k in [0, blocked) whose image position
// k * block + shift - margin falls inside [0, size): first and count.
struct Run {
  std::int64_t first = 0;
  std::int64_t count = 0;
};

Run insideRun(std::int64_t blocked, std::int64_t block, std::int64_t shift, std::int64_t margin,
              std::int64_t size) {
  Run run;
  for (std::int64_t k = 0; k < blocked; ++k) {
    const std::int64_t at = k * block + shift - margin;
    if (at < 0 || at >= size) continue;
    if (run.count == 0) run.first = k;
    ++run.count;
  }
  return run;
}

// One strided copy per block position (sh, sw): the batches of that position
// against every bh-th row and bw-th column of the image, where they overlap
// it (the padding or the crops leave out the rest). SPACE_TO_BATCH_ND first
// fills the whole output with the padding when there is any.
template <Direction kDirection>
tir::PrimFunc lowerLayout(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  const BlockLayout p = planLayout(graph, op, kDirection);
  const ir::Tensor& output = graph.output(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const std::int64_t imageBatch = p.height * p.width * p.depth;
  const std::int64_t blockedBatch = p.blockedHeight * p.blockedWidth * p.depth;
  std::vector<tir::Stmt> nests;
  if constexpr (kDirection == Direction::SpaceToBatch) {
    if (p.blockedHeight * p.blockHeight != p.height || p.blockedWidth * p.blockWidth != p.width) {
      const tir::Expr value =
          output.dtype == ir::DType::Float32
              ? tir::floatImm(0.0)
              : tir::intImm(static_cast<std::int8_t>(padByte(output)), tir::ScalarType::Int8);
      const tir::Var i = lowering::loopVar("i");
      nests.push_back(tir::forLoop(i, 0, static_cast<int>(output.elementCount()),
                                   tir::store(out, tir::refVar(i), value)));
    }
  }
  for (std::int64_t sh = 0; sh < p.blockHeight; ++sh) {
    for (std::int64_t sw = 0; sw < p.blockWidth; ++sw) {
      const Run rows = insideRun(p.blockedHeight, p.blockHeight, sh, p.top, p.height);
      const Run columns = insideRun(p.blockedWidth, p.blockWidth, sw, p.left, p.width);
      if (rows.count == 0 || columns.count == 0 || p.batches == 0 || p.depth == 0) continue;
      const std::int64_t position = sh * p.blockWidth + sw;
      // Offsets of the first element copied on either side.
      const std::int64_t imageAt = ((rows.first * p.blockHeight + sh - p.top) * p.width +
                                    (columns.first * p.blockWidth + sw - p.left)) *
                                   p.depth;
      const std::int64_t blockedAt = position * p.batches * blockedBatch +
                                     (rows.first * p.blockedWidth + columns.first) * p.depth;
      // Strides of (batch, row, column, channel) on the image and on the blocks.
      const std::vector<std::int64_t> extents = {p.batches, rows.count, columns.count, p.depth};
      const std::vector<std::int64_t> imageStrides = {imageBatch, p.blockHeight * p.width * p.depth,
                                                      p.blockWidth * p.depth, 1};
      const std::vector<std::int64_t> blockedStrides = {blockedBatch, p.blockedWidth * p.depth,
                                                        p.depth, 1};
      std::vector<lowering::CopyAxis> axes;
      for (std::size_t k = 0; k < extents.size(); ++k) {
        if constexpr (kDirection == Direction::SpaceToBatch) {
          axes.push_back({extents[k], imageStrides[k], blockedStrides[k]});
        } else {
          axes.push_back({extents[k], blockedStrides[k], imageStrides[k]});
        }
      }
      const bool toBlocks = kDirection == Direction::SpaceToBatch;
      nests.push_back(lowering::copyNest(in, tir::intImm(toBlocks ? imageAt : blockedAt), out,
                                         tir::intImm(toBlocks ? blockedAt : imageAt),
                                         lowering::simplifyCopyAxes(axes)));
    }
  }
  if (nests.empty()) {
    // An empty output: a copy of nothing.
    nests.push_back(lowering::copyNest(in, tir::intImm(0), out, tir::intImm(0),
                                       lowering::simplifyCopyAxes({{0, 1, 1}})));
  }
  return fb.finish(tir::seq(std::move(nests)));
}

const reference::Kernel kSpaceToBatchNdKernel{
    ir::OpType::SpaceToBatchNd, checkLayout<Direction::SpaceToBatch>, evalSpaceToBatch};
const reference::Kernel kBatchToSpaceNdKernel{
    ir::OpType::BatchToSpaceNd, checkLayout<Direction::BatchToSpace>, evalBatchToSpace};

}  // namespace

extern const OperatorDefinition kBatchToSpaceNdDefinition{
    .type = ir::OpType::BatchToSpaceNd,
    .dtypes = "float32, int8 (bytes are moved); block_shape and crops constant int32",
    .import = {.minInputs = 3,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::BatchToSpaceNDOptions>(),
               .maxVersion = 4},
    .shape = layoutShape<Direction::BatchToSpace>,
    .kernel = &kBatchToSpaceNdKernel,
    .lower = lowerLayout<Direction::BatchToSpace>,
};

extern const OperatorDefinition kSpaceToBatchNdDefinition{
    .type = ir::OpType::SpaceToBatchNd,
    .dtypes =
        "float32, int8 (bytes are moved; padding is the int8 output zero point or 0.0); "
        "block_shape and paddings constant int32",
    .import = {.minInputs = 3,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::SpaceToBatchNDOptions>(),
               .maxVersion = 4},
    .shape = layoutShape<Direction::SpaceToBatch>,
    .kernel = &kSpaceToBatchNdKernel,
    .lower = lowerLayout<Direction::SpaceToBatch>,
};

}  // namespace loupe::ops
