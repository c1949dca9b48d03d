// The NPU's weight and scale streams: lossless for random weights of every
// character (uniform, sparse, narrow, constant, the int8 extremes) and for
// every convolution and fully-connected layer of the shared models, decoded
// by the C++ decoder and by the runtime's streaming C decoder; scale records
// keep 40-bit biases and every shift; corrupt streams are refused; and the
// models' weights compress (the ratios are printed).
#include <QtTest>

#include <random>

#include "loupe/npu_weight_stream.h"
#include "npu_test_support.h"
#include "targets/npu/npu_legalize.h"
#include "targets/npu/weight_decoder.h"
#include "targets/npu/weight_encoder.h"
#include "tvm/runtime/crt/error_codes.h"

using namespace loupe;
using namespace loupe::npu;

namespace {

// The weights as the runtime reads them: each sub-stream with the C decoder,
// in the NPU's order (kernel row, column, IFM channel, OFM channel), back to
// OHWI. Fails the test on any decoder error or a stream longer than its sub-streams.
std::vector<std::int8_t> decodeWithC(const std::vector<std::uint8_t>& stream,
                                     const WeightShape& shape, std::int32_t* status) {
  std::vector<std::int8_t> ohwi(static_cast<std::size_t>(shape.count()));
  std::size_t offset = 0;
  *status = kTvmErrorNoError;
  for (int c0 = 0; c0 < shape.ofmDepth; c0 += shape.blockDepth) {
    const int channels = std::min(shape.blockDepth, shape.ofmDepth - c0);
    loupe_npu_weight_decoder decoder;
    const auto values = static_cast<std::uint32_t>(shape.kernelHeight * shape.kernelWidth *
                                                   shape.ifmDepth * channels);
    *status = LoupeNpuWeightDecoderBegin(&decoder, stream.data(), stream.size(), offset, values);
    if (*status != kTvmErrorNoError) return {};
    for (int ky = 0; ky < shape.kernelHeight; ++ky) {
      for (int kx = 0; kx < shape.kernelWidth; ++kx) {
        for (int ic = 0; ic < shape.ifmDepth; ++ic) {
          for (int o = 0; o < channels; ++o) {
            std::int8_t w = 0;
            *status = LoupeNpuWeightDecoderNext(&decoder, &w);
            if (*status != kTvmErrorNoError) return {};
            const auto index = static_cast<std::size_t>(
                ((std::int64_t{c0 + o} * shape.kernelHeight + ky) * shape.kernelWidth + kx) *
                    shape.ifmDepth +
                ic);
            ohwi[index] = w;
          }
        }
      }
    }
    offset = LoupeNpuWeightDecoderEnd(&decoder);
  }
  if (offset != stream.size()) *status = kTvmErrorNpuBadWeightStream;
  return ohwi;
}

std::vector<std::int8_t> randomWeights(std::int64_t count, std::mt19937& rng, int kind) {
  std::vector<std::int8_t> w(static_cast<std::size_t>(count));
  std::uniform_int_distribution<int> uniform(-128, 127), narrow(-3, 3), percent(0, 99);
  for (auto& v : w) {
    switch (kind) {
      case 0:
        v = static_cast<std::int8_t>(uniform(rng));
        break;
      case 1:  // 70% zeros
        v = percent(rng) < 70 ? 0 : static_cast<std::int8_t>(uniform(rng));
        break;
      case 2:
        v = static_cast<std::int8_t>(narrow(rng));
        break;
      case 3:
        v = 0;
        break;
      default:
        v = percent(rng) < 50 ? -128 : 127;
        break;
    }
  }
  return w;
}

}  // namespace

class NpuWeightEncodingTest : public QObject {
  Q_OBJECT

