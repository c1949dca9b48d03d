#include "targets/npu/command_stream.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

namespace loupe::npu {

namespace {

class Writer {
 public:
  void u8(std::int64_t value, const char* field) { put(value, 1, 0, 0xFF, field); }
  void u16(std::int64_t value, const char* field) { put(value, 2, 0, 0xFFFF, field); }
  void u32(std::int64_t value, const char* field) { put(value, 4, 0, 0xFFFFFFFFll, field); }
  void i8(std::int64_t value, const char* field) { put(value, 1, -128, 127, field); }
  void i16(std::int64_t value, const char* field) { put(value, 2, -32768, 32767, field); }
  void i32(std::int64_t value, const char* field) {
    put(value, 4, std::numeric_limits<std::int32_t>::min(),
        std::numeric_limits<std::int32_t>::max(), field);
  }

  // Starts a command; its payload length is filled in by end().
  void begin(std::uint8_t opcode) {
    start_ = bytes.size();
    bytes.insert(bytes.end(), {opcode, 0, 0, 0});
    ++commands;
  }
  void end() {
    const std::size_t payload = bytes.size() - start_ - LOUPE_NPU_COMMAND_HEADER_BYTES;
    bytes[start_ + 2] = static_cast<std::uint8_t>(payload & 0xFF);
    bytes[start_ + 3] = static_cast<std::uint8_t>(payload >> 8);
  }

  std::vector<std::uint8_t> bytes;
  std::uint32_t commands = 0;

