// The NPU command stream: every field of every kind of operation survives
// encode -> decode, in the C++ decoder and in the runtime's C decoder; a
// malformed stream is refused by both with the reason; fields that do not
// fit are refused when encoding; the disassembly names every command.
#include <QtTest>

#include <cstring>

#include "loupe/npu_command_stream.h"
#include "targets/npu/command_stream.h"
#include "tvm/runtime/crt/error_codes.h"

using namespace loupe;
using namespace loupe::npu;

namespace {

NpuFeatureMap featureMap(int region, int seed) {
  NpuFeatureMap f;
  f.region = region;
  f.height = 3 + seed;
  f.width = 5 + seed;
  f.depth = 700 + seed;
  f.offset = 64u * static_cast<std::uint32_t>(seed + 1);
  f.strideY = 100000u + static_cast<std::uint32_t>(seed);
  f.strideX = 710u + static_cast<std::uint32_t>(seed);
  f.strideC = 1;
  f.zeroPoint = -100 + seed;
  f.multiplier = 1500000000 + seed;
  f.shift = -7 - seed;
  return f;
}

// One operation of each kind, every field it reads set to a distinct value.
std::vector<NpuOperation> everyKind() {
  std::vector<NpuOperation> ops;
  const NpuOperationKind kinds[] = {NpuOperationKind::Conv2D,  NpuOperationKind::DepthwiseConv2D,
                                    NpuOperationKind::MaxPool, NpuOperationKind::AveragePool,
                                    NpuOperationKind::Add,     NpuOperationKind::Sub,
                                    NpuOperationKind::Mul};
  int seed = 0;
  for (NpuOperationKind kind : kinds) {
    NpuOperation op;
    op.kind = kind;
    op.block = {2 + seed, 16, 64 - seed};
    op.ifm = featureMap(LOUPE_NPU_REGION_IFM, seed);
    op.ofm = featureMap(LOUPE_NPU_REGION_OFM, seed + 10);
    if (usesIfm2(kind)) op.ifm2 = featureMap(LOUPE_NPU_REGION_IFM2, seed + 20);
    if (usesKernel(kind)) op.kernel = {7, 5 + seed, 2, 3, 2, 1, 3, 2, 4 + seed, 1};
    if (usesWeights(kind)) {
      op.weights = {0, 4096u + static_cast<std::uint32_t>(seed), 123456};
      op.scales = {1, 16, 640};
    }
    op.activationMin = -100 + seed;
    op.activationMax = 90 - seed;
    if (kind == NpuOperationKind::Add || kind == NpuOperationKind::Sub) {
      op.elementwiseLeftShift = 20;
    }
    ops.push_back(op);
    ++seed;
  }
  return ops;
}

bool sameFeatureMap(const loupe_npu_tensor& c, const NpuFeatureMap& f) {
  return c.region == f.region && c.height == f.height && c.width == f.width && c.depth == f.depth &&
         c.offset == f.offset && c.stride_y == f.strideY && c.stride_x == f.strideX &&
         c.stride_c == f.strideC && c.zero_point == f.zeroPoint && c.multiplier == f.multiplier &&
         c.shift == f.shift;
}

int cKind(NpuOperationKind kind) {
  switch (kind) {
    case NpuOperationKind::Conv2D:
      return LOUPE_NPU_OP_CONV2D;
    case NpuOperationKind::DepthwiseConv2D:
      return LOUPE_NPU_OP_DEPTHWISE_CONV2D;
    case NpuOperationKind::MaxPool:
      return LOUPE_NPU_OP_MAX_POOL;
    case NpuOperationKind::AveragePool:
      return LOUPE_NPU_OP_AVERAGE_POOL;
    case NpuOperationKind::Add:
      return LOUPE_NPU_OP_ADD;
    case NpuOperationKind::Sub:
      return LOUPE_NPU_OP_SUB;
    case NpuOperationKind::Mul:
      return LOUPE_NPU_OP_MUL;
  }
  return -1;
}

// Whether the C decoder's operation holds every field the C++ operation's kind reads.
bool agrees(const loupe_npu_operation& c, const NpuOperation& op) {
  bool same = c.kind == cKind(op.kind) && c.block.height == op.block.height &&
              c.block.width == op.block.width && c.block.depth == op.block.depth &&
              sameFeatureMap(c.ifm, op.ifm) && sameFeatureMap(c.ofm, op.ofm) &&
              c.activation_min == op.activationMin && c.activation_max == op.activationMax &&
              c.rounding == op.rounding;
  if (usesIfm2(op.kind)) same = same && sameFeatureMap(c.ifm2, op.ifm2);
  if (usesKernel(op.kind)) {
    const NpuKernel& k = op.kernel;
    same = same && c.kernel.height == k.height && c.kernel.width == k.width &&
           c.kernel.stride_y == k.strideY && c.kernel.stride_x == k.strideX &&
           c.kernel.dilation_y == k.dilationY && c.kernel.dilation_x == k.dilationX &&
           c.kernel.pad_top == k.padTop && c.kernel.pad_left == k.padLeft &&
           c.kernel.pad_bottom == k.padBottom && c.kernel.pad_right == k.padRight;
  }
  if (usesWeights(op.kind)) {
    same = same && c.weights.region == op.weights.region && c.weights.offset == op.weights.offset &&
           c.weights.length == op.weights.length && c.scales.region == op.scales.region &&
           c.scales.offset == op.scales.offset && c.scales.length == op.scales.length;
  }
  if (op.kind == NpuOperationKind::Add || op.kind == NpuOperationKind::Sub) {
    same = same && c.elementwise_left_shift == op.elementwiseLeftShift;
  }
  return same;
}

// The C decoder's status after reading the whole stream.
std::int32_t cDecodeStatus(const std::vector<std::uint8_t>& stream) {
  loupe_npu_stream_decoder decoder;
  std::int32_t status = LoupeNpuStreamBegin(&decoder, stream.data(), stream.size());
  loupe_npu_operation op;
  int produced = 1;
  while (status == kTvmErrorNoError && produced) {
    status = LoupeNpuStreamNext(&decoder, &op, &produced);
  }
  return status;
}

bool cppRefuses(const std::vector<std::uint8_t>& stream, const char* reason) {
  try {
    decodeCommandStream(stream);
  } catch (const CommandStreamError& e) {
    return std::strstr(e.what(), reason) != nullptr;
  }
  return false;
}

}  // namespace