 private slots:
  void randomWeightsRoundTripThroughBothDecoders() {
    std::mt19937 rng(20261121);
    const WeightShape shapes[] = {{1, 1, 1, 1, 1},  {5, 3, 3, 7, 4},   {64, 1, 1, 64, 64},
                                  {17, 2, 5, 3, 8}, {24, 3, 3, 1, 16}, {12, 1, 1, 640, 8}};
    for (const WeightShape& shape : shapes) {
      for (int kind = 0; kind < 5; ++kind) {
        const auto weights = randomWeights(shape.count(), rng, kind);
        const auto stream = encodeWeights(weights, shape);
        QCOMPARE(decodeWeights(stream, shape), weights);
        std::int32_t status = 0;
        QCOMPARE(decodeWithC(stream, shape, &status), weights);
        QCOMPARE(status, kTvmErrorNoError);
      }
    }
  }

  void sparseAndNarrowWeightsCompress() {
    std::mt19937 rng(7);
    const WeightShape shape{32, 3, 3, 32, 16};
    const auto raw = static_cast<std::size_t>(shape.count());
    // All zeros: one header byte and one run code per sub-stream.
    QVERIFY(encodeWeights(randomWeights(shape.count(), rng, 3), shape).size() < raw / 100);
    // Values in -3..3 take 3 or 4 bits each.
    QVERIFY(encodeWeights(randomWeights(shape.count(), rng, 2), shape).size() < raw / 2);
  }

  void corruptStreamsAreRefused() {
    std::mt19937 rng(3);
    const WeightShape shape{8, 3, 3, 4, 8};
    const auto weights = randomWeights(shape.count(), rng, 0);
    auto stream = encodeWeights(weights, shape);
    std::int32_t status = 0;

    auto truncated = stream;
    truncated.resize(truncated.size() / 2);
    QVERIFY_THROWS_EXCEPTION(WeightStreamError, decodeWeights(truncated, shape));
    decodeWithC(truncated, shape, &status);
    QCOMPARE(status, kTvmErrorNpuBadWeightStream);

    auto badHeader = stream;
    badHeader[0] = LOUPE_NPU_WEIGHT_HEADER_RAW | LOUPE_NPU_WEIGHT_HEADER_ZERO_RUN;
    QVERIFY_THROWS_EXCEPTION(WeightStreamError, decodeWeights(badHeader, shape));
    decodeWithC(badHeader, shape, &status);
    QCOMPARE(status, kTvmErrorNpuBadWeightStream);

    auto longer = stream;
    longer.push_back(0);
    QVERIFY_THROWS_EXCEPTION(WeightStreamError, decodeWeights(longer, shape));
    decodeWithC(longer, shape, &status);
    QCOMPARE(status, kTvmErrorNpuBadWeightStream);
  }

  void scaleRecordsKeepEveryField() {
    const std::int64_t limit = std::int64_t{1} << 39;
    std::vector<ChannelScale> scales = {{0, 0, 0},
                                        {limit - 1, 0x7FFFFFFF, 31},
                                        {-limit, 1073741824, -32},
                                        {-1, 1518500250, -9},
                                        {123456789, 2147483000, 1}};
    const auto stream = encodeScales(scales);
    QCOMPARE(stream.size(), scales.size() * LOUPE_NPU_SCALE_RECORD_BYTES);
    QCOMPARE(decodeScales(stream), scales);
    for (std::size_t i = 0; i < scales.size(); ++i) {
      loupe_npu_channel_scale c;
      QCOMPARE(LoupeNpuReadChannelScale(stream.data() + i * LOUPE_NPU_SCALE_RECORD_BYTES, &c),
               kTvmErrorNoError);
      QCOMPARE(c.bias, scales[i].bias);
      QCOMPARE(c.multiplier, scales[i].multiplier);
      QCOMPARE(c.shift, scales[i].shift);
    }
    const std::vector<ChannelScale> tooWide = {{limit, 0, 0}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encodeScales(tooWide));
    const std::vector<ChannelScale> negative = {{0, -1, 0}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encodeScales(negative));
    const std::vector<ChannelScale> shift = {{0, 0, 32}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encodeScales(shift));
  }

