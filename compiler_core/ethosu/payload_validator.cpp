#include "ethosu/payload_validator.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <initializer_list>

#include "loupe/ethosu/ethosu_registers.h"
#include "loupe/little_endian.h"

namespace loupe::ethosu {

std::string_view payloadRuleName(PayloadRule rule) {
  switch (rule) {
    case PayloadRule::Fourcc:
      return "fourcc";
    case PayloadRule::PayloadSize:
      return "payload size";
    case PayloadRule::DriverAction:
      return "driver action";
    case PayloadRule::ActionTruncated:
      return "action truncated";
    case PayloadRule::Config:
      return "CONFIG/ID words";
    case PayloadRule::CommandStreamCount:
      return "command stream count";
    case PayloadRule::StreamAlignment:
      return "command stream alignment";
    case PayloadRule::StreamLength:
      return "command stream length";
    case PayloadRule::UnknownCommand:
      return "unknown command";
    case PayloadRule::Cmd1Truncated:
      return "cmd1 truncated";
    case PayloadRule::ForbiddenCommand:
      return "forbidden command";
    case PayloadRule::StopPlacement:
      return "NPU_OP_STOP placement";
    case PayloadRule::RegisterUnset:
      return "register unset";
    case PayloadRule::FeatureMapFormat:
      return "feature map format";
    case PayloadRule::Geometry:
      return "geometry";
    case PayloadRule::RegionBounds:
      return "region bounds";
    case PayloadRule::Alignment:
      return "alignment";
    case PayloadRule::BaseAddressAlignment:
      return "base address alignment";
  }
  return "?";
}

std::string_view payloadRuleSource(PayloadRule rule) {
  switch (rule) {
    case PayloadRule::Fourcc:
    case PayloadRule::PayloadSize:
    case PayloadRule::DriverAction:
    case PayloadRule::ActionTruncated:
    case PayloadRule::Config:
    case PayloadRule::StreamAlignment:
    case PayloadRule::BaseAddressAlignment:
      return "Arm core driver";
    case PayloadRule::CommandStreamCount:
    case PayloadRule::Alignment:
      return "Vela";
    default:
      return "Linux accel/ethosu";
  }
}

std::string_view payloadAccessKindName(PayloadAccessKind kind) {
  switch (kind) {
    case PayloadAccessKind::Ifm:
      return "IFM";
    case PayloadAccessKind::Ifm2:
      return "IFM2";
    case PayloadAccessKind::Ofm:
      return "OFM";
    case PayloadAccessKind::Weights:
      return "weights";
    case PayloadAccessKind::Scales:
      return "scales";
    case PayloadAccessKind::DmaSource:
      return "DMA source";
    case PayloadAccessKind::DmaDestination:
      return "DMA destination";
  }
  return "?";
}

bool PayloadValidation::has(PayloadRule rule) const {
  return std::any_of(problems.begin(), problems.end(),
                     [rule](const PayloadProblem& p) { return p.rule == rule; });
}

std::string PayloadValidation::text() const {
  std::string text;
  for (const PayloadProblem& p : problems) {
    text += std::string(payloadRuleName(p.rule)) + " (" + std::string(payloadRuleSource(p.rule)) +
            ") at word " + std::to_string(p.payloadWord) + ": " + p.message + "\n";
  }
  return text;
}

namespace {

constexpr std::size_t kMaxProblems = 200;
constexpr int kRegions = 8;

std::string hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

std::string commandName(std::uint32_t code) {
  const loupe_ethosu_command_info* info = loupe_ethosu_find_command(code);
  return info != nullptr ? info->name : hex(code);
}

void report(PayloadValidation& v, PayloadRule rule, std::uint32_t word, std::string message) {
  if (v.problems.size() < kMaxProblems) v.problems.push_back({rule, word, std::move(message)});
}

// The register codes of one feature map (IFM, IFM2 or OFM).
struct FeatureMapRegisters {
  PayloadAccessKind kind;
  std::uint32_t region, precision, width0, height0, height1, base0, strideX, strideY, strideC;
  unsigned precisionLsb;  // activation_precision's bit in the command
};

constexpr FeatureMapRegisters kIfm{PayloadAccessKind::Ifm,
                                   LOUPE_ETHOSU_NPU_SET_IFM_REGION,
                                   LOUPE_ETHOSU_NPU_SET_IFM_PRECISION,
                                   LOUPE_ETHOSU_NPU_SET_IFM_WIDTH0_M1,
                                   LOUPE_ETHOSU_NPU_SET_IFM_HEIGHT0_M1,
                                   LOUPE_ETHOSU_NPU_SET_IFM_HEIGHT1_M1,
                                   LOUPE_ETHOSU_NPU_SET_IFM_BASE0,
                                   LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_X,
                                   LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_Y,
                                   LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_C,
                                   LOUPE_ETHOSU_NPU_SET_IFM_PRECISION__activation_precision_LSB};
constexpr FeatureMapRegisters kIfm2{PayloadAccessKind::Ifm2,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_REGION,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_PRECISION,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_WIDTH0_M1,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_HEIGHT0_M1,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_HEIGHT1_M1,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_BASE0,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_X,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_Y,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_C,
                                    LOUPE_ETHOSU_NPU_SET_IFM2_PRECISION__activation_precision_LSB};
constexpr FeatureMapRegisters kOfm{PayloadAccessKind::Ofm,
                                   LOUPE_ETHOSU_NPU_SET_OFM_REGION,
                                   LOUPE_ETHOSU_NPU_SET_OFM_PRECISION,
                                   LOUPE_ETHOSU_NPU_SET_OFM_WIDTH0_M1,
                                   LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT0_M1,
                                   LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT1_M1,
                                   LOUPE_ETHOSU_NPU_SET_OFM_BASE0,
                                   LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_X,
                                   LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_Y,
                                   LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_C,
                                   LOUPE_ETHOSU_NPU_SET_OFM_PRECISION__activation_precision_LSB};

// One command stream, walked word by word with the NPU's registers.
class StreamChecker {
 public:
  StreamChecker(const std::uint8_t* words, std::uint32_t count, std::uint32_t payloadWord,
                const loupe_ethosu_npu_config& npu, const PayloadMemory& memory,
                PayloadValidation& v)
      : words_(words),
        count_(count),
        payloadWord_(payloadWord),
        npu_(npu),
        memory_(memory),
        v_(v) {}

