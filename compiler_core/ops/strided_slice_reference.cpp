// STRIDED_SLICE, following TFLite Micro: begin/end/strides are constant int32
// vectors with one entry per input dimension; begin_mask, end_mask and
// shrink_axis_mask are honoured. TFLite Micro ignores ellipsis_mask,
// new_axis_mask and the offset attribute (it clears them before evaluating),
// so a model that sets them is refused here instead of being evaluated with
// semantics that differ from TensorFlow's.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/strided_slice_plan.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

std::int32_t clampIndex(std::int32_t v, std::int32_t lo, std::int32_t hi) {
  return v > hi ? hi : (v < lo ? lo : v);
}

bool bit(int mask, int axis) {
  return (mask & (1 << axis)) != 0;
}

// TFLite's strided_slice::StartForAxis (used when checking the output shape).
std::int32_t shapeStartForAxis(int beginMask, std::int32_t begin, std::int32_t stride,
                               std::int32_t axisSize, int axis) {
  if (axisSize == 0) return 0;
  std::int32_t start = begin;
  if (bit(beginMask, axis)) {
    start = stride > 0 ? std::numeric_limits<std::int32_t>::lowest()
                       : std::numeric_limits<std::int32_t>::max();
  }
  if (start < 0) start += axisSize;
  return stride > 0 ? clampIndex(start, 0, axisSize) : clampIndex(start, -1, axisSize - 1);
}

// TFLite's strided_slice::StopForAxis.
std::int32_t shapeStopForAxis(int endMask, int shrinkMask, std::int32_t end, std::int32_t stride,
                              std::int32_t axisSize, int axis, std::int32_t start) {
  if (axisSize == 0) return 0;
  if (bit(shrinkMask, axis)) return start + 1;
  std::int32_t stop = end;
  if (bit(endMask, axis)) {
    stop = stride > 0 ? std::numeric_limits<std::int32_t>::max()
                      : std::numeric_limits<std::int32_t>::lowest();
  }
  if (stop < 0) stop += axisSize;
  return stride > 0 ? clampIndex(stop, 0, axisSize) : clampIndex(stop, -1, axisSize - 1);
}

}  // namespace

StridedSliceShapeResult stridedSliceOutputShape(const ir::Shape& inputShape,
                                                const std::vector<std::int32_t>& begin,
                                                const std::vector<std::int32_t>& end,
                                                const std::vector<std::int32_t>& strides,
                                                const ir::StridedSliceAttrs& attrs) {
  StridedSliceShapeResult result;
  const int rank = static_cast<int>(inputShape.size());
  if (attrs.ellipsisMask != 0 || attrs.newAxisMask != 0) {
    result.error = "ellipsis_mask " + std::to_string(attrs.ellipsisMask) + " / new_axis_mask " +
                   std::to_string(attrs.newAxisMask) +
                   " are not supported (expected 0: TFLite Micro ignores these masks)";
    return result;
  }
  if (attrs.offset) {
    result.error = "offset=true is not supported (TFLite Micro ignores the attribute)";
    return result;
  }
  if (static_cast<int>(begin.size()) != rank || static_cast<int>(end.size()) != rank ||
      static_cast<int>(strides.size()) != rank) {
    result.error = "begin/end/strides have " + std::to_string(begin.size()) + "/" +
                   std::to_string(end.size()) + "/" + std::to_string(strides.size()) +
                   " entries (expected " + std::to_string(rank) + ", one per input dimension)";
    return result;
  }
  for (int axis = 0; axis < rank; ++axis) {
    const std::int32_t stride = strides[axis];
    if (stride == 0) {
      result.error = "stride of axis " + std::to_string(axis) + " is 0 (must be non-zero)";
      return result;
    }
    const std::int32_t size = inputShape[axis];
    const std::int32_t start = shapeStartForAxis(attrs.beginMask, begin[axis], stride, size, axis);
    const bool shrink = bit(attrs.shrinkAxisMask, axis);
    if (shrink) {
      // TFLite Micro's evaluation reads nothing when a shrunk axis starts
      // past the end; TensorFlow reports an out-of-bounds index.
      const std::int32_t index = begin[axis] < 0 ? begin[axis] + size : begin[axis];
      if (!bit(attrs.beginMask, axis) && (index < 0 || index >= size)) {
        result.error = "shrunk axis " + std::to_string(axis) + " has begin " +
                       std::to_string(begin[axis]) + " outside [" + std::to_string(-size) + ", " +
                       std::to_string(size) + ")";
        return result;
      }
      continue;  // a shrunk axis has length 1 and leaves the output shape
    }
    const std::int32_t stop =
        shapeStopForAxis(attrs.endMask, attrs.shrinkAxisMask, end[axis], stride, size, axis, start);
    // Computed in float as TFLite Micro's CheckOutputSize does.
    auto dim = static_cast<std::int32_t>(
        std::ceil(static_cast<float>(stop - start) / static_cast<float>(stride)));
    result.shape.push_back(dim < 0 ? 0 : dim);
  }
  return result;
}