class NpuCommandStreamTest : public QObject {
  Q_OBJECT

 private slots:
  void everyFieldSurvivesTheCppRoundTrip() {
    const auto ops = everyKind();
    const auto stream = encodeCommandStream(ops);
    QCOMPARE(decodeCommandStream(stream), ops);
  }

  void theCDecoderReadsWhatTheCppEncoderWrote() {
    const auto ops = everyKind();
    const auto stream = encodeCommandStream(ops);
    loupe_npu_stream_decoder decoder;
    QCOMPARE(LoupeNpuStreamBegin(&decoder, stream.data(), stream.size()), kTvmErrorNoError);
    for (const NpuOperation& expected : ops) {
      loupe_npu_operation op;
      int produced = 0;
      QCOMPARE(LoupeNpuStreamNext(&decoder, &op, &produced), kTvmErrorNoError);
      QCOMPARE(produced, 1);
      QVERIFY2(agrees(op, expected), std::string(operationKindName(expected.kind)).c_str());
    }
    loupe_npu_operation op;
    int produced = 1;
    QCOMPARE(LoupeNpuStreamNext(&decoder, &op, &produced), kTvmErrorNoError);
    QCOMPARE(produced, 0);
  }

  void theHeaderHasMagicVersionAndCommandCount() {
    const auto stream = encodeCommandStream(everyKind());
    QCOMPARE(std::string(stream.begin(), stream.begin() + 4), std::string("LNPU"));
    QCOMPARE(stream[4] | (stream[5] << 8), LOUPE_NPU_STREAM_VERSION);
    // Version 2 counts the regions: one past the highest any operation names.
    int highest = 0;
    for (const NpuOperation& op : everyKind()) {
      highest =
          std::max({highest, op.ifm.region, op.ofm.region, usesIfm2(op.kind) ? op.ifm2.region : 0,
                    usesWeights(op.kind) ? std::max(op.weights.region, op.scales.region) : 0});
    }
    QCOMPARE(stream[6] | (stream[7] << 8), highest + 1);
    // Convolutions: block, IFM, OFM, kernel, weights, scales, activation,
    // rounding, op = 9; pools 7; element-wise 7 (IFM2, no kernel).
    const std::uint32_t count = stream[8] | (stream[9] << 8) | (stream[10] << 16) |
                                (static_cast<std::uint32_t>(stream[11]) << 24);
    QCOMPARE(count, 2u * 9u + 2u * 7u + 3u * 7u);
  }