  void run() {
    if (count_ == 0) {
      report(v_, PayloadRule::StreamLength, payloadWord_, "the command stream has no words");
      return;
    }
    bool stopped = false;
    for (std::uint32_t i = 0; i < count_; ++i) {
      at_ = i;
      const std::uint32_t w0 = word(i);
      // Bits 10-13 and 15 are reserved; bit 14 says a payload word follows.
      if ((w0 & 0xBC00u) != 0) {
        problem(PayloadRule::UnknownCommand, "command word " + hex(w0) + " has reserved bits set");
        return;
      }
      const std::uint32_t code = w0 & (LOUPE_ETHOSU_CONTROL_MASK | LOUPE_ETHOSU_OPCODE_MASK);
      if (loupe_ethosu_find_command(code) == nullptr) {
        problem(PayloadRule::UnknownCommand,
                "command " + hex(w0) + ": opcode " + hex(code) + " is not an Ethos-U command");
        return;
      }
      std::uint32_t w1 = 0;
      if ((w0 & LOUPE_ETHOSU_CMD1_FLAG) != 0) {
        if (i + 1 >= count_) {
          problem(PayloadRule::Cmd1Truncated,
                  commandName(code) + " is the stream's last word: its payload word is missing");
          return;
        }
        w1 = word(++i);
      }
      Register& r = reg(code);
      r = {w0, w1, true};
      // NPU_OP_* commands (cmd0 opcodes below 0x100) are the operations.
      if (code < 0x100u && code != LOUPE_ETHOSU_NPU_OP_STOP) ++v_.operations;
      switch (code) {
        case LOUPE_ETHOSU_NPU_OP_STOP:
          stopped = true;
          if (i + 1 != count_) {
            problem(PayloadRule::StopPlacement,
                    "NPU_OP_STOP is followed by " + std::to_string(count_ - i - 1) + " more words");
          }
          break;
        case LOUPE_ETHOSU_NPU_OP_IRQ:
          problem(PayloadRule::ForbiddenCommand, "NPU_OP_IRQ in a command stream");
          break;
        case LOUPE_ETHOSU_NPU_OP_CONV:
        case LOUPE_ETHOSU_NPU_OP_DEPTHWISE:
        case LOUPE_ETHOSU_NPU_OP_POOL:
          kernelOperation(code, w0);
          break;
        case LOUPE_ETHOSU_NPU_OP_ELEMENTWISE:
          elementwise(w0);
          break;
        case LOUPE_ETHOSU_NPU_OP_DMA_START:
          dma();
          break;
        default:
          break;
      }
      if (stopped) break;
    }
    if (!stopped) {
      problem(PayloadRule::StopPlacement, "the command stream does not end with NPU_OP_STOP");
    }
  }