 private:
  void put(std::int64_t value, int size, std::int64_t min, std::int64_t max, const char* field) {
    if (value < min || value > max) {
      throw CommandStreamError(std::string("command stream: ") + field + " = " +
                               std::to_string(value) + " does not fit its field [" +
                               std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    const auto u = static_cast<std::uint64_t>(value);
    for (int i = 0; i < size; ++i) bytes.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
  }
  std::size_t start_ = 0;
};

void writeFeatureMap(Writer& w, std::uint8_t opcode, const NpuFeatureMap& f) {
  w.begin(opcode);
  w.u8(f.region, "region");
  w.u16(f.height, "height");
  w.u16(f.width, "width");
  w.u16(f.depth, "depth");
  w.u32(f.offset, "offset");
  w.u32(f.strideY, "stride_y");
  w.u32(f.strideX, "stride_x");
  w.u32(f.strideC, "stride_c");
  w.i32(f.zeroPoint, "zero_point");
  w.i32(f.multiplier, "multiplier");
  w.i8(f.shift, "shift");
  w.end();
}

void writeStreamRef(Writer& w, std::uint8_t opcode, const NpuStreamRef& s) {
  w.begin(opcode);
  w.u8(s.region, "region");
  w.u32(s.offset, "offset");
  w.u32(s.length, "length");
  w.end();
}

void writeOperation(Writer& w, const NpuOperation& op) {
  w.begin(LOUPE_NPU_CMD_SET_BLOCK_CONFIG);
  w.u16(op.block.height, "block height");
  w.u16(op.block.width, "block width");
  w.u16(op.block.depth, "block depth");
  w.end();
  writeFeatureMap(w, LOUPE_NPU_CMD_SET_IFM, op.ifm);
  if (usesIfm2(op.kind)) writeFeatureMap(w, LOUPE_NPU_CMD_SET_IFM2, op.ifm2);
  writeFeatureMap(w, LOUPE_NPU_CMD_SET_OFM, op.ofm);
  if (usesKernel(op.kind)) {
    const NpuKernel& k = op.kernel;
    w.begin(LOUPE_NPU_CMD_SET_KERNEL);
    w.u8(k.height, "kernel height");
    w.u8(k.width, "kernel width");
    w.u8(k.strideY, "stride_y");
    w.u8(k.strideX, "stride_x");
    w.u8(k.dilationY, "dilation_y");
    w.u8(k.dilationX, "dilation_x");
    w.u8(k.padTop, "pad_top");
    w.u8(k.padLeft, "pad_left");
    w.u8(k.padBottom, "pad_bottom");
    w.u8(k.padRight, "pad_right");
    w.end();
  }
  if (usesWeights(op.kind)) {
    writeStreamRef(w, LOUPE_NPU_CMD_SET_WEIGHTS, op.weights);
    writeStreamRef(w, LOUPE_NPU_CMD_SET_SCALES, op.scales);
  }
  w.begin(LOUPE_NPU_CMD_SET_ACTIVATION);
  w.i16(op.activationMin, "activation_min");
  w.i16(op.activationMax, "activation_max");
  w.end();
  w.begin(LOUPE_NPU_CMD_SET_ROUNDING);
  w.u8(op.rounding, "rounding");
  w.end();
  switch (op.kind) {
    case NpuOperationKind::Conv2D:
      w.begin(LOUPE_NPU_CMD_OP_CONV2D);
      break;
    case NpuOperationKind::DepthwiseConv2D:
      w.begin(LOUPE_NPU_CMD_OP_DEPTHWISE);
      break;
    case NpuOperationKind::MaxPool:
    case NpuOperationKind::AveragePool:
      w.begin(LOUPE_NPU_CMD_OP_POOL);
      w.u8(op.kind == NpuOperationKind::MaxPool ? LOUPE_NPU_POOL_MAX : LOUPE_NPU_POOL_AVERAGE,
           "pool kind");
      break;
    case NpuOperationKind::Add:
    case NpuOperationKind::Sub:
    case NpuOperationKind::Mul:
      w.begin(LOUPE_NPU_CMD_OP_ELEMENTWISE);
      w.u8(op.kind == NpuOperationKind::Add   ? LOUPE_NPU_ELEMENTWISE_ADD
           : op.kind == NpuOperationKind::Sub ? LOUPE_NPU_ELEMENTWISE_SUB
                                              : LOUPE_NPU_ELEMENTWISE_MUL,
           "element-wise kind");
      w.u8(op.elementwiseLeftShift, "element-wise left shift");
      break;
  }
  w.end();
}

// --- reading -------------------------------------------------------------

class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, std::size_t at) : bytes_(bytes), at_(at) {}
  std::uint32_t u(int size) {
    std::uint32_t value = 0;
    for (int i = 0; i < size; ++i) value |= static_cast<std::uint32_t>(bytes_[at_++]) << (8 * i);
    return value;
  }
  int u8() { return static_cast<int>(u(1)); }
  int u16() { return static_cast<int>(u(2)); }
  std::uint32_t u32() { return u(4); }
  int i8() { return static_cast<std::int8_t>(u(1)); }
  int i16() { return static_cast<std::int16_t>(u(2)); }
  std::int32_t i32() { return static_cast<std::int32_t>(u(4)); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_;
};

NpuFeatureMap readFeatureMap(Reader& r) {
  NpuFeatureMap f;
  f.region = r.u8();
  f.height = r.u16();
  f.width = r.u16();
  f.depth = r.u16();
  f.offset = r.u32();
  f.strideY = r.u32();
  f.strideX = r.u32();
  f.strideC = r.u32();
  f.zeroPoint = r.i32();
  f.multiplier = r.i32();
  f.shift = r.i8();
  return f;
}

NpuStreamRef readStreamRef(Reader& r) {
  NpuStreamRef s;
  s.region = r.u8();
  s.offset = r.u32();
  s.length = r.u32();
  return s;
}

struct CommandInfo {
  const char* name;
  std::size_t payload;
};

std::optional<CommandInfo> commandInfo(std::uint8_t opcode) {
  switch (opcode) {
    case LOUPE_NPU_CMD_SET_BLOCK_CONFIG:
      return CommandInfo{"SET_BLOCK_CONFIG", LOUPE_NPU_BLOCK_CONFIG_PAYLOAD};
    case LOUPE_NPU_CMD_SET_IFM:
      return CommandInfo{"SET_IFM", LOUPE_NPU_TENSOR_PAYLOAD};
    case LOUPE_NPU_CMD_SET_IFM2:
      return CommandInfo{"SET_IFM2", LOUPE_NPU_TENSOR_PAYLOAD};
    case LOUPE_NPU_CMD_SET_OFM:
      return CommandInfo{"SET_OFM", LOUPE_NPU_TENSOR_PAYLOAD};
    case LOUPE_NPU_CMD_SET_KERNEL:
      return CommandInfo{"SET_KERNEL", LOUPE_NPU_KERNEL_PAYLOAD};
    case LOUPE_NPU_CMD_SET_WEIGHTS:
      return CommandInfo{"SET_WEIGHTS", LOUPE_NPU_STREAM_REF_PAYLOAD};
    case LOUPE_NPU_CMD_SET_SCALES:
      return CommandInfo{"SET_SCALES", LOUPE_NPU_STREAM_REF_PAYLOAD};
    case LOUPE_NPU_CMD_SET_ACTIVATION:
      return CommandInfo{"SET_ACTIVATION", LOUPE_NPU_ACTIVATION_PAYLOAD};
    case LOUPE_NPU_CMD_SET_ROUNDING:
      return CommandInfo{"SET_ROUNDING", LOUPE_NPU_ROUNDING_PAYLOAD};
    case LOUPE_NPU_CMD_OP_CONV2D:
      return CommandInfo{"OP_CONV2D", 0};
    case LOUPE_NPU_CMD_OP_DEPTHWISE:
      return CommandInfo{"OP_DEPTHWISE", 0};
    case LOUPE_NPU_CMD_OP_POOL:
      return CommandInfo{"OP_POOL", LOUPE_NPU_POOL_PAYLOAD};
    case LOUPE_NPU_CMD_OP_ELEMENTWISE:
      return CommandInfo{"OP_ELEMENTWISE", LOUPE_NPU_ELEMENTWISE_PAYLOAD};
    default:
      return std::nullopt;
  }
}

[[noreturn]] void fail(std::size_t offset, const std::string& what) {
  throw CommandStreamError("command stream, byte " + std::to_string(offset) + ": " + what);
}

// Calls visit(offset, opcode, info, reader) for every command after checking
// the header and each command's framing.
template <typename Visit>
void forEachCommand(std::span<const std::uint8_t> stream, Visit visit) {
  if (stream.size() < LOUPE_NPU_STREAM_HEADER_BYTES || stream[0] != LOUPE_NPU_STREAM_MAGIC0 ||
      stream[1] != LOUPE_NPU_STREAM_MAGIC1 || stream[2] != LOUPE_NPU_STREAM_MAGIC2 ||
      stream[3] != LOUPE_NPU_STREAM_MAGIC3) {
    fail(0, "no \"LNPU\" header");
  }
  Reader header(stream, 4);
  const int version = header.u16();
  const int regionCount = header.u16();
  if (version == LOUPE_NPU_STREAM_VERSION) {
    if (regionCount == 0 || regionCount > LOUPE_NPU_MAX_REGIONS) {
      fail(6, "region count " + std::to_string(regionCount) + ", expected 1.." +
                  std::to_string(LOUPE_NPU_MAX_REGIONS));
    }
  } else if (version == LOUPE_NPU_STREAM_VERSION_1) {
    if (regionCount != 0) fail(6, "version 1 with a region count");
  } else {
    fail(4, "version " + std::to_string(version) + ", expected " +
                std::to_string(LOUPE_NPU_STREAM_VERSION_1) + " or " +
                std::to_string(LOUPE_NPU_STREAM_VERSION));
  }
  const int regions = version == LOUPE_NPU_STREAM_VERSION_1 ? LOUPE_NPU_REGION_COUNT : regionCount;
  const std::uint32_t count = header.u32();
  std::size_t at = LOUPE_NPU_STREAM_HEADER_BYTES;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (stream.size() - at < LOUPE_NPU_COMMAND_HEADER_BYTES) fail(at, "truncated command");
    const std::uint8_t opcode = stream[at];
    const auto info = commandInfo(opcode);
    if (!info) fail(at, "unknown opcode " + std::to_string(opcode));
    const std::size_t payload = stream[at + 2] | (stream[at + 3] << 8);
    if (stream[at + 1] != 0 || payload != info->payload) {
      fail(at, std::string(info->name) + " with a " + std::to_string(payload) +
                   "-byte payload, expected " + std::to_string(info->payload));
    }
    if (stream.size() - at - LOUPE_NPU_COMMAND_HEADER_BYTES < payload) {
      fail(at, std::string(info->name) + " runs past the end of the stream");
    }
    // Feature maps and stream references start with their region, which
    // must be one the header counts (as the C decoder checks).
    const bool namesRegion = opcode == LOUPE_NPU_CMD_SET_IFM || opcode == LOUPE_NPU_CMD_SET_IFM2 ||
                             opcode == LOUPE_NPU_CMD_SET_OFM ||
                             opcode == LOUPE_NPU_CMD_SET_WEIGHTS ||
                             opcode == LOUPE_NPU_CMD_SET_SCALES;
    if (namesRegion && stream[at + LOUPE_NPU_COMMAND_HEADER_BYTES] >= regions) {
      fail(at, std::string(info->name) + " names region " +
                   std::to_string(stream[at + LOUPE_NPU_COMMAND_HEADER_BYTES]) + " of " +
                   std::to_string(regions));
    }
    Reader reader(stream, at + LOUPE_NPU_COMMAND_HEADER_BYTES);
    visit(at, opcode, *info, reader);
    at += LOUPE_NPU_COMMAND_HEADER_BYTES + payload;
  }
  if (at != stream.size()) {
    fail(at, std::to_string(stream.size() - at) + " bytes after the last of " +
                 std::to_string(count) + " commands");
  }
}

// The register file; an OP_* command copies the registers its kind reads.
struct Registers {
  BlockConfig block;
  NpuFeatureMap ifm, ifm2, ofm;
  NpuKernel kernel;
  NpuStreamRef weights, scales;
  int activationMin = 0, activationMax = 0, rounding = 0;

