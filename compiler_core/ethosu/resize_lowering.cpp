#include "ethosu/resize_lowering.h"

#include <string>
#include <vector>

#include "ethosu/operator_temporaries.h"
#include "ops/resize_geometry.h"
#include "reference/kernel_checks.h"

namespace loupe::ethosu {

namespace {

// 2, 4 or 8 when the output is that many times the input in both axes (with
// align_corners, output - 1 that many times input - 1); 1 for the same
// size; 0 otherwise.
int upscaleFactor(const ops::ResizeGeometry& g) {
  if (g.inHeight == g.outHeight && g.inWidth == g.outWidth) return 1;
  const int shortBy = g.alignCorners ? 1 : 0;
  for (const int f : {2, 4, 8}) {
    if (g.outHeight - shortBy == f * (g.inHeight - shortBy) &&
        g.outWidth - shortBy == f * (g.inWidth - shortBy) && g.inHeight > shortBy &&
        g.inWidth > shortBy) {
      return f;
    }
  }
  return 0;
}

class ResizeLowering {
 public:
  ResizeLowering(const ir::Graph& graph, const ir::Operator& op, const NpuArchitecture& arch)
      : graph_(graph), op_(op), arch_(arch) {}

  LoweredOperation run(const NpuFeatureMap& ifm, const NpuFeatureMap& ofm) {
    const ops::ResizeGeometry g = ops::resizeGeometry(graph_, op_);
    if (!g.problem.empty()) fail("needs " + g.problem);
    const ir::Tensor* in = graph_.input(op_, 0);
    const ir::Tensor& out = graph_.output(op_, 0);
    if (in->dtype != ir::DType::Int8 || out.dtype != ir::DType::Int8) {
      fail(reference::describeTensor("input", *in) + " and " +
           reference::describeTensor("output", out) +
           " are not int8 (the NPU resizes int8 maps here)");
    }
    if (g.batches != 1) fail("resizes a batch of " + std::to_string(g.batches));
    if (g.alignCorners && g.halfPixelCenters) {
      fail("sets both align_corners and half_pixel_centers");
    }
    if (ifm.height != g.inHeight || ifm.width != g.inWidth || ofm.height != g.outHeight ||
        ofm.width != g.outWidth || ifm.depth != ofm.depth) {
      fail("the feature maps given do not have the tensors' extents");
    }
    const bool bilinear = op_.type == ir::OpType::ResizeBilinear;
    NpuOperation pool;
    pool.kind = NpuOperationKind::Pool;
    pool.subKind = LOUPE_ETHOSU_pooling_mode_AVERAGE;
    pool.ifm = ifm;
    pool.ofm = ofm;
    // The values as they are: no zero points, no scale, the int8 range.
    pool.ifm.zeroPoint = 0;
    pool.ofm.zeroPoint = 0;
    // The same size: the 1x1 pool as it is, a copy.
    const int factor = upscaleFactor(g);
    if (factor == 1) return withBlock(pool);
    if (bilinear && g.halfPixelCenters) {
      fail(
          "resizes bilinearly with half_pixel_centers, which takes four depthwise "
          "convolutions with edge-replicating tile padding on the NPU (not lowered)");
    }
    // Twice, four or eight times the size; with align_corners the corners'
    // samples stay put, so the output is one short of it.
    const int shortBy = g.alignCorners ? 1 : 0;
    if (g.inHeight == 1 && g.inWidth == 1) {
      fail("resizes 1x1 to " + std::to_string(g.outHeight) + "x" + std::to_string(g.outWidth) +
           ", a broadcast (Vela's element-wise ADD of zeros; not lowered)");
    }
    if (factor == 0) {
      const std::string by = g.alignCorners ? "(output - 1) / (input - 1)" : "output / input";
      fail("resizes " + std::to_string(g.inHeight) + "x" + std::to_string(g.inWidth) + " to " +
           std::to_string(g.outHeight) + "x" + std::to_string(g.outWidth) +
           "; the NPU resizes by 2, 4 or 8 (" + by + " in both axes) or keeps the size");
    }
    if (!bilinear && g.alignCorners && factor > 2) {
      fail("resizes by " + std::to_string(factor) +
           " with align_corners, which picks the middle of each upscaled block (not lowered); "
           "the NPU resizes so by 2 here");
    }
    // Each x2 upscaling but the last is a copy of its upscaled input into a
    // map of the operator's own (NEAREST under a 1x1 pool): the last one's
    // input is the map upscaled factor / 2 times, nearest neighbour.
    std::vector<NpuOperation> chain;
    NpuFeatureMap from = pool.ifm;
    OperatorTemporaries temporaries;
    for (int scale = 2; scale < factor; scale *= 2) {
      const NpuFeatureMap to = temporaries.allocate(from.height * 2, from.width * 2, from.depth);
      NpuOperation copy = pool;
      copy.ifm = from;
      copy.ofm = to;
      copy.ifmUpscale = LOUPE_ETHOSU_upscale_mode_NEAREST;
      chain.push_back(blocked(copy));
      from = to;
    }
    pool.ifm = from;
    pool.ifmUpscale = LOUPE_ETHOSU_upscale_mode_NEAREST;
    if (!bilinear && g.alignCorners) return pickAfter(ifm, ofm, g.depth);  // by 2 only
    if (bilinear) {
      // Each output averages the factor x factor upscaled elements from its
      // own on, which weighs each input as the bilinear resize does; past
      // the last row or column the pool counts only what is inside.
      pool.kernel.height = pool.kernel.width = factor;
      pool.kernel.padBottom = pool.kernel.padRight = shortBy == 1 ? 0 : factor - 1;
    }
    chain.push_back(blocked(pool));
    LoweredOperation lowered;
    lowered.operation = chain.front();
    lowered.followers.assign(chain.begin() + 1, chain.end());
    lowered.temporaryBytes = temporaries.bytes();
    return lowered;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw NpuLoweringError("operator " + std::to_string(op_.index) + " (" + op_.typeName() +
                           "): " + why);
  }