 private:
  struct Register {
    std::uint32_t w0 = 0, w1 = 0;
    bool set = false;
  };

  std::uint32_t word(std::uint32_t i) const { return loupe_le_u32(words_ + 4u * i); }
  Register& reg(std::uint32_t code) {
    return (code & LOUPE_ETHOSU_CMD1_FLAG) != 0 ? cmd1_[code & LOUPE_ETHOSU_OPCODE_MASK]
                                                : cmd0_[code & LOUPE_ETHOSU_OPCODE_MASK];
  }
  std::uint32_t param(std::uint32_t code) { return reg(code).w0 >> 16; }
  std::uint32_t field(std::uint32_t code, unsigned lsb, unsigned width) {
    return loupe_ethosu_field_get(reg(code).w0, reg(code).w1, lsb, width);
  }
  // A cmd1's address: the payload word, and on the U65 eight more bits.
  std::uint64_t address(std::uint32_t code) {
    const Register& r = reg(code);
    const std::uint64_t high = npu_.product == 1 ? (r.w0 >> 16) & 0xFFu : 0u;
    return (high << 32) | r.w1;
  }

  void problem(PayloadRule rule, std::string message) {
    report(v_, rule, payloadWord_ + at_, std::move(message));
  }
  std::string where() const {
    return operation_ + " (stream word " + std::to_string(operationWord_) + ")";
  }

  // Whether every register of `codes` was written; names the ones not.
  bool require(std::initializer_list<std::uint32_t> codes) {
    bool all = true;
    for (std::uint32_t code : codes) {
      if (!reg(code).set) {
        problem(PayloadRule::RegisterUnset, where() + " reads " + commandName(code) +
                                                ", which the stream has not written before it");
        all = false;
      }
    }
    return all;
  }

  void access(PayloadAccessKind kind, int part, int region, std::uint64_t begin,
              std::uint64_t end) {
    v_.accesses.push_back({operationWord_, operationName_, kind, part, region, begin, end});
    const std::string what = where() + ": " + std::string(payloadAccessKindName(kind)) +
                             (kind <= PayloadAccessKind::Ofm ? " tile " : " stream ") +
                             std::to_string(part) + " [" + hex(begin) + ", " + hex(end) + ")";
    if (region < 0) {
      const std::uint64_t shram = static_cast<std::uint64_t>(npu_.shram_banks) * 1024u;
      if (end > shram) {
        problem(PayloadRule::RegionBounds,
                what + " ends past the " + std::to_string(shram) + " bytes of the NPU's SHRAM");
      }
      return;
    }
    auto& extent = v_.regionExtent[static_cast<std::size_t>(region)];
    extent = std::max(extent, end);
    const auto r = static_cast<std::size_t>(region);
    const std::uint64_t size = r < memory_.regionSizes.size() ? memory_.regionSizes[r] : 0;
    if (end > size) {
      problem(PayloadRule::RegionBounds, what + " in region " + std::to_string(region) + " ends " +
                                             std::to_string(end - size) + " byte" +
                                             (end - size == 1 ? "" : "s") + " past its " +
                                             std::to_string(size) + " bytes");
    }
  }

  void aligned(std::uint64_t value, std::uint64_t multiple, const std::string& what) {
    if (multiple > 1 && value % multiple != 0) {
      problem(PayloadRule::Alignment, where() + ": " + what + " " + hex(value) +
                                          " is not a multiple of " + std::to_string(multiple));
    }
  }

