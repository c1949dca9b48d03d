#include "ethosu/softmax_lowering.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <variant>

#include "ethosu/operator_temporaries.h"
#include "loupe/fixed_point_math.h"
#include "reference/activation_params.h"

namespace loupe::ethosu {

namespace {

constexpr std::uint64_t kAlignment = 16;  // every map on 16 bytes, as Vela places them

// Each exponential is at most 2^19 in the Q12.19 sum: only a row of 512 or
// more can sum to 2^28, where the final right shift passes 31.
constexpr int kRowsThatOverflowTheShift = 512;

std::uint64_t alignUp(std::uint64_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

// The exponentials the SUB's output stage reads: entry i is exp(beta *
// input_scale * (i - 255)) in Q0.31, the value TFLite Micro computes for
// the difference i - 255 to the row maximum (0 below diff_min, where
// TFLite leaves the element out), as 32-bit little-endian words.
std::vector<std::uint8_t> exponentialTable(float inputScale, float beta) {
  const reference::SoftmaxInt8Params p = reference::softmaxInt8Params(inputScale, beta);
  std::vector<std::uint8_t> table;
  for (int i = 0; i < 256; ++i) {
    const auto word = static_cast<std::uint32_t>(
        loupe_softmax_exp_q31(i - 255, p.diffMin, p.inputMultiplier, p.inputLeftShift));
    for (int byte = 0; byte < 4; ++byte)
      table.push_back(static_cast<std::uint8_t>(word >> (8 * byte)));
  }
  return table;
}

// Builds the operations one after the other: the maps between them in a
// scratch block of the operator's own (first fit over the maps released),
// the int32 constants in its constant bytes, each value once.
class SoftmaxBuilder {
 public:
  SoftmaxBuilder(const NpuArchitecture& arch, LoweredOperation& lowered,
                 const std::function<void(const std::string&)>& fail)
      : arch_(arch), lowered_(lowered), fail_(fail) {}

  // A rows x 1 x depth map of `bits` in the operator's scratch.
  NpuFeatureMap temporary(int rows, int depth, int bits) {
    const NpuFeatureMap map = temporaries_.allocate(rows, 1, depth, bits);
    lowered_.temporaryBytes = temporaries_.bytes();
    return map;
  }

  // `map`'s bytes are free for the maps allocated after this.
  void release(const NpuFeatureMap& map) { temporaries_.release(map); }

  // A 1 x 1 x 1 int32 map holding `value` in the flash.
  NpuFeatureMap constant(std::int32_t value) {
    auto found = constants_.find(value);
    if (found == constants_.end()) {
      std::vector<std::uint8_t>& bytes = lowered_.constantMaps;
      const std::uint64_t base = bytes.size();
      const auto word = static_cast<std::uint32_t>(value);
      for (int byte = 0; byte < 4; ++byte)
        bytes.push_back(static_cast<std::uint8_t>(word >> (8 * byte)));
      bytes.resize(alignUp(bytes.size()));
      found = constants_.emplace(value, base).first;
    }
    NpuFeatureMap map = NpuFeatureMap::nhwc(0, found->second, 1, 1, 1, 32);
    map.home = NpuMapHome::Constant;
    return map;
  }

  // An element-wise operation of `mode` on `a` (the full-size operand) and
  // `b` (which may broadcast), into `out`: both operands taken at scale 1
  // (OPA_OPB_16), the result scaled by ofmScale / 2^ofmShift (a 32-bit
  // IFM's MUL and ADD only shift) or, with `scaled` false, as computed.
  NpuOperation& elementwise(int mode, const NpuFeatureMap& a, const NpuFeatureMap& b,
                            const NpuFeatureMap& out, bool scaled = true) {
    NpuOperation op;
    op.kind = NpuOperationKind::Elementwise;
    op.subKind = mode;
    op.ifm = a;
    op.ifm2 = b;
    op.ofm = out;
    op.ifmScaleMode = LOUPE_ETHOSU_ifm_scale_mode_OPA_OPB_16;
    op.opaScale = 1;
    op.opbScale = 1;
    op.globalScale = scaled;
    BlockRequest request;
    request.kind = NpuBlockKind::Elementwise;
    request.ofm = {out.width, out.height, out.depth};
    request.ifm = request.ofm;
    request.ifmBits = a.bits;
    return add(std::move(op), request);
  }

  NpuOperation& pool(int mode, const NpuFeatureMap& in, const NpuFeatureMap& out, int kernelWidth) {
    NpuOperation op;
    op.kind = NpuOperationKind::Pool;
    op.subKind = mode;
    op.ifm = in;
    op.ofm = out;
    op.kernel.width = kernelWidth;
    BlockRequest request;
    request.kind = NpuBlockKind::Pooling;
    request.ofm = {out.width, out.height, out.depth};
    request.ifm = {in.width, in.height, in.depth};
    request.ifmBits = in.bits;
    request.kernelWidth = kernelWidth;
    request.scaled = false;
    return add(std::move(op), request);
  }

 private:
  // The table is in the SHRAM from before the first operation to the SUB
  // that reads it: every operation keeps clear of the table's banks.
  NpuOperation& add(NpuOperation op, BlockRequest request) {
    request.usesLookupTable = true;
    const auto block = chooseBlockConfig(arch_, request);
    if (!block) fail_("no OFM block fits the SHRAM of " + std::string(arch_.name));
    op.block = *block;
    op.activationMin = -128;
    op.activationMax = 127;
    if (!started_) {
      started_ = true;
      lowered_.operation = std::move(op);
      return lowered_.operation;
    }
    lowered_.followers.push_back(std::move(op));
    return lowered_.followers.back();
  }

  const NpuArchitecture& arch_;
  LoweredOperation& lowered_;
  const std::function<void(const std::string&)>& fail_;
  bool started_ = false;
  OperatorTemporaries temporaries_;
  std::map<std::int32_t, std::uint64_t> constants_;
};

}  // namespace

int softmaxNpuOperations(int rowLength) {
  return 31 + (rowLength >= kRowsThatOverflowTheShift ? 1 : 0);
}

LoweredOperation lowerSoftmax(const ir::Graph& graph, const ir::Operator& op,
                              const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                              const NpuFeatureMap& ofm) {
  const std::function<void(const std::string&)> fail = [&op](const std::string& why) {
    throw NpuLoweringError("operator " + std::to_string(op.index) + " (" + op.typeName() +
                           "): " + why);
  };
  if (op.type != ir::OpType::Softmax) fail("is not a SOFTMAX");
  const auto* attrs = std::get_if<ir::SoftmaxAttrs>(&op.attributes);
  const ir::Tensor* in = graph.input(op, 0);
  if (attrs == nullptr || in == nullptr || in->isConstant) fail("has no beta or input map");
  const ir::Tensor& out = graph.output(op, 0);
  for (const ir::Tensor* t : {in, &out}) {
    if (auto problem = notInt8PerTensor(t == in ? "input" : "output", *t)) fail(*problem);
  }
  if (in->shape.empty() || in->shape != out.shape) fail("its input and output shapes differ");
  if (out.quantization.scale() != 1.f / 256 || out.quantization.zeroPoint() != -128) {
    fail("its output is not quantised as TFLite's int8 SOFTMAX (scale 1/256, zero point -128)");
  }
  if (!(attrs->beta > 0)) fail("its beta is not positive");
  const double rescale = static_cast<double>(attrs->beta) * in->quantization.scale() *
                         static_cast<double>(1 << (31 - reference::kSoftmaxScaledDiffIntegerBits));
  if (!(rescale > 1.0)) fail("beta times the input scale is below 2^-26, which TFLite refuses");
  const int depth = in->shape.back();
  const std::int64_t rows = in->elementCount() / std::max(depth, 1);
  // The feature maps' heights, widths and depths are 16-bit registers.
  constexpr std::int64_t kMaxExtent = 1 << 16;
  if (depth < 1 || rows < 1 || depth > kMaxExtent || rows > kMaxExtent) {
    fail("its rows or their length exceed the NPU's 65536");
  }
  if (static_cast<std::int64_t>(ifm.height) * ifm.width * ifm.depth != in->elementCount() ||
      static_cast<std::int64_t>(ofm.height) * ofm.width * ofm.depth != out.elementCount() ||
      ifm.nhcwb16 || ofm.nhcwb16) {
    fail("its maps are not the whole tensors in NHWC");
  }
  const int r = static_cast<int>(rows);
  // The input and output as rows x 1 x depth, and the input as rows x depth
  // x 1, where a pool across the width finds each row's maximum.
  const auto asRows = [r, depth](const NpuFeatureMap& map, int width, int mapDepth) {
    NpuFeatureMap rowsMap = NpuFeatureMap::nhwc(map.region, map.base, r, width, mapDepth, map.bits);
    rowsMap.home = map.home;
    rowsMap.offset = map.offset;
    rowsMap.strideY = static_cast<std::uint64_t>(depth) * static_cast<std::uint64_t>(map.bits / 8);
    return rowsMap;
  };
  NpuFeatureMap input = asRows(ifm, 1, depth);
  NpuFeatureMap inputRows = asRows(ifm, depth, 1);
  NpuFeatureMap output = asRows(ofm, 1, depth);
  const int zeroPoint = in->quantization.zeroPoint();
  input.zeroPoint = inputRows.zeroPoint = zeroPoint;
  output.zeroPoint = out.quantization.zeroPoint();

  LoweredOperation lowered;
  lowered.lookupTable = exponentialTable(in->quantization.scale(), attrs->beta);
  SoftmaxBuilder b(arch, lowered, fail);
  using Mode = int;
  constexpr Mode kMul = LOUPE_ETHOSU_elementwise_mode_MUL, kAdd = LOUPE_ETHOSU_elementwise_mode_ADD,
                 kSub = LOUPE_ETHOSU_elementwise_mode_SUB, kClz = LOUPE_ETHOSU_elementwise_mode_CLZ,
                 kShr = LOUPE_ETHOSU_elementwise_mode_SHR, kShl = LOUPE_ETHOSU_elementwise_mode_SHL;
  const auto perRow = [&b, r] { return b.temporary(r, 1, 32); };
  const auto perElement = [&b, r, depth] { return b.temporary(r, depth, 32); };
  // A 32-bit IFM's MUL is not multiplied by the OFM scale, only shifted:
  // by 31, rounding, it is gemmlowp's doubling high multiply.
  const auto doublingHighMul = [&b](const NpuFeatureMap& x, const NpuFeatureMap& y,
                                    const NpuFeatureMap& into) {
    NpuOperation& mul = b.elementwise(kMul, x, y, into);
    mul.ofmScale = 1u << 30;
    mul.ofmShift = 31;
  };

  // Each row's maximum, in the input's quantisation.
  NpuFeatureMap maximum = b.temporary(r, 1, 8);
  maximum.zeroPoint = zeroPoint;
  b.pool(LOUPE_ETHOSU_pooling_mode_MAX, inputRows, maximum, depth);

  // exp(x - max) in Q0.31 by the table: x - max in [-255, 0] plus 127 is
  // the table's index less 128 (FORCE_INT8).
  NpuFeatureMap exp = perElement();
  exp.zeroPoint = 127;
  NpuOperation& lookUp = b.elementwise(kSub, input, maximum, exp);
  lookUp.activationFunction = LOUPE_ETHOSU_activation_function_TABLE_0;
  lookUp.activationClipRange = LOUPE_ETHOSU_activation_clip_range_FORCE_INT8;
  exp.zeroPoint = 0;
  b.release(maximum);

  // The sum of the row in Q12.19: each term exp >> 12, rounded.
  NpuFeatureMap terms = perElement();
  b.elementwise(kShr, exp, b.constant(reference::kSoftmaxAccumulationIntegerBits), terms, false)
      .roundMode = LOUPE_ETHOSU_round_mode_NATURAL;
  NpuFeatureMap sum = perRow();
  NpuOperation& reduce = b.pool(LOUPE_ETHOSU_pooling_mode_REDUCE_SUM, terms, sum, 1);
  reduce.globalScale = true;
  reduce.ofmScale = 1;
  b.release(terms);

  // The reciprocal of the sum (gemmlowp's GetReciprocal): the sum shifted
  // up to [1, 2) as 1 + x, then 1 / (1 + x) by three Newton-Raphson steps
  // from 48/17 - 32/17 * (1 + x) / 2.
  NpuFeatureMap headroomPlusOne = perRow();
  b.elementwise(kClz, sum, sum, headroomPlusOne, false);
  // The final right shift: num_bits_over_unit + 31 - 8 = 35 - (headroom + 1).
  NpuFeatureMap rightShift = perRow();
  b.elementwise(kSub, headroomPlusOne,
                b.constant(reference::kSoftmaxAccumulationIntegerBits + 31 - 8), rightShift)
      .ifm2First = true;
  if (depth >= kRowsThatOverflowTheShift) {
    // TFLite's shift is undefined above 31 (gemmlowp asserts it in debug
    // builds); Loupe's CPU kernel stops at 31, and so does the NPU here.
    NpuFeatureMap clamped = perRow();
    b.elementwise(LOUPE_ETHOSU_elementwise_mode_MIN, rightShift, b.constant(31), clamped);
    b.release(rightShift);
    rightShift = clamped;
  }
  NpuFeatureMap headroom = perRow();
  b.elementwise(kSub, headroomPlusOne, b.constant(1), headroom);
  b.release(headroomPlusOne);
  // (sum << (headroom + 1)) - 2^31, without overflowing: shifted by the
  // headroom, less 2^30, shifted by one more.
  NpuFeatureMap shifted = perRow();
  b.elementwise(kShl, sum, headroom, shifted, false);
  b.release(sum);
  b.release(headroom);
  NpuFeatureMap less = perRow();
  b.elementwise(kSub, shifted, b.constant(1 << 30), less);
  b.release(shifted);
  NpuFeatureMap x = perRow();
  b.elementwise(kShl, less, b.constant(1), x, false);
  b.release(less);
  // (1 + x) / 2 in Q0.31: (x + 1.0) / 2, rounded.
  NpuFeatureMap halfDenominator = perRow();
  NpuOperation& halve =
      b.elementwise(kAdd, x, b.constant(std::numeric_limits<std::int32_t>::max()), halfDenominator);
  halve.ofmShift = 1;
  b.release(x);
  constexpr std::int32_t kMinus32Over17 = -1010580540;  // Q2.29
  constexpr std::int32_t k48Over17 = 1515870810;        // Q2.29
  NpuFeatureMap product = perRow();
  doublingHighMul(halfDenominator, b.constant(kMinus32Over17), product);
  NpuFeatureMap estimate = perRow();
  b.elementwise(kAdd, product, b.constant(k48Over17), estimate);
  b.release(product);
  for (int step = 0; step < 3; ++step) {
    // estimate += 4 * estimate * (1 - halfDenominator * estimate), in Q2.29.
    NpuFeatureMap times = perRow();
    doublingHighMul(estimate, halfDenominator, times);
    NpuFeatureMap oneMinus = perRow();
    b.elementwise(kSub, times, b.constant(1 << 29), oneMinus).ifm2First = true;
    b.release(times);
    NpuFeatureMap correction = perRow();
    doublingHighMul(estimate, oneMinus, correction);
    b.release(oneMinus);
    NpuFeatureMap timesFour = perRow();
    b.elementwise(kMul, correction, b.constant(4), timesFour);
    b.release(correction);
    NpuFeatureMap next = perRow();
    b.elementwise(kAdd, estimate, timesFour, next);
    b.release(timesFour);
    b.release(estimate);
    estimate = next;
  }
  b.release(halfDenominator);
  // The reciprocal in Q0.31: the Q1.30 estimate (of 1 / (1 + x) doubled)
  // times 2.
  NpuFeatureMap reciprocal = perRow();
  b.elementwise(kMul, estimate, b.constant(2), reciprocal);
  b.release(estimate);

  // exp * reciprocal, shifted right by the final shift, rounded, to int8.
  NpuFeatureMap scaled = perElement();
  doublingHighMul(exp, reciprocal, scaled);
  b.release(exp);
  b.release(reciprocal);
  b.elementwise(kShr, scaled, rightShift, output, false).roundMode =
      LOUPE_ETHOSU_round_mode_NATURAL;
  if (static_cast<int>(lowered.followers.size()) + 1 != softmaxNpuOperations(depth)) {
    fail("lowered to an unexpected number of NPU operations");
  }
  return lowered;
}

}  // namespace loupe::ethosu