  LoweredOperation withBlock(const NpuOperation& pool) const {
    LoweredOperation lowered;
    lowered.operation = blocked(pool);
    return lowered;
  }

  NpuOperation blocked(NpuOperation pool) const {
    BlockRequest request;
    request.kind = NpuBlockKind::Pooling;
    request.ofm = {pool.ofm.width, pool.ofm.height, pool.ofm.depth};
    request.ifm = {pool.ifm.width, pool.ifm.height, pool.ifm.depth};
    request.kernelWidth = pool.kernel.width;
    request.kernelHeight = pool.kernel.height;
    request.scaled = false;
    request.ifmUpscale = pool.ifmUpscale;
    const auto block = chooseBlockConfig(arch_, request);
    if (!block) fail("no OFM block fits the SHRAM of " + std::string(arch_.name));
    pool.block = *block;
    return pool;
  }

  // Nearest neighbour with align_corners: output y samples input
  // round(y / 2), half up, which is upscaled element y + 1: a 2x2 depthwise
  // convolution of weight 1 at the bottom right, unscaled. Lowered as the
  // DEPTHWISE_CONV_2D it is, over a graph of its own whose input has the
  // upscaled extents.
  LoweredOperation pickAfter(const NpuFeatureMap& ifm, const NpuFeatureMap& ofm, int depth) const {
    ir::Graph picker;
    const auto add = [&picker](std::string name, ir::DType dtype, ir::Shape shape) {
      ir::Tensor t;
      t.index = static_cast<int>(picker.tensors.size());
      t.name = std::move(name);
      t.dtype = dtype;
      t.shape = std::move(shape);
      t.quantization.scales = {1.0f};
      t.quantization.zeroPoints = {0};
      picker.tensors.push_back(std::move(t));
      return picker.tensors.back().index;
    };
    const int input = add("upscaled", ir::DType::Int8, {1, 2 * ifm.height, 2 * ifm.width, depth});
    const int filter = add("pick", ir::DType::Int8, {1, 2, 2, depth});
    const int output = add("resized", ir::DType::Int8, {1, ofm.height, ofm.width, depth});
    std::vector<std::uint8_t> weights(static_cast<std::size_t>(4 * depth), 0);
    for (int c = 0; c < depth; ++c) weights[static_cast<std::size_t>(3 * depth + c)] = 1;
    picker.tensors[static_cast<std::size_t>(filter)].data = std::move(weights);
    picker.tensors[static_cast<std::size_t>(filter)].isConstant = true;
    ir::Operator depthwise;
    depthwise.index = op_.index;
    depthwise.type = ir::OpType::DepthwiseConv2D;
    depthwise.inputs = {input, filter, ir::kNoTensor};
    depthwise.outputs = {output};
    ir::DepthwiseConv2DAttrs attrs;
    attrs.padding = ir::Padding::Valid;
    depthwise.attributes = attrs;
    NpuFeatureMap source = ifm, destination = ofm;
    source.zeroPoint = destination.zeroPoint = 0;
    try {
      return lowerConvolution(picker, depthwise, arch_, source, destination,
                              LOUPE_ETHOSU_upscale_mode_NEAREST);
    } catch (const NpuLoweringError& error) {
      // Named after the resize, not the convolution it became.
      const std::string what = error.what();
      const auto colon = what.find("): ");
      fail(colon == std::string::npos ? what : what.substr(colon + 3));
    }
  }

  const ir::Graph& graph_;
  const ir::Operator& op_;
  const NpuArchitecture& arch_;
};

}  // namespace

int resizeNpuOperations(const ir::Graph& graph, const ir::Operator& op) {
  int operations = 1;
  for (int f = upscaleFactor(ops::resizeGeometry(graph, op)); f > 2; f /= 2) ++operations;
  return operations;
}

bool isResize(const ir::Operator& op) {
  return op.type == ir::OpType::ResizeNearestNeighbor || op.type == ir::OpType::ResizeBilinear;
}

LoweredOperation lowerResize(const ir::Graph& graph, const ir::Operator& op,
                             const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                             const NpuFeatureMap& ofm) {
  if (!isResize(op)) {
    throw NpuLoweringError("operator " + std::to_string(op.index) + " (" + op.typeName() +
                           "): is not a resize");
  }
  return ResizeLowering(graph, op, arch).run(ifm, ofm);
}

}  // namespace loupe::ethosu
