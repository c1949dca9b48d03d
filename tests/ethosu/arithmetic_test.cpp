// Hand-built command streams, encoded with the register table, run on the
// functional model against straightforward reference computations: a 1x1
// convolution (bias, per-channel scale, zero points, clamp), average and max
// pooling, ADD with the 32-bit operand scale (TFLite's ADD), MUL with each
// rounding mode, SHR rounding, an 8-bit lookup table DMA'd into SHRAM, and
// pools over an IFM upscaled x2 (NEAREST repeats each element 2x2, ZEROS
// keeps the elements at even rows and columns and the zero point between);
// an upscale mode the NPU lacks is refused.
#include <QtTest>

#include <cstring>
#include <random>

#include "loupe/ethosu/ethosu_driver.h"
#include "loupe/ethosu/ethosu_registers.h"

namespace {

// A command stream writer: every field placed by the register table.
struct Stream {
  std::vector<std::uint32_t> words;
  void cmd0(std::uint32_t code, std::uint32_t param) {
    words.push_back(code | ((param & 0xFFFFu) << 16));
  }
  void cmd1(std::uint32_t code, std::uint32_t payload, std::uint32_t param = 0) {
    words.push_back(code | ((param & 0xFFFFu) << 16));
    words.push_back(payload);
  }
  void field0(std::uint32_t code, std::initializer_list<std::pair<int, std::uint32_t>> lsbValues,
              std::initializer_list<int> widths) {
    std::uint32_t w0 = code, w1 = 0;
    auto width = widths.begin();
    for (const auto& [lsb, value] : lsbValues) {
      loupe_ethosu_field_set(&w0, &w1, static_cast<unsigned>(lsb), static_cast<unsigned>(*width++),
                             value);
    }
    words.push_back(w0);
  }
};

#define FIELD(cmd, field) LOUPE_ETHOSU_##cmd##__##field##_LSB
#define WIDTH(cmd, field) LOUPE_ETHOSU_##cmd##__##field##_WIDTH

// An int8 NHWC feature map of h x w x c at `offset` in region 1.
void featureMap(Stream& s, const char which, std::uint32_t h, std::uint32_t w, std::uint32_t c,
                std::uint32_t offset, int zeroPoint, bool isSigned = true, int bits = 8) {
  const std::uint32_t bytes = static_cast<std::uint32_t>(bits / 8);
  const std::uint32_t precision = bits == 8 ? 0u : bits == 16 ? 1u : 2u;
  if (which == 'I') {
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_REGION, 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM_BASE0, offset);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_HEIGHT0_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_HEIGHT1_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_WIDTH0_M1, w - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1, c - 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_C, bytes);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_X, c * bytes);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_Y, w * c * bytes);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_ZERO_POINT, static_cast<std::uint32_t>(zeroPoint));
  } else if (which == '2') {
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_REGION, 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM2_BASE0, offset);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_HEIGHT0_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_HEIGHT1_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_WIDTH0_M1, w - 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_C, bytes);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_X, c * bytes);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_Y, w * c * bytes);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_ZERO_POINT, static_cast<std::uint32_t>(zeroPoint));
    s.field0(LOUPE_ETHOSU_NPU_SET_IFM2_PRECISION,
             {{FIELD(NPU_SET_IFM2_PRECISION, activation_type), isSigned ? 1u : 0u},
              {FIELD(NPU_SET_IFM2_PRECISION, activation_precision), precision}},
             {WIDTH(NPU_SET_IFM2_PRECISION, activation_type),
              WIDTH(NPU_SET_IFM2_PRECISION, activation_precision)});
  } else {
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_REGION, 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_BASE0, offset);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT0_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT1_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_WIDTH0_M1, w - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT_M1, h - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_WIDTH_M1, w - 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_DEPTH_M1, c - 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_C, bytes);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_X, c * bytes);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_Y, w * c * bytes);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_ZERO_POINT, static_cast<std::uint32_t>(zeroPoint));
  }
}

