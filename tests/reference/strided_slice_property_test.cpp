// STRIDED_SLICE on drawn cases against TFLite Micro's semantics, written
// here a second time from its kernel (strided_slice_common.cc's
// CheckOutputSize with StartForAxis/StopForAxis for the output shape;
// reference_ops::StridedSlice with StridedSlicePadIndices,
// StridedSliceStartForAxis and StridedSliceEndForAxis for the copy, TFLM
// commit 90b983c) and independently of Loupe's kernel: ranks 1 to 5, strides
// from -3 to 3, begins and ends anywhere from before the start to past the
// end (negative ones counted from the end), begin_mask, end_mask and
// shrink_axis_mask on any axis (shrunk axes with a positive stride and a
// begin inside the axis, as TFLite produces them), empty results. The
// oracle's bytes were cross-checked offline against TFLM's own kernel
// compiled outside this repository (LOUPE_STRIDED_SLICE_CASES_DUMP=FILE
// writes the cases).
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace strided_slice_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct SliceCase {
  ir::Shape shape;
  std::vector<std::int32_t> begin, end, strides;
  int beginMask = 0, endMask = 0, shrinkMask = 0;
  std::vector<std::int32_t> input;
};

bool bit(int mask, int axis) {
  return (mask >> axis) & 1;
}

// StridedSliceStartForAxis: counted from the end when negative, clamped,
// then the mask.
int startFor(const SliceCase& c, int axis) {
  const int size = c.shape[axis], stride = c.strides[axis];
  int start = c.begin[axis];
  if (start < 0) start += size;
  start = stride > 0 ? std::clamp(start, 0, size) : std::clamp(start, -1, size - 1);
  if (bit(c.beginMask, axis)) start = stride > 0 ? 0 : size - 1;
  return start;
}

// StridedSliceEndForAxis: a shrunk axis takes one element.
int endFor(const SliceCase& c, int axis, int start) {
  const int size = c.shape[axis], stride = c.strides[axis];
  if (bit(c.shrinkMask, axis)) return start >= size ? start : start + 1;
  int end = c.end[axis];
  if (end < 0) end += size;
  end = stride > 0 ? std::clamp(end, 0, size) : std::clamp(end, -1, size - 1);
  if (bit(c.endMask, axis)) end = stride > 0 ? size : -1;
  return end;
}

// CheckOutputSize: ceil((end - begin) / stride) in float, at least 0;
// shrunk axes dropped.
ir::Shape outputShape(const SliceCase& c) {
  ir::Shape shape;
  for (int axis = 0; axis < static_cast<int>(c.shape.size()); ++axis) {
    if (bit(c.shrinkMask, axis)) continue;
    const int start = startFor(c, axis), end = endFor(c, axis, start);
    const auto extent = static_cast<std::int32_t>(
        std::ceil(static_cast<float>(end - start) / static_cast<float>(c.strides[axis])));
    shape.push_back(std::max(extent, 0));
  }
  return shape;
}

std::vector<std::int32_t> tfliteMicro(const SliceCase& c) {
  const int rank = static_cast<int>(c.shape.size());
  std::vector<int> starts(rank), ends(rank), index(rank);
  for (int axis = 0; axis < rank; ++axis) {
    starts[axis] = startFor(c, axis);
    ends[axis] = endFor(c, axis, starts[axis]);
  }
  auto inside = [&](int axis, int i) {
    return c.strides[axis] > 0 ? i < ends[axis] : i > ends[axis];
  };
  std::vector<std::int32_t> result;
  // The nested loops, outermost axis first.
  std::function<void(int, std::int64_t)> walk = [&](int axis, std::int64_t offset) {
    if (axis == rank) {
      result.push_back(c.input[static_cast<std::size_t>(offset)]);
      return;
    }
    for (int i = starts[axis]; inside(axis, i); i += c.strides[axis]) {
      walk(axis + 1, offset * c.shape[axis] + i);
    }
  };
  walk(0, 0);
  return result;
}

SliceCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  SliceCase c;
  const int rank = uniform(1, 5);
  for (int axis = 0; axis < rank; ++axis) {
    const int size = uniform(1, rank > 3 ? 4 : 7);
    c.shape.push_back(size);
    int stride = uniform(1, 3) * (uniform(0, 2) == 0 ? -1 : 1);
    if (uniform(0, 2) == 0) stride = 1;
    c.strides.push_back(stride);
    if (uniform(0, 3) == 0) {
      // Anywhere, often an empty slice.
      c.begin.push_back(uniform(-size - 2, size + 2));
      c.end.push_back(uniform(-size - 2, size + 2));
    } else {
      // A non-empty slice, its bounds written from the start or the end.
      int first = uniform(0, size - 1), last;
      if (stride > 0) {
        last = uniform(first + 1, size);
        if (last == size && uniform(0, 1)) last += uniform(1, 3);  // past the end
      } else {
        last = uniform(-1, first - 1);
        if (last == -1) last = -size - uniform(1, 3);  // before the start
      }
      if (uniform(0, 2) == 0) first -= size;
      if (last >= 0 && last < size && uniform(0, 2) == 0) last -= size;
      c.begin.push_back(first);
      c.end.push_back(last);
    }
    if (uniform(0, 4) == 0) c.beginMask |= 1 << axis;
    if (uniform(0, 4) == 0) c.endMask |= 1 << axis;
    if (stride > 0 && uniform(0, 5) == 0) {
      c.shrinkMask |= 1 << axis;
      c.begin.back() = uniform(-size, size - 1);
      c.end.back() = c.begin.back() + 1;
    }
  }
  std::int64_t count = 1;
  for (auto d : c.shape) count *= d;
  for (std::int64_t i = 0; i < count; ++i) c.input.push_back(uniform(-128, 127));
  return c;
}

std::vector<std::int32_t> runLoupe(const SliceCase& c) {
  test::GraphBuilder b;
  const auto n = static_cast<std::int32_t>(c.shape.size());
  const int in = b.tensor("in", ir::DType::Int8, c.shape, test::perTensor(0.1f, 0));
  const int begin = b.constant("begin", ir::DType::Int32, {n}, c.begin);
  const int end = b.constant("end", ir::DType::Int32, {n}, c.end);
  const int strides = b.constant("strides", ir::DType::Int32, {n}, c.strides);
  const int out = b.tensor("out", ir::DType::Int8, outputShape(c), test::perTensor(0.1f, 0));
  ir::StridedSliceAttrs attrs;
  attrs.beginMask = c.beginMask;
  attrs.endMask = c.endMask;
  attrs.shrinkAxisMask = c.shrinkMask;
  b.op(ir::OpType::StridedSlice, {in, begin, end, strides}, {out}, attrs);
  const ir::Graph graph = b.inputs({in}).outputs({out}).build();
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  const auto values = test::runGraph<std::int8_t>(
      graph, {test::bytesOf(std::vector<std::int8_t>(c.input.begin(), c.input.end()))});
  return {values.begin(), values.end()};
}

}  // namespace

class StridedSliceProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(36);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_STRIDED_SLICE_CASES_DUMP")) dump.open(file);
    int negative = 0, masked = 0, shrunk = 0, empty = 0, rank5 = 0;
    constexpr int kCases = 3000;
    for (int n = 0; n < kCases; ++n) {
      const SliceCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump << "strided_slice " << c.beginMask << ' ' << c.endMask << ' ' << c.shrinkMask << ' ';
        tflm::dumpValues(dump, std::vector<std::int32_t>(c.shape.begin(), c.shape.end()));
        dump << ' ';
        tflm::dumpValues(dump, c.begin);
        dump << ' ';
        tflm::dumpValues(dump, c.end);
        dump << ' ';
        tflm::dumpValues(dump, c.strides);
        dump << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      negative += std::any_of(c.strides.begin(), c.strides.end(), [](int s) { return s < 0; });
      masked += c.beginMask != 0 || c.endMask != 0;
      shrunk += c.shrinkMask != 0;
      empty += expected.empty();
      rank5 += c.shape.size() == 5;
    }
    qInfo("negative strides %d, begin/end masks %d, shrunk axes %d, empty results %d, rank 5 %d",
          negative, masked, shrunk, empty, rank5);
    // The draw reaches the branches it is meant to.
    QVERIFY(negative > 1000 && masked > 1500 && shrunk > 800 && empty > 300 && rank5 > 400 &&
            kCases - empty > 1000);
  }
};

LOUPE_TEST_APPLESS_MAIN(StridedSliceProperty)

}  // namespace strided_slice_property_test

#include "strided_slice_property_test.moc"
