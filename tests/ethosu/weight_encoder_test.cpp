// Loupe's encoder of the Ethos-U weight format (compiler_core/ethosu): what
// it writes, the functional model's decoder reads back value for value, for
// every kind of distribution and across slices; values the NPU cannot hold
// and records that do not fit are refused; and the weights of every
// convolution in the Vela files, re-encoded in their operation's brick
// order, decode to the same OHWI weights (the test prints the bytes beside
// Vela's).
#include <QtTest>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "analysis/ethosu_command_listing.h"
#include "analysis/ethosu_operation_weights.h"
#include "ethosu/mlw_encoder.h"
#include "ethosu/weight_stream.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "loupe/ethosu/ethosu_execute.h"
#include "loupe/ethosu/ethosu_payload.h"
#include "loupe/ethosu/ethosu_weights.h"

using namespace loupe::ethosu;

namespace {

// Every value the decoder hands out for `stream`, or the decoder's error.
std::vector<std::int16_t> decodeAll(const std::vector<std::uint8_t>& stream, QString* error) {
  loupe_ethosu_mlw_decoder decoder;
  loupe_ethosu_mlw_init(&decoder, stream.data(), static_cast<std::uint32_t>(stream.size()));
  std::vector<std::int16_t> values;
  loupe_ethosu_error err{};
  for (;;) {
    std::int16_t value = 0;
    const int status = loupe_ethosu_mlw_next(&decoder, &value, &err);
    if (status < 0) {
      *error = QString::fromUtf8(err.message);
      return values;
    }
    if (status == 0) return values;
    values.push_back(value);
  }
}

// `count` values drawn by `draw` from a fixed seed.
template <typename Draw>
std::vector<std::int16_t> generated(std::size_t count, Draw draw) {
  std::mt19937 random(20261128);
  std::vector<std::int16_t> values(count);
  for (auto& v : values) v = static_cast<std::int16_t>(draw(random));
  return values;
}

loupe::ir::Graph importVela(const std::filesystem::path& path) {
  loupe::frontend::ImportOptions options;
  options.keepUnsupportedOperators = true;
  return loupe::frontend::importTfliteFile(path.string(), options);
}

}  // namespace

Q_DECLARE_METATYPE(std::vector<std::int16_t>)

class EthosuWeightEncoderTest : public QObject {
  Q_OBJECT

 private slots:
  void valuesComeBackThroughTheDecoder_data() {
    QTest::addColumn<std::vector<std::int16_t>>("values");
    QTest::newRow("none") << std::vector<std::int16_t>{};
    QTest::newRow("one zero") << std::vector<std::int16_t>{0};
    QTest::newRow("all zeros") << std::vector<std::int16_t>(1000, 0);
    QTest::newRow("one value") << std::vector<std::int16_t>(777, -42);
    QTest::newRow("the extremes") << std::vector<std::int16_t>{-255, 255, 0, -255, 1, -1, 255};
    QTest::newRow("uniform -255..255") << generated(
        5000, [](std::mt19937& r) { return std::uniform_int_distribution<int>(-255, 255)(r); });
    QTest::newRow("narrow -3..3") << generated(
        20000, [](std::mt19937& r) { return std::uniform_int_distribution<int>(-3, 3)(r); });
    QTest::newRow("int8-like, two slices") << generated(40000, [](std::mt19937& r) {
      return std::clamp(static_cast<int>(std::normal_distribution<double>(0, 30)(r)), -128, 127);
    });
    QTest::newRow("sparse, three slices") << generated(70000, [](std::mt19937& r) {
      return std::uniform_int_distribution<int>(0, 9)(r) == 0
                 ? std::uniform_int_distribution<int>(-200, 200)(r)
                 : 0;
    });
    QTest::newRow("exactly one slice") << generated(
        32767, [](std::mt19937& r) { return std::uniform_int_distribution<int>(-20, 60)(r); });
  }