  NpuOperation operation(NpuOperationKind kind, int leftShift) const {
    NpuOperation op;
    op.kind = kind;
    op.block = block;
    op.ifm = ifm;
    op.ofm = ofm;
    if (usesIfm2(kind)) op.ifm2 = ifm2;
    if (usesKernel(kind)) op.kernel = kernel;
    if (usesWeights(kind)) {
      op.weights = weights;
      op.scales = scales;
    }
    op.activationMin = activationMin;
    op.activationMax = activationMax;
    op.rounding = rounding;
    if (kind == NpuOperationKind::Add || kind == NpuOperationKind::Sub) {
      op.elementwiseLeftShift = leftShift;
    }
    return op;
  }
};

void apply(Registers& regs, std::uint8_t opcode, Reader& r, std::size_t at,
           std::vector<NpuOperation>& out) {
  switch (opcode) {
    case LOUPE_NPU_CMD_SET_BLOCK_CONFIG:
      regs.block.height = r.u16();
      regs.block.width = r.u16();
      regs.block.depth = r.u16();
      break;
    case LOUPE_NPU_CMD_SET_IFM:
      regs.ifm = readFeatureMap(r);
      break;
    case LOUPE_NPU_CMD_SET_IFM2:
      regs.ifm2 = readFeatureMap(r);
      break;
    case LOUPE_NPU_CMD_SET_OFM:
      regs.ofm = readFeatureMap(r);
      break;
    case LOUPE_NPU_CMD_SET_KERNEL: {
      NpuKernel& k = regs.kernel;
      k.height = r.u8();
      k.width = r.u8();
      k.strideY = r.u8();
      k.strideX = r.u8();
      k.dilationY = r.u8();
      k.dilationX = r.u8();
      k.padTop = r.u8();
      k.padLeft = r.u8();
      k.padBottom = r.u8();
      k.padRight = r.u8();
      break;
    }
    case LOUPE_NPU_CMD_SET_WEIGHTS:
      regs.weights = readStreamRef(r);
      break;
    case LOUPE_NPU_CMD_SET_SCALES:
      regs.scales = readStreamRef(r);
      break;
    case LOUPE_NPU_CMD_SET_ACTIVATION:
      regs.activationMin = r.i16();
      regs.activationMax = r.i16();
      break;
    case LOUPE_NPU_CMD_SET_ROUNDING:
      regs.rounding = r.u8();
      break;
    case LOUPE_NPU_CMD_OP_CONV2D:
      out.push_back(regs.operation(NpuOperationKind::Conv2D, 0));
      break;
    case LOUPE_NPU_CMD_OP_DEPTHWISE:
      out.push_back(regs.operation(NpuOperationKind::DepthwiseConv2D, 0));
      break;
    case LOUPE_NPU_CMD_OP_POOL: {
      const int pool = r.u8();
      if (pool != LOUPE_NPU_POOL_MAX && pool != LOUPE_NPU_POOL_AVERAGE) {
        fail(at, "unknown pool kind " + std::to_string(pool));
      }
      out.push_back(regs.operation(
          pool == LOUPE_NPU_POOL_MAX ? NpuOperationKind::MaxPool : NpuOperationKind::AveragePool,
          0));
      break;
    }
    case LOUPE_NPU_CMD_OP_ELEMENTWISE: {
      const int kind = r.u8();
      const int leftShift = r.u8();
      if (kind > LOUPE_NPU_ELEMENTWISE_MUL)
        fail(at, "unknown element-wise kind " + std::to_string(kind));
      out.push_back(regs.operation(kind == LOUPE_NPU_ELEMENTWISE_ADD   ? NpuOperationKind::Add
                                   : kind == LOUPE_NPU_ELEMENTWISE_SUB ? NpuOperationKind::Sub
                                                                       : NpuOperationKind::Mul,
                                   leftShift));
      break;
    }
    default:
      break;
  }
}

std::string describeFeatureMap(const NpuFeatureMap& f) {
  return "region=" + std::to_string(f.region) + " offset=" + std::to_string(f.offset) +
         " shape=" + std::to_string(f.height) + "x" + std::to_string(f.width) + "x" +
         std::to_string(f.depth) + " strides=" + std::to_string(f.strideY) + "," +
         std::to_string(f.strideX) + "," + std::to_string(f.strideC) +
         " zp=" + std::to_string(f.zeroPoint) + " scale=" + std::to_string(f.multiplier) + "*2^" +
         std::to_string(f.shift);
}

std::string describeStreamRef(const NpuStreamRef& s) {
  return "region=" + std::to_string(s.region) + " offset=" + std::to_string(s.offset) +
         " length=" + std::to_string(s.length);
}

}  // namespace

std::vector<std::uint8_t> encodeCommandStream(std::span<const NpuOperation> operations) {
  Writer body;
  // The header counts the regions the commands name (one past the highest),
  // so a caller binding fewer is refused before anything runs.
  int regions = 1;
  for (const NpuOperation& op : operations) {
    writeOperation(body, op);
    for (int region : {op.ifm.region, op.ofm.region, usesIfm2(op.kind) ? op.ifm2.region : 0,
                       usesWeights(op.kind) ? op.weights.region : 0,
                       usesWeights(op.kind) ? op.scales.region : 0}) {
      regions = std::max(regions, region + 1);
    }
  }
  if (regions > LOUPE_NPU_MAX_REGIONS) {
    throw CommandStreamError("the operations name " + std::to_string(regions) +
                             " base-address regions; a stream holds at most " +
                             std::to_string(LOUPE_NPU_MAX_REGIONS));
  }
  std::vector<std::uint8_t> stream = {LOUPE_NPU_STREAM_MAGIC0,
                                      LOUPE_NPU_STREAM_MAGIC1,
                                      LOUPE_NPU_STREAM_MAGIC2,
                                      LOUPE_NPU_STREAM_MAGIC3,
                                      LOUPE_NPU_STREAM_VERSION & 0xFF,
                                      LOUPE_NPU_STREAM_VERSION >> 8,
                                      static_cast<std::uint8_t>(regions & 0xFF),
                                      static_cast<std::uint8_t>(regions >> 8)};
  for (int i = 0; i < 4; ++i) stream.push_back(static_cast<std::uint8_t>(body.commands >> (8 * i)));
  stream.insert(stream.end(), body.bytes.begin(), body.bytes.end());
  return stream;
}

std::vector<NpuOperation> decodeCommandStream(std::span<const std::uint8_t> stream) {
  Registers regs;
  std::vector<NpuOperation> operations;
  forEachCommand(stream, [&](std::size_t at, std::uint8_t opcode, const CommandInfo&, Reader& r) {
    apply(regs, opcode, r, at, operations);
  });
  return operations;
}

std::string disassembleCommandStream(std::span<const std::uint8_t> stream) {
  Registers regs;
  std::vector<NpuOperation> operations;
  std::string text;
  std::uint32_t commands = 0;
  forEachCommand(
      stream, [&](std::size_t at, std::uint8_t opcode, const CommandInfo& info, Reader& r) {
        ++commands;
        apply(regs, opcode, r, at, operations);
        char offset[16];
        std::snprintf(offset, sizeof(offset), "%04zx  ", at);
        std::string line = std::string(offset) + info.name;
        switch (opcode) {
          case LOUPE_NPU_CMD_SET_BLOCK_CONFIG:
            line += "  ofm_block=" + std::to_string(regs.block.height) + "x" +
                    std::to_string(regs.block.width) + "x" + std::to_string(regs.block.depth);
            break;
          case LOUPE_NPU_CMD_SET_IFM:
            line += "  " + describeFeatureMap(regs.ifm);
            break;
          case LOUPE_NPU_CMD_SET_IFM2:
            line += "  " + describeFeatureMap(regs.ifm2);
            break;
          case LOUPE_NPU_CMD_SET_OFM:
            line += "  " + describeFeatureMap(regs.ofm);
            break;
          case LOUPE_NPU_CMD_SET_KERNEL: {
            const NpuKernel& k = regs.kernel;
            line += "  " + std::to_string(k.height) + "x" + std::to_string(k.width) +
                    " stride=" + std::to_string(k.strideY) + "," + std::to_string(k.strideX) +
                    " dilation=" + std::to_string(k.dilationY) + "," + std::to_string(k.dilationX) +
                    " pad(t,l,b,r)=" + std::to_string(k.padTop) + "," + std::to_string(k.padLeft) +
                    "," + std::to_string(k.padBottom) + "," + std::to_string(k.padRight);
            break;
          }
          case LOUPE_NPU_CMD_SET_WEIGHTS:
            line += "  " + describeStreamRef(regs.weights);
            break;
          case LOUPE_NPU_CMD_SET_SCALES:
            line += "  " + describeStreamRef(regs.scales);
            break;
          case LOUPE_NPU_CMD_SET_ACTIVATION:
            line += "  min=" + std::to_string(regs.activationMin) +
                    " max=" + std::to_string(regs.activationMax);
            break;
          case LOUPE_NPU_CMD_SET_ROUNDING:
            line += regs.rounding == LOUPE_NPU_ROUNDING_TFLITE
                        ? "  tflite"
                        : "  mode=" + std::to_string(regs.rounding);
            break;
          default:
            line += "  " + std::string(operationKindName(operations.back().kind));
            if (opcode == LOUPE_NPU_CMD_OP_ELEMENTWISE &&
                operations.back().kind != NpuOperationKind::Mul) {
              line += " left_shift=" + std::to_string(operations.back().elementwiseLeftShift);
            }
            break;
        }
        text += line + "\n";
      });
  const int version = stream[4] | (stream[5] << 8);
  const int regionCount =
      version == LOUPE_NPU_STREAM_VERSION_1 ? LOUPE_NPU_REGION_COUNT : stream[6] | (stream[7] << 8);
  return "LNPU v" + std::to_string(version) + ", " + std::to_string(regionCount) + " regions, " +
         std::to_string(commands) + " commands, " + std::to_string(operations.size()) +
         " operations\n" + text;
}

}  // namespace loupe::npu