void ifmPrecision(Stream& s, std::uint32_t scaleMode, int bits = 8) {
  s.field0(LOUPE_ETHOSU_NPU_SET_IFM_PRECISION,
           {{FIELD(NPU_SET_IFM_PRECISION, activation_type), 1u},
            {FIELD(NPU_SET_IFM_PRECISION, activation_precision), bits == 8    ? 0u
                                                                 : bits == 16 ? 1u
                                                                              : 2u},
            {FIELD(NPU_SET_IFM_PRECISION, scale_mode), scaleMode}},
           {WIDTH(NPU_SET_IFM_PRECISION, activation_type),
            WIDTH(NPU_SET_IFM_PRECISION, activation_precision),
            WIDTH(NPU_SET_IFM_PRECISION, scale_mode)});
}

void ofmPrecision(Stream& s, bool global, std::uint32_t roundMode, int bits = 8) {
  s.field0(LOUPE_ETHOSU_NPU_SET_OFM_PRECISION,
           {{FIELD(NPU_SET_OFM_PRECISION, activation_type), 1u},
            {FIELD(NPU_SET_OFM_PRECISION, activation_precision), bits == 8    ? 0u
                                                                 : bits == 16 ? 1u
                                                                              : 2u},
            {FIELD(NPU_SET_OFM_PRECISION, scale_mode), global ? 1u : 0u},
            {FIELD(NPU_SET_OFM_PRECISION, round_mode), roundMode}},
           {WIDTH(NPU_SET_OFM_PRECISION, activation_type),
            WIDTH(NPU_SET_OFM_PRECISION, activation_precision),
            WIDTH(NPU_SET_OFM_PRECISION, scale_mode), WIDTH(NPU_SET_OFM_PRECISION, round_mode)});
}

void clamp(Stream& s, int lo, int hi, std::uint32_t function = 0) {
  s.cmd0(LOUPE_ETHOSU_NPU_SET_ACTIVATION, function);
  s.cmd0(LOUPE_ETHOSU_NPU_SET_ACTIVATION_MIN, static_cast<std::uint32_t>(lo));
  s.cmd0(LOUPE_ETHOSU_NPU_SET_ACTIVATION_MAX, static_cast<std::uint32_t>(hi));
}

// Runs the stream (plus STOP) with region 0 = flash, region 1 = arena.
std::string run(Stream s, std::vector<std::uint8_t>& flash, std::vector<std::uint8_t>& arena) {
  s.cmd0(LOUPE_ETHOSU_NPU_OP_STOP, 0xFFFF);
  loupe_ethosu_npu_config config;
  loupe_ethosu_npu_config_init(&config, LOUPE_ETHOSU_U55_128);
  std::vector<std::uint32_t> payload = {
      LOUPE_ETHOSU_FOURCC, 0x00100001u, loupe_ethosu_npu_config_word(&config),
      loupe_ethosu_npu_id_word(&config),
      LOUPE_ETHOSU_DA_COMMAND_STREAM | (static_cast<std::uint32_t>(s.words.size()) << 16)};
  payload.insert(payload.end(), s.words.begin(), s.words.end());
  static std::int16_t workspace[4096];
  static ethosu_driver driver;
  loupe_ethosu_driver_init(&driver, LOUPE_ETHOSU_U55_128, workspace, 4096);
  std::uint64_t base[2] = {reinterpret_cast<std::uintptr_t>(flash.data()),
                           reinterpret_cast<std::uintptr_t>(arena.data())};
  std::size_t sizes[2] = {flash.size(), arena.size()};
  const int status = ethosu_invoke_v3(&driver, payload.data(), static_cast<int>(payload.size() * 4),
                                      base, sizes, 2, nullptr);
  return status == 0 ? std::string() : std::string(ethosu_last_error_message(&driver));
}