  void valuesComeBackThroughTheDecoder() {
    QFETCH(std::vector<std::int16_t>, values);
    const std::vector<std::uint8_t> stream = encodeMlw(values);
    QCOMPARE(stream.size() % 16, std::size_t{0});
    QVERIFY(!stream.empty());
    QString error;
    const std::vector<std::int16_t> decoded = decodeAll(stream, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(decoded.size(), values.size());
    QVERIFY(decoded == values);
    // Never much longer than the values as bytes: a slice's header and a
    // chunk's unary bits are all the code adds to fixed width.
    QVERIFY2(stream.size() <= values.size() * 9 / 8 + 64,
             qPrintable(QString("%1 bytes for %2 values").arg(stream.size()).arg(values.size())));
  }

  void narrowValuesTakeFewBits() {
    const auto values = generated(
        20000, [](std::mt19937& r) { return std::uniform_int_distribution<int>(-3, 3)(r); });
    // Seven values, equally likely (2.81 bits of entropy): under 3.1 bits
    // each with a palette.
    QVERIFY2(encodeMlw(values).size() * 80 < values.size() * 31,
             qPrintable(QString::number(encodeMlw(values).size())));
    // Zeros go as runs, a unary bit per 8 of them (the longest divisor).
    QVERIFY2(encodeMlw(std::vector<std::int16_t>(10000, 0)).size() * 8 < 10000 / 6,
             qPrintable(QString::number(encodeMlw(std::vector<std::int16_t>(10000, 0)).size())));
  }

  void valuesOutsideTheNpusRangeAreRefused() {
    const std::vector<std::int16_t> low{0, -256}, high{256};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encodeMlw(low));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encodeMlw(high));
    try {
      encodeMlw(low);
    } catch (const std::invalid_argument& error) {
      QCOMPARE(QString(error.what()), QString("weight 1 is -256, outside the NPU's -255..255"));
    }
  }

  void scaleRecordsDecodeToWhatWasWritten() {
    const std::vector<ChannelScale> channels = {
        {0, 0, 0},
        {-1, 1, 1},
        {(std::int64_t{1} << 39) - 1, 0xffffffffu, 63},
        {-(std::int64_t{1} << 39), 1073741824u, 31},
        {123456789, 1518500250u, 38},
    };
    std::vector<std::uint8_t> stream;
    for (const ChannelScale& c : channels) appendScaleRecord(stream, c);
    QCOMPARE(stream.size(), channels.size() * LOUPE_ETHOSU_BIAS_RECORD_BYTES);
    for (std::size_t i = 0; i < channels.size(); ++i) {
      const loupe_ethosu_bias_record r =
          loupe_ethosu_bias_record_decode(stream.data() + i * LOUPE_ETHOSU_BIAS_RECORD_BYTES);
      QCOMPARE(r.bias, channels[i].bias);
      QCOMPARE(r.scale, channels[i].scale);
      QCOMPARE(static_cast<int>(r.shift), channels[i].shift);
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             appendScaleRecord(stream, {std::int64_t{1} << 39, 1, 1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, appendScaleRecord(stream, {0, 1, 64}));
  }

  void aLayoutThatDoesNotMatchIsRefused() {
    loupe_ethosu_weight_layout layout{};
    layout.ofm_depth = 8;
    layout.kernel_height = layout.kernel_width = 3;
    layout.ifm_depth = 4;
    layout.ofm_block_depth = 8;
    layout.ifm_bits = 8;
    layout.dilation_x = layout.dilation_y = 1;
    layout.ifm_ublock_depth = layout.ofm_ublock_depth = 8;
    const std::vector<std::int16_t> weights(8 * 3 * 3 * 4, 1);
    QVERIFY(!encodeWeightStream(layout, weights).empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             encodeWeightStream(layout, std::span(weights).first(10)));
    layout.dilation_x = 3;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, encodeWeightStream(layout, weights));
  }

  void everyVelaConvolutionReencodesToTheSameWeights_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("accelerator");
    for (const auto& vela : loupe::test::ethosu::velaFiles()) {
      QTest::newRow(vela.name.c_str())
          << QString::fromStdString(vela.path.string()) << vela.accelerator;
    }
  }

  void everyVelaConvolutionReencodesToTheSameWeights() {
    QFETCH(QString, file);
    QFETCH(int, accelerator);
    const loupe::ir::Graph graph = importVela(file.toStdString());
    loupe_ethosu_npu_config config;
    QCOMPARE(loupe_ethosu_npu_config_init(&config, accelerator), 0);
    std::uint64_t ours = 0, vela = 0;
    int operations = 0;
    for (const auto& op : graph.operators) {
      if (op.type != loupe::ir::OpType::EthosU) continue;
      const auto payload = loupe::analysis::ethosuPayloadOf(graph, op);
      const loupe::ir::Tensor* flash = graph.input(op, 1);
      QVERIFY(flash != nullptr);
      for (std::size_t s = 0; s < payload.streams.size(); ++s) {
        const auto& stream = payload.streams[s];
        for (std::size_t i = 0; i < stream.operations.size(); ++i) {
          const loupe_ethosu_operation& o = stream.operations[i];
          if (!loupe::analysis::ethosuHasWeights(o)) continue;
          const auto weights = loupe::analysis::ethosuOperationWeights(
              payload, static_cast<int>(s), static_cast<int>(i),
              {flash->data.data(), flash->data.size()});
          QVERIFY2(weights.error.empty(), weights.error.c_str());
          const auto cores = static_cast<std::uint32_t>(weights.cores);
          const std::size_t perChannel = static_cast<std::size_t>(weights.valuesPerChannel());
          for (std::uint32_t core = 0; core < cores; ++core) {
            loupe_ethosu_weight_layout layout{};
            loupe_ethosu_operation_weight_layout(&config, &o, core, cores, &layout);
            if (layout.ofm_depth == 0) continue;
            // This core's channels: o % cores == core.
            std::vector<std::int16_t> ohwi;
            for (std::uint32_t local = 0; local < layout.ofm_depth; ++local) {
              const auto first = weights.ohwi.begin() +
                                 static_cast<std::ptrdiff_t>((core + cores * local) * perChannel);
              ohwi.insert(ohwi.end(), first, first + static_cast<std::ptrdiff_t>(perChannel));
            }
            const std::vector<std::uint8_t> encoded = encodeWeightStream(layout, ohwi);
            ours += encoded.size();
            std::vector<std::int16_t> decoded(ohwi.size());
            loupe_ethosu_mlw_decoder decoder;
            loupe_ethosu_error err{};
            QVERIFY2(loupe_ethosu_weights_decode_ohwi(
                         encoded.data(), static_cast<std::uint32_t>(encoded.size()), &layout,
                         decoded.data(), static_cast<std::uint32_t>(decoded.size()), &decoder,
                         &err) == LOUPE_ETHOSU_OK,
                     err.message);
            QVERIFY(decoded == ohwi);
          }
          vela += weights.encodedBytes;
          ++operations;
        }
      }
    }
    QVERIFY(operations > 0);
    qInfo("%d convolutions: %llu weight bytes (Vela's: %llu, %.3fx)", operations,
          static_cast<unsigned long long>(ours), static_cast<unsigned long long>(vela),
          static_cast<double>(ours) / static_cast<double>(vela));
  }
};

QTEST_GUILESS_MAIN(EthosuWeightEncoderTest)
#include "weight_encoder_test.moc"