  void malformedStreamsAreRefusedByBothDecoders() {
    const auto good = encodeCommandStream(everyKind());

    auto badMagic = good;
    badMagic[0] = 'X';
    QVERIFY(cppRefuses(badMagic, "LNPU"));
    QCOMPARE(cDecodeStatus(badMagic), kTvmErrorNpuBadHeader);

    auto badVersion = good;
    badVersion[4] = 9;
    QVERIFY(cppRefuses(badVersion, "version 9"));
    QCOMPARE(cDecodeStatus(badVersion), kTvmErrorNpuUnsupportedVersion);

    // Version 2 region counts: 0 and past LOUPE_NPU_MAX_REGIONS are bad
    // headers; a command naming a region at or past the count is refused.
    auto noRegions = good;
    noRegions[6] = 0;
    noRegions[7] = 0;
    QVERIFY(cppRefuses(noRegions, "region count 0"));
    QCOMPARE(cDecodeStatus(noRegions), kTvmErrorNpuBadHeader);
    auto tooManyRegions = good;
    tooManyRegions[6] = LOUPE_NPU_MAX_REGIONS + 1;
    QVERIFY(cppRefuses(tooManyRegions, "region count 65"));
    QCOMPARE(cDecodeStatus(tooManyRegions), kTvmErrorNpuBadHeader);
    auto fewRegions = good;
    fewRegions[6] = LOUPE_NPU_REGION_IFM;  // the IFMs are in region 2 and above
    QVERIFY(cppRefuses(fewRegions, "names region"));
    QCOMPARE(cDecodeStatus(fewRegions), kTvmErrorNpuRegionInvalid);
    // Version 1 (8 regions) is still read, but only without a count.
    auto version1 = good;
    version1[4] = LOUPE_NPU_STREAM_VERSION_1;
    version1[6] = 0;
    QCOMPARE(decodeCommandStream(version1), everyKind());
    QCOMPARE(cDecodeStatus(version1), kTvmErrorNoError);
    version1[6] = 5;
    QVERIFY(cppRefuses(version1, "version 1 with a region count"));
    QCOMPARE(cDecodeStatus(version1), kTvmErrorNpuBadHeader);

    auto truncated = good;
    truncated.resize(truncated.size() - 1);
    QVERIFY(cppRefuses(truncated, "runs past the end"));
    QCOMPARE(cDecodeStatus(truncated), kTvmErrorNpuTruncatedStream);

    auto trailing = good;
    trailing.push_back(0);
    QVERIFY(cppRefuses(trailing, "after the last"));
    QCOMPARE(cDecodeStatus(trailing), kTvmErrorNpuTruncatedStream);

    const std::size_t first = LOUPE_NPU_STREAM_HEADER_BYTES;
    auto unknown = good;
    unknown[first] = 0x7F;
    QVERIFY(cppRefuses(unknown, "unknown opcode 127"));
    QCOMPARE(cDecodeStatus(unknown), kTvmErrorNpuUnknownCommand);

    auto badLength = good;
    badLength[first + 2] = LOUPE_NPU_BLOCK_CONFIG_PAYLOAD + 1;
    QVERIFY(cppRefuses(badLength, "SET_BLOCK_CONFIG with a 7-byte payload"));
    QCOMPARE(cDecodeStatus(badLength), kTvmErrorNpuBadCommandLength);
  }

  void fieldsThatDoNotFitAreRefusedWhenEncoding() {
    auto ops = everyKind();
    ops[0].kernel.padTop = 256;
    QVERIFY_THROWS_EXCEPTION(CommandStreamError, encodeCommandStream(ops));
    ops = everyKind();
    ops[0].ifm.depth = 65536;
    QVERIFY_THROWS_EXCEPTION(CommandStreamError, encodeCommandStream(ops));
    ops = everyKind();
    ops[0].activationMax = 40000;
    QVERIFY_THROWS_EXCEPTION(CommandStreamError, encodeCommandStream(ops));
    ops = everyKind();
    ops[0].ofm.region = LOUPE_NPU_MAX_REGIONS;  // a 65th region
    QVERIFY_THROWS_EXCEPTION(CommandStreamError, encodeCommandStream(ops));
  }

  void theDisassemblyListsEveryCommand() {
    NpuOperation op;
    op.kind = NpuOperationKind::Add;
    op.block = {2, 2, 8};
    op.ifm = contiguousFeatureMap(LOUPE_NPU_REGION_IFM, 1, 2, 3);
    op.ifm.multiplier = 1073741824;
    op.ifm.shift = -1;
    op.ifm2 = contiguousFeatureMap(LOUPE_NPU_REGION_IFM2, 1, 2, 3);
    op.ofm = contiguousFeatureMap(LOUPE_NPU_REGION_OFM, 1, 2, 3);
    op.ofm.zeroPoint = -128;
    op.activationMin = -128;
    op.activationMax = 127;
    op.elementwiseLeftShift = 20;
    const std::string text = disassembleCommandStream(encodeCommandStream({&op, 1}));
    const QStringList lines = QString::fromStdString(text).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 8);
    QCOMPARE(lines[0], QString("LNPU v2, 5 regions, 7 commands, 1 operations"));
    QCOMPARE(lines[1], QString("000c  SET_BLOCK_CONFIG  ofm_block=2x2x8"));
    QCOMPARE(lines[2], QString("0016  SET_IFM  region=2 offset=0 shape=1x2x3 strides=6,3,1 zp=0 "
                               "scale=1073741824*2^-1"));
    QVERIFY(lines[3].startsWith("003a  SET_IFM2  region=3"));
    QVERIFY(lines[4].startsWith("005e  SET_OFM  region=4") && lines[4].contains("zp=-128"));
    QCOMPARE(lines[5], QString("0082  SET_ACTIVATION  min=-128 max=127"));
    QCOMPARE(lines[6], QString("008a  SET_ROUNDING  tflite"));
    QCOMPARE(lines[7], QString("008f  OP_ELEMENTWISE  add left_shift=20"));
  }
};

QTEST_GUILESS_MAIN(NpuCommandStreamTest)
#include "command_stream_test.moc"