// TFLite's fixed-point helpers, written out for the references.
std::int32_t srdhm(std::int64_t a, std::int64_t b) {
  const std::int64_t ab = a * b;
  const std::int64_t nudge = ab >= 0 ? (1ll << 30) : (1 - (1ll << 30));
  return static_cast<std::int32_t>((ab + nudge) / (1ll << 31));
}
std::int32_t rdbpot(std::int32_t x, int e) {
  const std::int32_t mask = (1 << e) - 1;
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}
std::int32_t tflMultiply(std::int32_t x, std::int32_t m, int shift31) {
  // shift31 = Vela's shift = 31 - TFLite's exponent
  const int exponent = 31 - shift31;
  const int left = exponent > 0 ? exponent : 0;
  const int right = exponent > 0 ? 0 : -exponent;
  return rdbpot(srdhm(static_cast<std::int64_t>(x) * (1ll << left), m), right);
}

// An uncompressed mlw stream (no palette, no zero runs, 9-bit values),
// padded like Vela's to 16 bytes with 0xFF.
std::vector<std::uint8_t> mlwUncompressed(const std::vector<std::int16_t>& values) {
  std::vector<std::uint8_t> out;
  std::uint32_t bit = 0;
  auto put = [&](std::uint32_t value, int len) {
    for (int i = 0; i < len; ++i, ++bit) {
      if (bit / 8 >= out.size()) out.push_back(0);
      if ((value >> i) & 1u) out[bit / 8] |= static_cast<std::uint8_t>(1u << (bit % 8));
    }
  };
  put(6, 3);                                               // ZDIV: no zero runs
  put(static_cast<std::uint32_t>(values.size() - 1), 15);  // SLICELEN
  put(7, 3);                                               // WDIV: uncompressed
  put(0, 1);                                               // WTRUNC
  put(1, 1);                                               // NEWPAL
  put(0, 5);                                               // DIROFS
  put(0, 5);                                               // PALSIZE: none
  put(7, 3);                                               // PALBITS - 2: 9 bits
  for (std::int16_t v : values) {
    const std::uint32_t magnitude = static_cast<std::uint32_t>(v < 0 ? -v : v);
    put((magnitude << 1) | (v < 0 ? 1u : 0u), 9);
  }
  put(7, 3);  // end of stream
  while (bit % 8 != 0) put(1, 1);
  while (out.size() % 16 != 0) out.push_back(0xFF);
  return out;
}

void record(std::vector<std::uint8_t>& out, std::int64_t bias, std::uint32_t scale, int shift) {
  for (int i = 0; i < 5; ++i) out.push_back(static_cast<std::uint8_t>(bias >> (8 * i)));
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(scale >> (8 * i)));
  out.push_back(static_cast<std::uint8_t>(shift));
  out.push_back(0);  // (only the first 10 bytes per channel are read)
  out.pop_back();
}

}  // namespace

class EthosuArithmeticTest : public QObject {
  Q_OBJECT