StridedSlicePlan planStridedSlice(const ir::Shape& inputShape,
                                  const std::vector<std::int32_t>& begin,
                                  const std::vector<std::int32_t>& end,
                                  const std::vector<std::int32_t>& strides,
                                  const ir::StridedSliceAttrs& attrs) {
  // Pad at the front to five dimensions: padded axes take everything
  // (start 0, stop 1, stride 1, begin and end mask bits set).
  const int rank = static_cast<int>(inputShape.size());
  const int pad = kStridedSliceMaxRank - rank;
  StridedSlicePlan plan;
  std::array<std::int32_t, kStridedSliceMaxRank> starts{}, stops{}, steps{};
  for (int i = 0; i < kStridedSliceMaxRank; ++i) {
    if (i < pad) {
      plan.inputShape[i] = 1;
      starts[i] = 0;
      stops[i] = 1;
      steps[i] = 1;
    } else {
      plan.inputShape[i] = inputShape[i - pad];
      starts[i] = begin[i - pad];
      stops[i] = end[i - pad];
      steps[i] = strides[i - pad];
    }
  }
  const int padBits = (1 << pad) - 1;
  const int beginMask = (attrs.beginMask << pad) | padBits;
  const int endMask = (attrs.endMask << pad) | padBits;
  const int shrinkMask = attrs.shrinkAxisMask << pad;

  for (int axis = 0; axis < kStridedSliceMaxRank; ++axis) {
    const std::int32_t size = plan.inputShape[axis];
    const std::int32_t stride = steps[axis];
    // TFLite's StridedSliceStartForAxis: offset and clamp, then the mask.
    std::int32_t start = starts[axis];
    if (start < 0) start += size;
    start = stride > 0 ? clampIndex(start, 0, size) : clampIndex(start, -1, size - 1);
    if (bit(beginMask, axis)) start = stride > 0 ? 0 : size - 1;
    // TFLite's StridedSliceEndForAxis (offset is always false in TFLite Micro).
    std::int32_t stop;
    if (bit(shrinkMask, axis)) {
      stop = start >= size ? start : start + 1;
    } else {
      stop = stops[axis];
      if (stop < 0) stop += size;
      stop = stride > 0 ? clampIndex(stop, 0, size) : clampIndex(stop, -1, size - 1);
      if (bit(endMask, axis)) stop = stride > 0 ? size : -1;
    }
    plan.axes[axis] = {start, stop, stride};
  }
  return plan;
}