  // Every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED the NPU runs in the
  // shared models, encoded for the 256-MAC configuration.
  void modelWeightsRoundTripAndCompress() {
    const NpuConfig config = npuConfig(MacConfig::Macs256);
    std::int64_t allRaw = 0, allEncoded = 0;
    for (const std::string& name : test::npuModelNames()) {
      const ir::Graph graph = test::loadModel(name);
      std::int64_t raw = 0, encoded = 0;
      for (const ir::Operator& op : graph.operators) {
        if (!test::isNpuEligible(graph, op) ||
            (op.type != ir::OpType::Conv2D && op.type != ir::OpType::DepthwiseConv2D &&
             op.type != ir::OpType::FullyConnected)) {
          continue;
        }
        const NpuLegalizedOperator lowered = legalizeForNpu(graph, op, config);
        const NpuOperation& operation = lowered.operation;
        const std::span<const std::uint8_t> stream(
            lowered.constants.data() + operation.weights.offset, operation.weights.length);
        const auto decoded = decodeWeights(stream, lowered.weightShape);
        std::int32_t status = 0;
        QCOMPARE(decodeWithC({stream.begin(), stream.end()}, lowered.weightShape, &status),
                 decoded);
        QCOMPARE(status, kTvmErrorNoError);
        // Back to the model's layout: OHWI for convolutions and FC, [1, H, W, C] for depthwise.
        const ir::Tensor& weights = *graph.input(op, 1);
        const auto* original = reinterpret_cast<const std::int8_t*>(weights.data.data());
        const WeightShape& s = lowered.weightShape;
        for (std::int64_t i = 0; i < s.count(); ++i) {
          const std::int64_t modelIndex =
              op.type == ir::OpType::DepthwiseConv2D
                  ? (i % (s.kernelHeight * s.kernelWidth)) * s.ofmDepth +
                        i / (s.kernelHeight * s.kernelWidth)
                  : i;
          QCOMPARE(decoded[static_cast<std::size_t>(i)], original[modelIndex]);
        }
        QCOMPARE(lowered.rawWeightBytes, weights.byteSize());
        // Raw storage bounds every sub-stream: its weights plus a header byte.
        const std::int64_t subStreams = (s.ofmDepth + s.blockDepth - 1) / s.blockDepth;
        QVERIFY(lowered.encodedWeightBytes <= lowered.rawWeightBytes + subStreams);
        qInfo().noquote() << QString("%1 op %2 %3: %4 -> %5 bytes (%6)")
                                 .arg(QString::fromStdString(name))
                                 .arg(op.index)
                                 .arg(QString::fromStdString(op.typeName()))
                                 .arg(lowered.rawWeightBytes)
                                 .arg(lowered.encodedWeightBytes)
                                 .arg(static_cast<double>(lowered.encodedWeightBytes) /
                                          static_cast<double>(lowered.rawWeightBytes),
                                      0, 'f', 3);
        raw += lowered.rawWeightBytes;
        encoded += lowered.encodedWeightBytes;
      }
      qInfo().noquote() << QString("%1 total: %2 -> %3 bytes (%4)")
                               .arg(QString::fromStdString(name))
                               .arg(raw)
                               .arg(encoded)
                               .arg(static_cast<double>(encoded) / static_cast<double>(raw), 0, 'f',
                                    3);
      allRaw += raw;
      allEncoded += encoded;
      QVERIFY2(encoded < raw, name.c_str());
    }
    qInfo().noquote() << QString("all models: %1 -> %2 bytes (%3)")
                             .arg(allRaw)
                             .arg(allEncoded)
                             .arg(static_cast<double>(allEncoded) / static_cast<double>(allRaw), 0,
                                  'f', 3);
  }
};

QTEST_GUILESS_MAIN(NpuWeightEncodingTest)
#include "weight_encoding_test.moc"