  // The byte extent of each tile of a feature map of h x w x c elements.
  void featureMap(const FeatureMapRegisters& fm, std::int64_t h, std::int64_t w, std::int64_t c) {
    if (!require({fm.region, fm.precision, fm.width0, fm.height0, fm.height1, fm.strideY})) return;
    const std::uint32_t format = field(fm.precision, 22, 2);
    if (format > 1) {
      problem(PayloadRule::FeatureMapFormat,
              where() + ": " + std::string(payloadAccessKindName(fm.kind)) + " format " +
                  std::to_string(format) + " is neither NHWC (0) nor NHCWB16 (1)");
      return;
    }
    const bool brick = format == 1;
    if (!require({brick ? fm.strideC : fm.strideX})) return;
    const std::uint64_t element = std::uint64_t{1} << field(fm.precision, fm.precisionLsb, 2);
    const std::uint64_t strideY = address(fm.strideY);
    const std::uint64_t strideX = brick ? 16u * element : address(fm.strideX);
    const std::uint64_t strideC = address(fm.strideC);
    const std::string name(payloadAccessKindName(fm.kind));
    if (brick) {
      aligned(strideC, 16, name + " STRIDE_C");
      aligned(strideY, 16, name + " STRIDE_Y");
    } else {
      aligned(strideY, element, name + " STRIDE_Y");
      aligned(strideX, element, name + " STRIDE_X");
    }
    if (h <= 0 || w <= 0 || c <= 0) return;
    const std::int64_t w0 = param(fm.width0) + 1, h0 = param(fm.height0) + 1,
                       h1 = param(fm.height1) + 1;
    // Tiles: 0 top left, 1 top right (from column w0), 2 bottom left (from
    // row h0), 3 bottom right (from row h1); coordinates within a tile
    // count from its own base.
    struct Tile {
      bool used;
      std::int64_t rows, columns;
    };
    const Tile tiles[4] = {
        {true, std::min(h, h0), std::min(w, w0)},
        {w > w0, std::min(h, h1), w - w0},
        {h > h0, h - h0, std::min(w, w0)},
        {w > w0 && h > h1, h - h1, w - w0},
    };
    const auto region = static_cast<int>(param(fm.region) & 7u);
    for (int t = 0; t < 4; ++t) {
      const Tile& tile = tiles[t];
      if (!tile.used || tile.rows <= 0 || tile.columns <= 0) continue;
      const std::uint32_t baseCode = fm.base0 + static_cast<std::uint32_t>(t);
      if (!require({baseCode})) continue;
      const std::uint64_t base = address(baseCode);
      aligned(base, brick ? 16u : element, name + " tile " + std::to_string(t) + " base");
      const auto y = static_cast<std::uint64_t>(tile.rows - 1);
      const auto x = static_cast<std::uint64_t>(tile.columns - 1);
      const auto last = static_cast<std::uint64_t>(c - 1);
      std::uint64_t offset = 0;
      if (brick) {
        // The last channel, and the last of the brick before it when the
        // bricks are closer than a row of them.
        offset = (last / 16) * strideC + (16 * x + last % 16) * element;
        if (last >= 16) {
          offset = std::max(offset, (last / 16 - 1) * strideC + (16 * x + 15) * element);
        }
      } else {
        offset = x * strideX + last * element;
      }
      access(fm.kind, t, region, base, base + y * strideY + offset + element);
    }
  }

  // Weights or scales: a base and a length in one region.
  void stream(PayloadAccessKind kind, int part, std::uint32_t regionCode, std::uint32_t baseCode,
              std::uint32_t lengthCode, bool optional) {
    if (optional && !reg(baseCode).set && !reg(lengthCode).set) return;
    if (!require({regionCode, baseCode, lengthCode})) return;
    const std::uint64_t base = address(baseCode);
    const std::uint64_t length = reg(lengthCode).w1;
    const std::string name(payloadAccessKindName(kind));
    if (kind == PayloadAccessKind::Weights) aligned(base, 16, name + " base");
    aligned(length, 16, name + " length");
    access(kind, part, static_cast<int>(param(regionCode) & 7u), base, base + length);
  }

  // An operation starts: its name (the register table's, which outlives
  // the accesses that keep it) and word, for what it is reported with.
  void begin(std::uint32_t code) {
    const loupe_ethosu_command_info* info = loupe_ethosu_find_command(code);
    operationName_ = info != nullptr ? info->name : "?";
    operation_ = std::string(operationName_);
    operationWord_ = at_;
  }

  // A per-channel scale (OFM_PRECISION scale_mode 0) reads the scale
  // stream. Pooling: only when the stream gives one (Vela's max pooling
  // keeps scale_mode 0 and writes no scale registers; Linux would insist).
  void scales(bool optional) {
    if (field(LOUPE_ETHOSU_NPU_SET_OFM_PRECISION,
              LOUPE_ETHOSU_NPU_SET_OFM_PRECISION__scale_mode_LSB,
              LOUPE_ETHOSU_NPU_SET_OFM_PRECISION__scale_mode_WIDTH) != 0) {
      return;
    }
    stream(PayloadAccessKind::Scales, 0, LOUPE_ETHOSU_NPU_SET_SCALE_REGION,
           LOUPE_ETHOSU_NPU_SET_SCALE_BASE, LOUPE_ETHOSU_NPU_SET_SCALE_LENGTH, optional);
    stream(PayloadAccessKind::Scales, 1, LOUPE_ETHOSU_NPU_SET_SCALE_REGION,
           LOUPE_ETHOSU_NPU_SET_SCALE1_BASE, LOUPE_ETHOSU_NPU_SET_SCALE1_LENGTH, true);
  }