namespace {

struct StridedSliceOperands {
  std::vector<std::int32_t> begin, end, strides;
};

std::optional<std::vector<std::int32_t>> int32Operand(const ir::Tensor& tensor) {
  if (tensor.dtype != ir::DType::Int32) return std::nullopt;
  auto values = constantIntegers(tensor);
  if (!values) return std::nullopt;
  return std::vector<std::int32_t>(values->begin(), values->end());
}

std::optional<std::string> checkStridedSlice(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "STRIDED_SLICE", 4)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  switch (input.dtype) {
    case ir::DType::Float32:
    case ir::DType::Int8:
    case ir::DType::Int16:
    case ir::DType::Int32:
    case ir::DType::Bool:
      break;
    default:
      return "input dtype " + describeDtype(input.dtype) +
             " is not supported (expected float32, int8, int16, int32 or bool)";
  }
  if (output.dtype != input.dtype) {
    return "output dtype " + describeDtype(output.dtype) + " differs from input dtype " +
           describeDtype(input.dtype);
  }
  if (input.shape.size() > static_cast<std::size_t>(kStridedSliceMaxRank)) {
    return "input rank " + std::to_string(input.shape.size()) + " exceeds 5";
  }
  const char* names[] = {"", "begin", "end", "strides"};
  StridedSliceOperands operands;
  std::vector<std::int32_t>* targets[] = {nullptr, &operands.begin, &operands.end,
                                          &operands.strides};
  for (std::size_t slot = 1; slot <= 3; ++slot) {
    const ir::Tensor& tensor = *graph.input(op, slot);
    auto values = int32Operand(tensor);
    if (!values) {
      return std::string(names[slot]) + " operand '" + tensor.name + "' must be a constant int32 " +
             "tensor (found " + (tensor.isConstant ? "constant " : "non-constant ") +
             describeDtype(tensor.dtype) + ")";
    }
    *targets[slot] = std::move(*values);
  }
  const auto* attrs = std::get_if<ir::StridedSliceAttrs>(&op.attributes);
  const ir::StridedSliceAttrs noAttrs;
  auto shape = stridedSliceOutputShape(input.shape, operands.begin, operands.end, operands.strides,
                                       attrs ? *attrs : noAttrs);
  if (shape.error) return shape.error;
  if (shape.shape != output.shape) {
    return "slicing input shape " + ir::shapeToString(input.shape) + " gives " +
           ir::shapeToString(shape.shape) + " but output '" + output.name + "' has shape " +
           ir::shapeToString(output.shape);
  }
  return std::nullopt;
}

bool keepsGoing(std::int32_t index, const StridedSliceAxisRange& range) {
  return range.stride > 0 ? index < range.stop : index > range.stop;
}

void evalStridedSlice(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = graph.tensor(op.inputs[0]);
  const auto* attrs = std::get_if<ir::StridedSliceAttrs>(&op.attributes);
  const ir::StridedSliceAttrs noAttrs;
  const auto plan =
      planStridedSlice(input.shape, *int32Operand(graph.tensor(op.inputs[1])),
                       *int32Operand(graph.tensor(op.inputs[2])),
                       *int32Operand(graph.tensor(op.inputs[3])), attrs ? *attrs : noAttrs);
  const std::size_t elementSize = ir::dtypeSize(input.dtype);
  auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  const auto& s = plan.inputShape;
  const auto& a = plan.axes;
  std::size_t written = 0;
  // Elements are written sequentially in the order TFLite's reference visits
  // them; the output is never longer than the check computed.
  for (std::int32_t i0 = a[0].start; keepsGoing(i0, a[0]); i0 += a[0].stride) {
    for (std::int32_t i1 = a[1].start; keepsGoing(i1, a[1]); i1 += a[1].stride) {
      for (std::int32_t i2 = a[2].start; keepsGoing(i2, a[2]); i2 += a[2].stride) {
        for (std::int32_t i3 = a[3].start; keepsGoing(i3, a[3]); i3 += a[3].stride) {
          for (std::int32_t i4 = a[4].start; keepsGoing(i4, a[4]); i4 += a[4].stride) {
            const std::int64_t index =
                (((static_cast<std::int64_t>(i0) * s[1] + i1) * s[2] + i2) * s[3] + i3) * s[4] + i4;
            if (written + elementSize > out.size()) return;
            std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(index * elementSize), elementSize,
                        out.begin() + static_cast<std::ptrdiff_t>(written));
            written += elementSize;
          }
        }
      }
    }
  }
}

}  // namespace

extern const Kernel kStridedSliceKernel{ir::OpType::StridedSlice, checkStridedSlice,
                                        evalStridedSlice};

}  // namespace loupe::reference
