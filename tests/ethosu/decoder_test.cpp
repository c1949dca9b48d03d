// Decoding what Vela wrote: every file's command stream decodes into
// operations that cover its words; every weight of the original model's
// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED layers is found, in OHWI
// order, in the decoded weight streams (Vela slices layers by OFM depth, so
// channels are matched one by one); and every decoded bias/scale record
// holds TFLite's bias and its quantised multiplier and shift.
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

#include "ethosu_test_model.h"

using namespace loupe::test::ethosu;

namespace {

// TFLite builtin operator codes (the schema subset has no enumeration).
constexpr int kConv2D = 3;
constexpr int kDepthwiseConv2D = 4;
constexpr int kFullyConnected = 9;

struct Channel {
  int layer;
  int channel;
  std::int64_t bias;
  std::uint32_t scale;
  int shift;
};

// TFLite's QuantizeMultiplier; as Vela writes it: shift = 31 - exponent,
// no halving when the significand rounds up to 2^31, and a scale too small
// for the 6-bit shift (a dead channel) written as 0 with shift 16.
void quantiseScale(double real, std::uint32_t* scale, int* shift) {
  int exponent = 0;
  const double significand = std::frexp(real, &exponent);
  *scale = static_cast<std::uint32_t>(std::llround(significand * 2147483648.0));
  *shift = 31 - exponent;
  if (*shift < 0 || *shift >= 64) {
    *scale = 0;
    *shift = 16;
  }
}

int builtinCode(const tflite::Model* model, const tflite::Operator* op) {
  const auto* code = model->operator_codes()->Get(op->opcode_index());
  return std::max<int>(code->deprecated_builtin_code(), code->builtin_code());
}

// The original model's weighted layers, channel by channel.
using ChannelMap = std::map<std::vector<std::int16_t>, std::vector<Channel>>;

// A channel's non-zero weights in order of value: what survives when Vela
// rearranges a kernel (a stride-2 first layer becomes a stride-1 one over
// pairs of columns, with zero padding).
std::vector<std::int16_t> nonZeroSorted(const std::vector<std::int16_t>& values) {
  std::vector<std::int16_t> out;
  for (std::int16_t v : values) {
    if (v != 0) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ChannelMap originalChannels(const std::string& name, int* channelCount, ChannelMap* rearranged) {
  const auto file = loupe::test::readBytes(loupe::test::modelsDir() / name / "model.tflite");
  const auto* model = tflite::GetModel(file.data());
  const auto* graph = model->subgraphs()->Get(0);
  ChannelMap channels;
  *channelCount = 0;
  int layer = 0;
  for (const auto* op : *graph->operators()) {
    const int code = builtinCode(model, op);
    if (code != kConv2D && code != kDepthwiseConv2D && code != kFullyConnected) {
      continue;
    }
    const auto* in = graph->tensors()->Get(op->inputs()->Get(0));
    const auto* w = graph->tensors()->Get(op->inputs()->Get(1));
    const auto* out = graph->tensors()->Get(op->outputs()->Get(0));
    const int biasIndex = op->inputs()->size() > 2 ? op->inputs()->Get(2) : -1;
    const auto* wData = model->buffers()->Get(w->buffer())->data();
    const std::int32_t* bias = nullptr;
    if (biasIndex >= 0) {
      bias = reinterpret_cast<const std::int32_t*>(
          model->buffers()->Get(graph->tensors()->Get(biasIndex)->buffer())->data()->data());
    }
    std::vector<int> shape(w->shape()->begin(), w->shape()->end());
    const bool depthwise = code == kDepthwiseConv2D;
    const int outChannels = depthwise ? shape.back() : shape.front();
    const int perChannel =
        depthwise ? shape[1] * shape[2] : static_cast<int>(wData->size()) / outChannels;
    const float inScale = in->quantization()->scale()->Get(0);
    const float outScale = out->quantization()->scale()->Get(0);
    const auto* wScales = w->quantization()->scale();
    const auto* wZeros = w->quantization()->zero_point();
    for (int o = 0; o < outChannels; ++o) {
      const float ws = wScales->Get(wScales->size() > 1 ? o : 0);
      const int zp = wZeros != nullptr && wZeros->size() > 0
                         ? static_cast<int>(wZeros->Get(wZeros->size() > 1 ? o : 0))
                         : 0;
      std::vector<std::int16_t> values(static_cast<std::size_t>(perChannel));
      for (int k = 0; k < perChannel; ++k) {
        const std::size_t at = depthwise ? static_cast<std::size_t>(k) * outChannels + o
                                         : static_cast<std::size_t>(o) * perChannel + k;
        values[k] = static_cast<std::int16_t>(static_cast<std::int8_t>(wData->Get(at)) - zp);
      }
      const double real = code == kFullyConnected
                              ? static_cast<double>(inScale * ws) / static_cast<double>(outScale)
                              : static_cast<double>(inScale) * static_cast<double>(ws) /
                                    static_cast<double>(outScale);
      Channel c{layer, o, bias != nullptr ? bias[o] : 0, 0, 0};
      quantiseScale(real, &c.scale, &c.shift);
      channels[values].push_back(c);
      (*rearranged)[nonZeroSorted(values)].push_back(c);
      ++*channelCount;
    }
    ++layer;
  }
  return channels;
}

struct Decoded {
  std::vector<std::int16_t> weights;
  loupe_ethosu_bias_record record;
};

struct Collector {
  ethosu_driver* driver;
  std::vector<Decoded> channels;
  int operations = 0;
  std::string error;
};

// Before each convolution runs (its weights DMA'd where it reads them):
// decode its streams the way the layout facts of weight_compressor.py say.
int collect(void* user, const loupe_ethosu_operation* op) {
  auto* c = static_cast<Collector*>(user);
  ++c->operations;
  if (op->kind != LOUPE_ETHOSU_OPERATION_CONV && op->kind != LOUPE_ETHOSU_OPERATION_DEPTHWISE) {
    return 0;
  }
  const loupe_ethosu_machine& m = c->driver->machine;
  loupe_ethosu_weight_layout l{};
  l.ofm_depth = op->ofm.depth;
  l.kernel_height = (op->kernel_height - 1) / op->dilation_y + 1;
  l.kernel_width = (op->kernel_width - 1) / op->dilation_x + 1;
  l.is_depthwise = op->kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE;
  l.ifm_depth = l.is_depthwise ? 1 : op->ifm.depth;
  l.ofm_block_depth = op->block_depth;
  l.is_part_kernel_first = op->part_kernel_first;
  l.ifm_bits = op->ifm.precision_bits;
  l.dilation_x = op->dilation_x;
  l.dilation_y = op->dilation_y;
  l.ifm_ublock_depth = m.config.ifm_ublock_depth;
  l.ofm_ublock_depth = m.config.ofm_ublock_depth;
  const std::uint32_t perChannel = l.kernel_height * l.kernel_width * l.ifm_depth;
  std::vector<std::int16_t> ohwi(static_cast<std::size_t>(l.ofm_depth) * perChannel);
  static loupe_ethosu_mlw_decoder decoder;
  loupe_ethosu_error err{};
  const auto& w = op->weights[0];
  const auto& s = op->scales[0];
  const std::uint8_t* stream = m.regions[w.region].data + w.base;
  const std::uint8_t* scales = m.regions[s.region].data + s.base;
  if (loupe_ethosu_weights_decode_ohwi(stream, w.length, &l, ohwi.data(),
                                       static_cast<std::uint32_t>(ohwi.size()), &decoder,
                                       &err) != 0) {
    c->error = err.message;
    return 1;
  }
  for (std::uint32_t o = 0; o < l.ofm_depth; ++o) {
    Decoded d;
    d.weights.assign(ohwi.begin() + o * perChannel, ohwi.begin() + (o + 1) * perChannel);
    d.record = loupe_ethosu_bias_record_decode(scales + o * 10u);
    c->channels.push_back(std::move(d));
  }
  return 0;
}

}  // namespace

class EthosuDecoderTest : public QObject {
  Q_OBJECT

 private slots:
  void everyStreamDecodesIntoOperationsCoveringItsWords() {
    int waits = 0;  // ad01's streams have none, the others do
    for (const auto& f : velaFiles()) {
      const EthosuOperator e = loadEthosuOperator(f.path);
      const std::uint8_t* words = nullptr;
      std::uint32_t count = 0;
      loupe_ethosu_error err{};
      QCOMPARE(loupe_ethosu_payload_parse(e.payload, e.payloadSize, nullptr, &words, &count, &err),
               0);
      static loupe_ethosu_command_decoder decoder;
      loupe_ethosu_operation op;
      loupe_ethosu_command_decoder_init(&decoder, words, count);
      std::uint32_t next = 0;
      std::vector<std::uint32_t> controlWords;  // since the last operation that does work
      int status = 0;
      int kinds[16] = {};
      while ((status = loupe_ethosu_command_decoder_next(&decoder, &op, &err)) == 1) {
        kinds[op.kind]++;
        // A wait's words are its own word, inside the next group.
        if (loupe_ethosu_operation_is_control(&op)) {
          QCOMPARE(op.end_word, op.first_word + 1);
          QVERIFY(op.first_word >= next);
          controlWords.push_back(op.first_word);
          continue;
        }
        // An operation that does work: the words from the previous one's
        // NPU_OP_* word to its own, any waits among them.
        QCOMPARE(op.first_word, next);
        QVERIFY(op.end_word > op.first_word);
        for (std::uint32_t word : controlWords) QVERIFY(word < op.end_word - 1);
        controlWords.clear();
        next = op.end_word;
      }
      QVERIFY2(status == 0, err.message);
      waits += kinds[LOUPE_ETHOSU_OPERATION_DMA_WAIT] + kinds[LOUPE_ETHOSU_OPERATION_KERNEL_WAIT];
      QCOMPARE(next, count);  // the last operation is STOP, at the last word
      QCOMPARE(op.kind, std::uint8_t(LOUPE_ETHOSU_OPERATION_STOP));
      QVERIFY2(kinds[LOUPE_ETHOSU_OPERATION_CONV] > 0, f.name.c_str());
    }
    QVERIFY(waits > 0);
  }

  void everyOriginalWeightAndScaleIsInTheDecodedStreams_data() {
    QTest::addColumn<int>("file");
    const auto files = velaFiles();
    for (std::size_t i = 0; i < files.size(); ++i) {
      QTest::newRow(files[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void everyOriginalWeightAndScaleIsInTheDecodedStreams() {
    QFETCH(int, file);
    const VelaFile f = velaFiles()[static_cast<std::size_t>(file)];
    int originalCount = 0;
    ChannelMap rearranged;
    const auto original = originalChannels(f.model, &originalCount, &rearranged);
    const EthosuOperator e = loadEthosuOperator(f.path);
    std::vector<std::uint8_t> arena(e.scratchSize), fast(e.fastScratchSize);
    static std::int16_t workspace[1 << 17];
    static ethosu_driver driver;
    loupe_ethosu_driver_init(&driver, f.accelerator, workspace, 1 << 17);
    Collector collector{&driver, {}, 0, {}};
    loupe_ethosu_driver_set_hook(&driver, collect, &collector);
    QVERIFY2(invoke(driver, e, arena, fast) == 0,
             (collector.error + ethosu_last_error_message(&driver)).c_str());

    std::set<std::pair<int, int>> found;
    int unmatchedWeights = 0, unmatchedRecords = 0, rearrangedChannels = 0;
    for (const auto& d : collector.channels) {
      auto it = original.find(d.weights);
      if (it == original.end()) {
        it = rearranged.find(nonZeroSorted(d.weights));
        if (it == rearranged.end()) {
          ++unmatchedWeights;
          continue;
        }
        ++rearrangedChannels;
      }
      bool recordMatches = false;
      for (const Channel& c : it->second) {
        const bool sameScale =
            (d.record.scale == c.scale && d.record.shift == c.shift) ||
            // TFLite halves a significand that rounds to 2^31
            (c.scale == 0x80000000u && d.record.scale == c.scale && d.record.shift == c.shift);
        if (d.record.bias == c.bias && sameScale) {
          recordMatches = true;
          found.insert({c.layer, c.channel});
        }
      }
      if (!recordMatches) {
        if (unmatchedRecords < 3) {
          const Channel& c = it->second.front();
          qWarning(
              "record bias %lld scale %u shift %d; TFLite layer %d channel %d: bias %lld "
              "scale %u shift %d",
              static_cast<long long>(d.record.bias), d.record.scale, d.record.shift, c.layer,
              c.channel, static_cast<long long>(c.bias), c.scale, c.shift);
        }
        ++unmatchedRecords;
      }
    }
    qInfo("%s: %d decoded channels, %d of them a rearranged kernel", f.name.c_str(),
          static_cast<int>(collector.channels.size()), rearrangedChannels);
    QCOMPARE(unmatchedWeights, 0);
    QCOMPARE(unmatchedRecords, 0);
    QCOMPARE(static_cast<int>(found.size()), originalCount);
  }
};

QTEST_APPLESS_MAIN(EthosuDecoderTest)
#include "decoder_test.moc"