  // NPU_SET_IFM_UPSCALE's mode, NONE until it is written.
  std::uint32_t upscaleMode() {
    if (!reg(LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE).set) return LOUPE_ETHOSU_upscale_mode_NONE;
    return field(LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE, LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE__mode_LSB,
                 LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE__mode_WIDTH);
  }

  std::int64_t ofmHeight() { return std::int64_t{param(LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT_M1)} + 1; }
  std::int64_t ofmWidth() { return std::int64_t{param(LOUPE_ETHOSU_NPU_SET_OFM_WIDTH_M1)} + 1; }
  std::int64_t ofmDepth() { return std::int64_t{param(LOUPE_ETHOSU_NPU_SET_OFM_DEPTH_M1)} + 1; }

  // NPU_OP_CONV, NPU_OP_DEPTHWISE, NPU_OP_POOL: the IFM the kernel reads for
  // the OFM it writes, weights (not for pooling), scales and the OFM.
  void kernelOperation(std::uint32_t code, std::uint32_t w0) {
    begin(code);
    if (!require({LOUPE_ETHOSU_NPU_SET_OFM_PRECISION, LOUPE_ETHOSU_NPU_SET_OFM_WIDTH_M1,
                  LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT_M1, LOUPE_ETHOSU_NPU_SET_OFM_DEPTH_M1})) {
      return;
    }
    if (require({LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1, LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1,
                 LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE, LOUPE_ETHOSU_NPU_SET_IFM_PAD_TOP,
                 LOUPE_ETHOSU_NPU_SET_IFM_PAD_LEFT, LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT,
                 LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1})) {
      const std::uint32_t k = LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE;
#define LOUPE_KERNEL_FIELD(name)                             \
  field(k, LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE__##name##_LSB, \
        LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE__##name##_WIDTH)
      const std::int64_t strideX =
          (LOUPE_KERNEL_FIELD(stride_x_msb) << 1 | LOUPE_KERNEL_FIELD(stride_x_lsb)) + 1;
      const std::int64_t strideY =
          (LOUPE_KERNEL_FIELD(stride_y_msb) << 1 | LOUPE_KERNEL_FIELD(stride_y_lsb)) + 1;
      const std::int64_t dilationX = LOUPE_KERNEL_FIELD(dilation_x) + 1;
      const std::int64_t dilationY = LOUPE_KERNEL_FIELD(dilation_y) + 1;
#undef LOUPE_KERNEL_FIELD
      const auto pad = [&](std::uint32_t padCode, unsigned width) {
        return std::int64_t{field(padCode, 16, width)};
      };
      // The last IFM row and column read: the OFM's last, strided, plus the
      // dilated kernel, less the padding on both sides (the NPU has no IFM
      // size register: this is the size it works with).
      std::int64_t lastY = (ofmHeight() - 1) * strideY +
                           std::int64_t{param(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1)} * dilationY -
                           pad(LOUPE_ETHOSU_NPU_SET_IFM_PAD_TOP, 7) -
                           pad(LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, 8);
      std::int64_t lastX = (ofmWidth() - 1) * strideX +
                           std::int64_t{param(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1)} * dilationX -
                           pad(LOUPE_ETHOSU_NPU_SET_IFM_PAD_LEFT, 7) -
                           pad(LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT, 8);
      if (lastY < 0 || lastX < 0) {
        problem(PayloadRule::Geometry,
                where() + ": the OFM, kernel, stride and padding imply an IFM of " +
                    std::to_string(lastY + 1) + " x " + std::to_string(lastX + 1) + " elements");
      } else {
        // An upscaled IFM (nearest or zeros, x2) is read at half the coordinate.
        const std::uint32_t upscale = upscaleMode();
        if (upscale != LOUPE_ETHOSU_upscale_mode_NONE) {
          lastY /= 2;
          lastX /= 2;
          // Linux: the hardware defines upscaled reads under a kernel of
          // stride 1 only, not for REDUCE_SUM, nor MAX over inserted zeros.
          const std::uint32_t pooling =
              loupe_ethosu_field_get(w0, 0, LOUPE_ETHOSU_NPU_OP_POOL__pooling_mode_LSB,
                                     LOUPE_ETHOSU_NPU_OP_POOL__pooling_mode_WIDTH);
          if (strideX != 1 || strideY != 1) {
            problem(PayloadRule::Geometry, where() + ": an upscaled IFM under a kernel of stride " +
                                               std::to_string(strideY) + "x" +
                                               std::to_string(strideX) + ", not 1x1");
          } else if (code == LOUPE_ETHOSU_NPU_OP_POOL &&
                     (pooling == LOUPE_ETHOSU_pooling_mode_REDUCE_SUM ||
                      (pooling == LOUPE_ETHOSU_pooling_mode_MAX &&
                       upscale == LOUPE_ETHOSU_upscale_mode_ZEROS))) {
            problem(PayloadRule::Geometry,
                    where() + ": an upscaled IFM under a pooling mode that does not take it");
          }
        }
        featureMap(kIfm, lastY + 1, lastX + 1,
                   std::int64_t{param(LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1)} + 1);
      }
    }
    if (code != LOUPE_ETHOSU_NPU_OP_POOL) {
      stream(PayloadAccessKind::Weights, 0, LOUPE_ETHOSU_NPU_SET_WEIGHT_REGION,
             LOUPE_ETHOSU_NPU_SET_WEIGHT_BASE, LOUPE_ETHOSU_NPU_SET_WEIGHT_LENGTH, false);
      stream(PayloadAccessKind::Weights, 1, LOUPE_ETHOSU_NPU_SET_WEIGHT_REGION,
             LOUPE_ETHOSU_NPU_SET_WEIGHT1_BASE, LOUPE_ETHOSU_NPU_SET_WEIGHT1_LENGTH, true);
    }
    scales(code == LOUPE_ETHOSU_NPU_OP_POOL);
    featureMap(kOfm, ofmHeight(), ofmWidth(), ofmDepth());
  }

  // NPU_OP_ELEMENTWISE: the IFM has the OFM's shape; IFM2 too, but for the
  // axes it broadcasts, and not at all for a scalar or a unary operation.
  void elementwise(std::uint32_t w0) {
    begin(LOUPE_ETHOSU_NPU_OP_ELEMENTWISE);
    if (!require({LOUPE_ETHOSU_NPU_SET_OFM_PRECISION, LOUPE_ETHOSU_NPU_SET_OFM_WIDTH_M1,
                  LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT_M1, LOUPE_ETHOSU_NPU_SET_OFM_DEPTH_M1})) {
      return;
    }
    const std::uint32_t mode =
        loupe_ethosu_field_get(w0, 0, LOUPE_ETHOSU_NPU_OP_ELEMENTWISE__elementwise_mode_LSB,
                               LOUPE_ETHOSU_NPU_OP_ELEMENTWISE__elementwise_mode_WIDTH);
    if (upscaleMode() != LOUPE_ETHOSU_upscale_mode_NONE) {
      problem(PayloadRule::Geometry, where() +
                                         ": an upscaled IFM (element-wise operations have "
                                         "no kernel to read it)");
    }
    const bool unary = mode == LOUPE_ETHOSU_elementwise_mode_LRELU ||
                       mode == LOUPE_ETHOSU_elementwise_mode_ABS ||
                       mode == LOUPE_ETHOSU_elementwise_mode_CLZ;
    if (require({LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1})) {
      featureMap(kIfm, ofmHeight(), ofmWidth(), ofmDepth());
    }
    if (!unary && require({LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST})) {
      const std::uint32_t b = LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST;
#define LOUPE_BROADCAST_FIELD(name)                           \
  field(b, LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST__##name##_LSB, \
        LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST__##name##_WIDTH)
      if (LOUPE_BROADCAST_FIELD(broadcast_constant) == 0) {
        featureMap(kIfm2, LOUPE_BROADCAST_FIELD(broadcast_h) ? 1 : ofmHeight(),
                   LOUPE_BROADCAST_FIELD(broadcast_w) ? 1 : ofmWidth(),
                   LOUPE_BROADCAST_FIELD(broadcast_c) ? 1 : ofmDepth());
      }
#undef LOUPE_BROADCAST_FIELD
    }
    featureMap(kOfm, ofmHeight(), ofmWidth(), ofmDepth());
  }

  // NPU_OP_DMA_START: LEN bytes (a 2D or 3D copy: SIZE0/SIZE1 rows of LEN
  // plus SKIP0/SKIP1, bounded as Linux does) from SRC to DST, each in a
  // region or the SHRAM.
  void dma() {
    begin(LOUPE_ETHOSU_NPU_OP_DMA_START);
    if (!require({LOUPE_ETHOSU_NPU_SET_DMA0_SRC_REGION, LOUPE_ETHOSU_NPU_SET_DMA0_DST_REGION,
                  LOUPE_ETHOSU_NPU_SET_DMA0_SRC, LOUPE_ETHOSU_NPU_SET_DMA0_DST,
                  LOUPE_ETHOSU_NPU_SET_DMA0_LEN})) {
      return;
    }
    const std::uint64_t length = address(LOUPE_ETHOSU_NPU_SET_DMA0_LEN);
    const auto end = [&](std::uint32_t regionCode, std::uint32_t addressCode,
                         PayloadAccessKind kind) {
      const bool internal = field(regionCode, 24, 1) == LOUPE_ETHOSU_dma_region_mode_INTERNAL;
      const std::uint32_t mode = field(regionCode, 25, 2);
      std::uint64_t bytes = length;
      if (mode > 2) {
        problem(PayloadRule::Geometry,
                where() + ": " + std::string(payloadAccessKindName(kind)) + " stride mode 3");
        return;
      }
      if (mode >= 1 &&
          require({LOUPE_ETHOSU_NPU_SET_DMA0_SIZE0, LOUPE_ETHOSU_NPU_SET_DMA0_SKIP0})) {
        bytes = (bytes + address(LOUPE_ETHOSU_NPU_SET_DMA0_SKIP0)) *
                param(LOUPE_ETHOSU_NPU_SET_DMA0_SIZE0);
      }
      if (mode == 2 &&
          require({LOUPE_ETHOSU_NPU_SET_DMA0_SIZE1, LOUPE_ETHOSU_NPU_SET_DMA0_SKIP1})) {
        bytes = (bytes + address(LOUPE_ETHOSU_NPU_SET_DMA0_SKIP1)) *
                param(LOUPE_ETHOSU_NPU_SET_DMA0_SIZE1);
      }
      const std::uint64_t start = address(addressCode);
      // Vela: on the U55 both ends and the length on 16 bytes; on the U65
      // only an internal end (and the length when it is the destination).
      const std::string name(payloadAccessKindName(kind));
      if (npu_.product == 0 || internal) {
        aligned(start, 16, name + " address");
        if (npu_.product == 0 || kind == PayloadAccessKind::DmaDestination) {
          aligned(length, 16, "DMA length");
        }
      }
      access(kind, 0, internal ? -1 : static_cast<int>(field(regionCode, 16, 3)), start,
             start + bytes);
    };
    end(LOUPE_ETHOSU_NPU_SET_DMA0_SRC_REGION, LOUPE_ETHOSU_NPU_SET_DMA0_SRC,
        PayloadAccessKind::DmaSource);
    end(LOUPE_ETHOSU_NPU_SET_DMA0_DST_REGION, LOUPE_ETHOSU_NPU_SET_DMA0_DST,
        PayloadAccessKind::DmaDestination);
  }

  const std::uint8_t* words_;
  std::uint32_t count_;
  std::uint32_t payloadWord_;
  const loupe_ethosu_npu_config& npu_;
  const PayloadMemory& memory_;
  PayloadValidation& v_;
  std::array<Register, 1024> cmd0_{}, cmd1_{};
  std::uint32_t at_ = 0;
  std::uint32_t operationWord_ = 0;
  std::string operation_;
  std::string_view operationName_;
};

// The driver's comparison of OPTIMIZER_CONFIG with the NPU, and Loupe's
// stricter one: the CONFIG word exactly the configuration's.
void checkConfig(PayloadValidation& v, const loupe_ethosu_action& action,
                 const loupe_ethosu_npu_config& npu) {
  const std::uint32_t hw = loupe_ethosu_npu_config_word(&npu);
  const std::uint32_t hwId = loupe_ethosu_npu_id_word(&npu);
  const std::uint32_t cfg = action.config_word;
  const auto bits = [](std::uint32_t w, unsigned lsb, unsigned width) {
    return (w >> lsb) & ((1u << width) - 1u);
  };
  std::string why;
  if (bits(cfg, 28, 4) != bits(hw, 28, 4)) why += "product differs; ";
  if (bits(cfg, 0, 4) != bits(hw, 0, 4)) why += "MACs per cycle differ; ";
  if (bits(cfg, 4, 4) != bits(hw, 4, 4)) why += "command stream version differs; ";
  if (bits(cfg, 27, 1) != 0 && bits(hw, 27, 1) == 0) why += "needs custom DMA; ";
  if (why.empty() && cfg != hw) why += "SHRAM size or another field differs; ";
  if (bits(action.id_word, 28, 4) != bits(hwId, 28, 4) ||
      bits(action.id_word, 20, 8) > bits(hwId, 20, 8)) {
    why += "architecture " + std::to_string(bits(action.id_word, 28, 4)) + "." +
           std::to_string(bits(action.id_word, 20, 8)) + " is not one the NPU's " +
           std::to_string(bits(hwId, 28, 4)) + "." + std::to_string(bits(hwId, 20, 8)) + " runs; ";
  }
  if (!why.empty()) {
    why.resize(why.size() - 2);
    report(v, PayloadRule::Config, action.word_offset,
           "CONFIG " + hex(cfg) + " ID " + hex(action.id_word) + ", the NPU's CONFIG " + hex(hw) +
               " ID " + hex(hwId) + ": " + why);
  }
}

}  // namespace

PayloadValidation validatePayload(std::span<const std::uint8_t> payload,
                                  const loupe_ethosu_npu_config& npu, const PayloadMemory& memory) {
  PayloadValidation v;
  for (std::size_t r = 0; r < memory.baseAddresses.size(); ++r) {
    if (memory.baseAddresses[r] % 16 != 0) {
      report(v, PayloadRule::BaseAddressAlignment, 0,
             "base address " + std::to_string(r) + " " + hex(memory.baseAddresses[r]) +
                 " is not on 16 bytes");
    }
  }
  loupe_ethosu_payload_cursor cursor;
  loupe_ethosu_error error{};
  const int begun = loupe_ethosu_payload_begin(&cursor, payload.data(), payload.size(), &error);
  if (begun != LOUPE_ETHOSU_OK) {
    report(v, begun == LOUPE_ETHOSU_ERR_FOURCC ? PayloadRule::Fourcc : PayloadRule::PayloadSize, 0,
           error.message);
    return v;
  }
  int configs = 0, streams = 0;
  loupe_ethosu_action action;
  int status;
  while ((status = loupe_ethosu_payload_next(&cursor, &action, &error)) == 1) {
    switch (action.kind) {
      case LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG:
        ++configs;
        checkConfig(v, action, npu);
        break;
      case LOUPE_ETHOSU_DA_COMMAND_STREAM: {
        const std::uint32_t first = action.word_offset + 1;
        if (streams++ == 0) {
          v.streamWordOffset = first;
          v.streamWords = action.command_stream_words;
        }
        if ((first * 4u) % 16u != 0) {
          report(v, PayloadRule::StreamAlignment, action.word_offset,
                 "the command stream starts at payload byte " + std::to_string(first * 4u) +
                     ", not on 16 bytes");
        }
        if (memory.payloadAddress && (*memory.payloadAddress + first * 4u) % 16u != 0) {
          report(v, PayloadRule::StreamAlignment, action.word_offset,
                 "the command stream lies at " + hex(*memory.payloadAddress + first * 4u) +
                     ", not on 16 bytes");
        }
        StreamChecker(action.command_stream, action.command_stream_words, first, npu, memory, v)
            .run();
        break;
      }
      case LOUPE_ETHOSU_DA_NOP:
        break;
      default:
        // RESERVED (0): the driver's switch has no case for it.
        report(v, PayloadRule::DriverAction, action.word_offset,
               "driver action " + std::to_string(action.kind) +
                   " (RESERVED), which the driver refuses");
        break;
    }
  }
  if (status < 0) {
    report(v,
           status == LOUPE_ETHOSU_ERR_ACTION_TRUNCATED ? PayloadRule::ActionTruncated
                                                       : PayloadRule::DriverAction,
           cursor.next, error.message);
  }
  if (configs == 0) {
    report(v, PayloadRule::Config, 0,
           "no OPTIMIZER_CONFIG: nothing tells the driver which NPU the stream is for");
  }
  if (streams == 0 && status >= 0) {
    report(v, PayloadRule::CommandStreamCount, 0, "no COMMAND_STREAM action");
  }
  return v;
}

}  // namespace loupe::ethosu