 private slots:
  void aOneByOneConvolutionIsTflitesConv() {
    // 2x2 pixels of 2 channels in, 2 channels out.
    const int inZp = -3, outZp = 5;
    const std::int8_t in[8] = {10, -20, 30, 40, -50, 60, 127, -128};
    const std::int16_t w[2][2] = {{3, -7}, {-128, 127}};
    const std::int32_t bias[2] = {1000, -77777};
    const std::uint32_t scale[2] = {1518500250u, 1073741824u};  // 0.707.., 0.5
    const int shift[2] = {38, 33};
    // Depth-first 8-bit order: per IFM micro-block of 8 (4 in a 32-deep
    // block), per OFM channel, 8 IFM channels.
    std::vector<std::int16_t> order(256, 0);
    for (int o = 0; o < 2; ++o)
      for (int i = 0; i < 2; ++i) order[(i / 8) * 64 + o * 8 + i % 8] = w[o][i];
    std::vector<std::uint8_t> flash = mlwUncompressed(order);
    const std::uint32_t scaleOffset = static_cast<std::uint32_t>(flash.size());
    for (int o = 0; o < 2; ++o) record(flash, bias[o], scale[o], shift[o]);
    while (flash.size() % 16) flash.push_back(0);
    std::vector<std::uint8_t> arena(64, 0);
    std::memcpy(arena.data(), in, 8);

    Stream s;
    featureMap(s, 'I', 2, 2, 2, 0, inZp);
    ifmPrecision(s, 0);
    featureMap(s, 'O', 2, 2, 2, 32, outZp);
    ofmPrecision(s, false, LOUPE_ETHOSU_round_mode_TFL);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_WEIGHT_REGION, 0);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_WEIGHT_BASE, 0);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_WEIGHT_LENGTH, scaleOffset);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_SCALE_REGION, 0);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_SCALE_BASE, scaleOffset);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_SCALE_LENGTH, 32);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_OFM_BLK_DEPTH_M1, 7);
    clamp(s, -100, 100);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_CONV, 0);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    for (int p = 0; p < 4; ++p) {
      for (int o = 0; o < 2; ++o) {
        std::int32_t acc = bias[o];
        for (int i = 0; i < 2; ++i) acc += (in[p * 2 + i] - inZp) * w[o][i];
        std::int32_t expected =
            tflMultiply(acc, static_cast<std::int32_t>(scale[o]), shift[o]) + outZp;
        expected = std::min(100, std::max(-100, expected));
        QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[32 + p * 2 + o])), expected);
      }
    }
  }

  void averageAndMaxPoolingAreTflites() {
    std::mt19937 rng(7);
    std::vector<std::uint8_t> flash(16, 0), arena(256, 0);
    for (int i = 0; i < 3 * 3 * 4; ++i) arena[i] = static_cast<std::uint8_t>(rng());
    // Average over 3x3 with padding 1 (a per-element count), then max 3x3 valid.
    Stream s;
    featureMap(s, 'I', 3, 3, 4, 0, 0);
    ifmPrecision(s, 0);
    featureMap(s, 'O', 3, 3, 4, 64, 0);
    ofmPrecision(s, false, LOUPE_ETHOSU_round_mode_TFL);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1, 2);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, 2);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_TOP, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_LEFT, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT, 1);
    clamp(s, -128, 127);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, LOUPE_ETHOSU_pooling_mode_AVERAGE);
    featureMap(s, 'O', 1, 1, 4, 128, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_TOP, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_LEFT, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, LOUPE_ETHOSU_pooling_mode_MAX);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    auto at = [&](int y, int x, int c) {
      return static_cast<std::int8_t>(arena[(y * 3 + x) * 4 + c]);
    };
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x)
        for (int c = 0; c < 4; ++c) {
          int sum = 0, count = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              if (y + dy >= 0 && y + dy < 3 && x + dx >= 0 && x + dx < 3) {
                sum += at(y + dy, x + dx, c);
                ++count;
              }
          const int average = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
          QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[64 + (y * 3 + x) * 4 + c])),
                   average);
        }
    for (int c = 0; c < 4; ++c) {
      int best = -128;
      for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 3; ++x) best = std::max(best, static_cast<int>(at(y, x, c)));
      QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[128 + c])), best);
    }
  }

  void addWithA32BitOperandScaleIsTflitesAdd() {
    // TFLite ADD: in1 scale 0.02, in2 scale 0.05, out scale 0.06; Vela's
    // advanced scaling (scaling.py) gives the registers below.
    const double s1 = 0.02, s2 = 0.05, so = 0.06;
    const int z1 = 3, z2 = -7, zo = 11;
    auto quantise = [](double real, std::int32_t* m, int* shift) {
      int e = 0;
      const double q = std::frexp(real, &e);
      *m = static_cast<std::int32_t>(std::llround(q * 2147483648.0));
      *shift = 31 - e;
    };
    const double twiceMax = 2 * std::max(s1, s2);
    std::int32_t m1, mo;
    int shift1, shiftOut;
    quantise(s1 * (1 << 20) / twiceMax, &m1, &shift1);  // the smaller scale: IFM
    quantise(twiceMax / (so * (1 << 20)), &mo, &shiftOut);
    std::vector<std::uint8_t> flash(16, 0), arena(128, 0);
    std::mt19937 rng(3);
    for (int i = 0; i < 32; ++i) arena[i] = static_cast<std::uint8_t>(rng());
    Stream s;
    featureMap(s, 'I', 1, 4, 4, 0, z1);
    ifmPrecision(s, LOUPE_ETHOSU_ifm_scale_mode_OPA_32);
    featureMap(s, '2', 1, 4, 4, 16, z2);
    featureMap(s, 'O', 1, 4, 4, 64, zo);
    ofmPrecision(s, true, LOUPE_ETHOSU_round_mode_TFL);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OPA_SCALE, static_cast<std::uint32_t>(m1),
           static_cast<std::uint32_t>(shift1));
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OPB_SCALE, 0);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_SCALE, static_cast<std::uint32_t>(mo),
           static_cast<std::uint32_t>(shiftOut));
    clamp(s, -128, 127);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_ELEMENTWISE, LOUPE_ETHOSU_elementwise_mode_ADD);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    for (int i = 0; i < 16; ++i) {
      const std::int32_t a = (static_cast<std::int8_t>(arena[i]) - z1) * (1 << 20);
      const std::int32_t b = (static_cast<std::int8_t>(arena[16 + i]) - z2) * (1 << 20);
      const std::int32_t scaledA = tflMultiply(a, m1, shift1 + 20);
      const std::int32_t scaledB = tflMultiply(b, 1 << 30, 31);  // one half
      std::int32_t expected = tflMultiply(scaledA + scaledB, mo, shiftOut) + zo;
      expected = std::min(127, std::max(-128, expected));
      QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[64 + i])), expected);
    }
  }

  void eachRoundingModeRoundsAsItsName() {
    // x * scale / 2^shift, x = -5..5 and ties: 3/2 = 1.5, -3/2 = -1.5.
    QCOMPARE(loupe_ethosu_scale(3, 1, 1, 1, LOUPE_ETHOSU_round_mode_NATURAL), std::int64_t(2));
    QCOMPARE(loupe_ethosu_scale(-3, 1, 1, 1, LOUPE_ETHOSU_round_mode_NATURAL), std::int64_t(-1));
    QCOMPARE(loupe_ethosu_scale(3, 1, 1, 1, LOUPE_ETHOSU_round_mode_TRUNCATE), std::int64_t(1));
    QCOMPARE(loupe_ethosu_scale(-3, 1, 1, 1, LOUPE_ETHOSU_round_mode_TRUNCATE), std::int64_t(-1));
    // TFL: TFLite's SaturatingRoundingDoublingHighMul then RoundingDivideByPOT.
    std::mt19937 rng(11);
    for (int i = 0; i < 20000; ++i) {
      const std::int32_t x = static_cast<std::int32_t>(rng() % 2000001) - 1000000;
      const std::int32_t m = static_cast<std::int32_t>(rng() % 0x40000000u) + 0x40000000;
      const int shift = 20 + static_cast<int>(rng() % 24);
      QCOMPARE(loupe_ethosu_scale(x, static_cast<std::uint32_t>(m), 1,
                                  static_cast<std::uint32_t>(shift), LOUPE_ETHOSU_round_mode_TFL),
               std::int64_t(tflMultiply(x, m, shift)));
      const double exact = static_cast<double>(x) * m / std::ldexp(1.0, shift);
      QCOMPARE(
          loupe_ethosu_scale(x, static_cast<std::uint32_t>(m), 1, static_cast<std::uint32_t>(shift),
                             LOUPE_ETHOSU_round_mode_NATURAL),
          static_cast<std::int64_t>(std::floor(exact + 0.5)));
      QCOMPARE(
          loupe_ethosu_scale(x, static_cast<std::uint32_t>(m), 1, static_cast<std::uint32_t>(shift),
                             LOUPE_ETHOSU_round_mode_TRUNCATE),
          static_cast<std::int64_t>(std::trunc(exact)));
    }
  }

  void mulOfInt32IsTflitesDoublingHighMulAndShrRoundsHalfUp() {
    // int32 MUL with shift 31 (scale not applied to 32-bit IFMs), then SHR by
    // 3 with NATURAL rounding to int8 with a zero point.
    std::vector<std::uint8_t> flash(16, 0), arena(256, 0);
    const std::int32_t a[4] = {1 << 30, -123456789, 2000000000, 7};
    const std::int32_t b[4] = {1 << 29, 987654321, -2000000000, 1 << 30};
    std::memcpy(arena.data(), a, 16);
    std::memcpy(arena.data() + 16, b, 16);
    Stream s;
    featureMap(s, 'I', 1, 1, 4, 0, 0, true, 32);
    ifmPrecision(s, 0, 32);
    featureMap(s, '2', 1, 1, 4, 16, 0, true, 32);
    featureMap(s, 'O', 1, 1, 4, 32, 0, true, 32);
    ofmPrecision(s, true, LOUPE_ETHOSU_round_mode_TFL, 32);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_SCALE, 1u << 30, 31);
    clamp(s, -32768, 32767);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_ELEMENTWISE, LOUPE_ETHOSU_elementwise_mode_MUL);
    featureMap(s, 'I', 1, 1, 4, 32, 0, true, 32);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_SCALAR, 20);
    s.field0(LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST,
             {{FIELD(NPU_SET_IFM2_BROADCAST, broadcast_constant), 1u}},
             {WIDTH(NPU_SET_IFM2_BROADCAST, broadcast_constant)});
    featureMap(s, 'O', 1, 1, 4, 48, -10);
    ofmPrecision(s, false, LOUPE_ETHOSU_round_mode_NATURAL);
    clamp(s, -128, 127);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_ELEMENTWISE, LOUPE_ETHOSU_elementwise_mode_SHR);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    for (int i = 0; i < 4; ++i) {
      std::int32_t product;
      std::memcpy(&product, arena.data() + 32 + 4 * i, 4);
      QCOMPARE(product, srdhm(a[i], b[i]));
      const std::int64_t shifted = (static_cast<std::int64_t>(product) + (1 << 19)) >> 20;
      const int expected =
          static_cast<int>(std::min<std::int64_t>(127, std::max<std::int64_t>(-128, shifted - 10)));
      QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[48 + i])), expected);
    }
  }

  void anInt8LookupTableDmaedIntoShramMapsEveryValue() {
    // The table: lut[i] = 127 - i (as int8 index i = value + 128).
    std::vector<std::uint8_t> flash(256);
    for (int i = 0; i < 256; ++i) flash[i] = static_cast<std::uint8_t>(127 - i);
    std::vector<std::uint8_t> arena(512, 0);
    for (int i = 0; i < 256; ++i) arena[i] = static_cast<std::uint8_t>(i);
    loupe_ethosu_npu_config config;
    loupe_ethosu_npu_config_init(&config, LOUPE_ETHOSU_U55_128);
    Stream s;
    s.cmd0(LOUPE_ETHOSU_NPU_SET_DMA0_SRC_REGION, 0);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_DMA0_SRC, 0);
    s.field0(LOUPE_ETHOSU_NPU_SET_DMA0_DST_REGION,
             {{FIELD(NPU_SET_DMA0_DST_REGION, region), 3u},
              {FIELD(NPU_SET_DMA0_DST_REGION, region_mode), 1u}},
             {WIDTH(NPU_SET_DMA0_DST_REGION, region), WIDTH(NPU_SET_DMA0_DST_REGION, region_mode)});
    s.cmd1(LOUPE_ETHOSU_NPU_SET_DMA0_DST, config.lut_shram_address + 256u);  // slot 1
    s.cmd1(LOUPE_ETHOSU_NPU_SET_DMA0_LEN, 256);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_DMA_START, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_DMA_WAIT, 0);
    featureMap(s, 'I', 1, 16, 16, 0, 0);
    ifmPrecision(s, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_SCALAR, 0);
    s.field0(LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST,
             {{FIELD(NPU_SET_IFM2_BROADCAST, broadcast_constant), 1u}},
             {WIDTH(NPU_SET_IFM2_BROADCAST, broadcast_constant)});
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM2_ZERO_POINT, 0);
    featureMap(s, 'O', 1, 16, 16, 256, 0);
    ofmPrecision(s, true, LOUPE_ETHOSU_round_mode_TFL);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OPA_SCALE, 1, 0);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OPB_SCALE, 1);
    s.cmd1(LOUPE_ETHOSU_NPU_SET_OFM_SCALE, 1, 0);
    clamp(s, -128, 127, LOUPE_ETHOSU_activation_function_TABLE_1);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_ELEMENTWISE, LOUPE_ETHOSU_elementwise_mode_ADD);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    for (int i = 0; i < 256; ++i) {
      const int value = static_cast<std::int8_t>(i);
      QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[256 + i])), 127 - (value + 128));
    }
  }
  void aNearestUpscaledIfmRepeatsEachElementTwoByTwo() {
    // A 3x2x3 IFM read x2 upscaled by a 1x1 MAX pool (a copy) and by a 2x2
    // AVERAGE pool padded one row and column after (RESIZE_BILINEAR's x2):
    // the implied IFM is the upscaled 6x4, the pads are in its elements.
    const int h = 3, w = 2, c = 3;
    std::mt19937 rng(11);
    std::vector<std::uint8_t> flash(16, 0), arena(512, 0);
    for (int i = 0; i < h * w * c; ++i) arena[i] = static_cast<std::uint8_t>(rng());
    const auto at = [&](int y, int x, int ch) {
      return static_cast<int>(static_cast<std::int8_t>(arena[(y * w + x) * c + ch]));
    };
    Stream s;
    featureMap(s, 'I', h, w, c, 0, 0);
    ifmPrecision(s, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE, LOUPE_ETHOSU_upscale_mode_NEAREST);
    featureMap(s, 'O', 2 * h, 2 * w, c, 64, 0);
    ofmPrecision(s, false, LOUPE_ETHOSU_round_mode_TFL);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE, 0);
    clamp(s, -128, 127);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, LOUPE_ETHOSU_pooling_mode_MAX);
    featureMap(s, 'O', 2 * h, 2 * w, c, 192, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, LOUPE_ETHOSU_pooling_mode_AVERAGE);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    const auto upscaled = [&](int y, int x, int ch) { return at(y / 2, x / 2, ch); };
    for (int y = 0; y < 2 * h; ++y)
      for (int x = 0; x < 2 * w; ++x)
        for (int ch = 0; ch < c; ++ch) {
          const std::size_t o = static_cast<std::size_t>((y * 2 * w + x) * c + ch);
          QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[64 + o])), at(y / 2, x / 2, ch));
          int sum = 0, count = 0;
          for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx)
              if (y + dy < 2 * h && x + dx < 2 * w) {
                sum += upscaled(y + dy, x + dx, ch);
                ++count;
              }
          const int average = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
          QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[192 + o])), average);
        }
  }

  void aZerosUpscaledIfmHasTheZeroPointBetweenItsElements() {
    // A 2x3x2 IFM of zero point 9 read x2 upscaled with zeros: a 1x1
    // AVERAGE pool gives the element at even rows and columns and the zero
    // point elsewhere; a 2x2 one padded after counts the zero points in.
    const int h = 2, w = 3, c = 2, zp = 9;
    std::mt19937 rng(12);
    std::vector<std::uint8_t> flash(16, 0), arena(512, 0);
    for (int i = 0; i < h * w * c; ++i) arena[i] = static_cast<std::uint8_t>(rng());
    const auto upscaled = [&](int y, int x, int ch) {
      if (y % 2 != 0 || x % 2 != 0) return zp;
      return static_cast<int>(static_cast<std::int8_t>(arena[((y / 2) * w + x / 2) * c + ch]));
    };
    Stream s;
    featureMap(s, 'I', h, w, c, 0, zp);
    ifmPrecision(s, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE, LOUPE_ETHOSU_upscale_mode_ZEROS);
    featureMap(s, 'O', 2 * h, 2 * w, c, 64, zp);
    ofmPrecision(s, false, LOUPE_ETHOSU_round_mode_TFL);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE, 0);
    clamp(s, -128, 127);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, LOUPE_ETHOSU_pooling_mode_AVERAGE);
    featureMap(s, 'O', 2 * h, 2 * w, c, 192, zp);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT, 1);
    s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, LOUPE_ETHOSU_pooling_mode_AVERAGE);
    const std::string error = run(s, flash, arena);
    QVERIFY2(error.empty(), error.c_str());
    for (int y = 0; y < 2 * h; ++y)
      for (int x = 0; x < 2 * w; ++x)
        for (int ch = 0; ch < c; ++ch) {
          const std::size_t o = static_cast<std::size_t>((y * 2 * w + x) * c + ch);
          QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[64 + o])), upscaled(y, x, ch));
          int sum = 0, count = 0;
          for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx)
              if (y + dy < 2 * h && x + dx < 2 * w) {
                sum += upscaled(y + dy, x + dx, ch);
                ++count;
              }
          const int average = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
          QCOMPARE(static_cast<int>(static_cast<std::int8_t>(arena[192 + o])), average);
        }
  }

  // What the hardware does not define over an upscaled IFM is an invalid
  // operation: a mode the NPU lacks, a kernel stride other than 1, MAX over
  // inserted zeros, REDUCE_SUM, an element-wise operation.
  void upscalingTheHardwareDoesNotDefineIsRefused_data() {
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("operation");  // pooling mode, or -1: element-wise ADD
    QTest::addColumn<QString>("reason");
    QTest::newRow("mode 3") << 3 << 1 << int(LOUPE_ETHOSU_pooling_mode_MAX) << "upscale mode";
    QTest::newRow("stride 2") << int(LOUPE_ETHOSU_upscale_mode_NEAREST) << 2
                              << int(LOUPE_ETHOSU_pooling_mode_AVERAGE) << "kernel stride";
    QTest::newRow("max over zeros") << int(LOUPE_ETHOSU_upscale_mode_ZEROS) << 1
                                    << int(LOUPE_ETHOSU_pooling_mode_MAX) << "pooling mode";
    QTest::newRow("reduce sum") << int(LOUPE_ETHOSU_upscale_mode_NEAREST) << 1
                                << int(LOUPE_ETHOSU_pooling_mode_REDUCE_SUM) << "pooling mode";
    QTest::newRow("element-wise") << int(LOUPE_ETHOSU_upscale_mode_NEAREST) << 1 << -1
                                  << "element-wise";
  }

  void upscalingTheHardwareDoesNotDefineIsRefused() {
    QFETCH(int, mode);
    QFETCH(int, stride);
    QFETCH(int, operation);
    QFETCH(QString, reason);
    std::vector<std::uint8_t> flash(16, 0), arena(256, 0);
    Stream s;
    featureMap(s, 'I', 2, 2, 1, 0, 0);
    ifmPrecision(s, 0);
    s.cmd0(LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE, static_cast<std::uint32_t>(mode));
    featureMap(s, 'O', 2, 2, 1, 64, 0);
    ofmPrecision(s, false, LOUPE_ETHOSU_round_mode_TFL);
    clamp(s, -128, 127);
    if (operation < 0) {
      featureMap(s, '2', 2, 2, 1, 128, 0);
      s.cmd0(LOUPE_ETHOSU_NPU_OP_ELEMENTWISE, LOUPE_ETHOSU_elementwise_mode_ADD);
    } else {
      s.cmd0(LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE, stride == 2 ? 3u : 0u);  // x and y lsb
      s.cmd0(LOUPE_ETHOSU_NPU_OP_POOL, static_cast<std::uint32_t>(operation));
    }
    const std::string error = run(s, flash, arena);
    QVERIFY2(QString::fromStdString(error).contains(reason), error.c_str());
  }
};

QTEST_APPLESS_MAIN(EthosuArithmeticTest)
#include "arithmetic_test.moc"
