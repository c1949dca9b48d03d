// The checks the software that hands a payload to the NPU makes (Arm's core
// driver, Linux's accel/ethosu validator, Vela's alignment asserts:
// compiler_core/ethosu/payload_validator.h). Every shared model compiled for
// each of the five configurations: every Ethos-U operator's payload passes
// with the memory it is given (its flash, its scratch, its fast scratch).
// So do the Vela files. And each check fails when its rule is broken: a
// wrong CONFIG word, a misaligned or truncated stream, an OFM one byte past
// the scratch, weights past the flash, unknown commands, registers never
// written.
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <functional>

#include "analysis/ethosu_region_map.h"
#include "codegen/c_function_printer.h"
#include "codegen/model_compiler.h"
#include "ethosu/driver_payload.h"
#include "ethosu/npu_architecture.h"
#include "ethosu/payload_validator.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "loupe/ethosu/ethosu_registers.h"
#include "loupe/little_endian.h"
#include "passes/pass_manager.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;
using namespace loupe::ethosu;

namespace {

constexpr int kFlashRegion = 0, kScratchRegion = 1;

void putWord(std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t word) {
  for (int b = 0; b < 4; ++b) bytes[offset + b] = static_cast<std::uint8_t>(word >> (8 * b));
}

// An Ethos-U operator's payload with the memory the driver call gives it
// (ops/ethos_u.cpp): region 0 the flash, 1 the scratch arena, 2 the fast
// scratch (inside the arena at its offset, when it lies there).
struct OperatorPayload {
  std::vector<std::uint8_t> payload;
  PayloadMemory memory;
  int accelerator = 0;
  std::uint32_t npuOperations = 0;
};

OperatorPayload payloadOf(const ir::Graph& graph, const ir::Operator& op) {
  const auto& attrs = std::get<ir::EthosUAttrs>(op.attributes);
  OperatorPayload p;
  p.payload = graph.tensor(op.inputs[0]).data;
  const ir::Tensor* flash = graph.input(op, 1);
  p.memory.regionSizes = {flash != nullptr ? flash->data.size() : 0,
                          static_cast<std::uint64_t>(attrs.scratchBytes),
                          static_cast<std::uint64_t>(attrs.fastScratchBytes)};
  // The flash and the arena are allocations of their own; a fast scratch
  // inside the arena starts at its offset there.
  p.memory.baseAddresses = {
      0, 0, static_cast<std::uint64_t>(std::max<std::int64_t>(attrs.fastScratchOffset, 0))};
  p.accelerator = attrs.accelerator;
  p.npuOperations = attrs.npuOperations;
  return p;
}

std::vector<OperatorPayload> ethosuPayloads(const ir::Graph& graph) {
  std::vector<OperatorPayload> payloads;
  for (const ir::Operator& op : graph.operators) {
    if (op.type == ir::OpType::EthosU) payloads.push_back(payloadOf(graph, op));
  }
  return payloads;
}

// The model partitioned for "ethos-u -accelerator_config=<arch>
// [-system_config=<system>], c".
ir::Graph compiledFor(const std::filesystem::path& model, std::string_view arch,
                      std::string_view system = {}) {
  const target::TargetList targets = target::parseTargetString(
      "ethos-u -accelerator_config=" + std::string(arch) +
          (system.empty() ? "" : " -system_config=" + std::string(system)) + ", c",
      targets::builtinTargetRegistry());
  passes::StageTimeline timeline;
  passes::PassContext context;
  return passes::runPartitionPipeline(
      passes::runGraphPipeline(frontend::importTfliteFile(model.string()), timeline, context),
      targets, timeline, context);
}

loupe_ethosu_npu_config npuConfig(int accelerator) {
  loupe_ethosu_npu_config npu;
  loupe_ethosu_npu_config_init(&npu, accelerator);
  return npu;
}

PayloadValidation validate(const OperatorPayload& p) {
  return validatePayload(p.payload, npuConfig(p.accelerator), p.memory);
}

// A payload and its validation, kept for the tests that break it: kws_ref_model
// compiled for ethos-u55-128.
const OperatorPayload& kwsPayload() {
  static const OperatorPayload payload = [] {
    const auto payloads = ethosuPayloads(
        compiledFor(test::modelsDir() / "kws_ref_model" / "model.tflite", "ethos-u55-128"));
    if (payloads.empty()) throw std::runtime_error("kws_ref_model: no Ethos-U operator");
    return payloads.front();
  }();
  return payload;
}

std::vector<std::uint32_t> streamWords(const OperatorPayload& p) {
  const PayloadValidation v = validate(p);
  std::vector<std::uint32_t> words;
  for (std::uint32_t i = 0; i < v.streamWords; ++i) {
    words.push_back(loupe_le_u32(p.payload.data() + 4u * (v.streamWordOffset + i)));
  }
  return words;
}

// The word index of every command of `words` (a cmd1 takes two).
std::vector<std::size_t> commandStarts(const std::vector<std::uint32_t>& words) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < words.size(); ++i) {
    starts.push_back(i);
    if ((words[i] & LOUPE_ETHOSU_CMD1_FLAG) != 0) ++i;
  }
  return starts;
}

// "54 operations, bytes used/given: flash 36832/36832, scratch 22080/22080, fast 0/0".
std::string usage(const PayloadValidation& v, const OperatorPayload& p) {
  std::string text = std::to_string(v.operations) + " operations, bytes used/given:";
  const char* names[] = {"flash", "scratch", "fast scratch"};
  for (std::size_t r = 0; r < 3; ++r) {
    text += std::string(r == 0 ? " " : ", ") + names[r] + " " + std::to_string(v.regionExtent[r]) +
            "/" + std::to_string(p.memory.regionSizes[r]);
  }
  return text;
}

// `p` with its command stream replaced (a new payload around it).
OperatorPayload withStream(const OperatorPayload& p, const std::vector<std::uint32_t>& words) {
  OperatorPayload q = p;
  q.payload = driverPayload(npuConfig(p.accelerator), words);
  return q;
}

// `p` with every command of opcode `code` changed by `edit` (its two words).
OperatorPayload withEdited(const OperatorPayload& p, std::uint32_t code,
                           const std::function<void(std::uint32_t&, std::uint32_t&)>& edit,
                           bool firstOnly = true) {
  std::vector<std::uint32_t> words = streamWords(p);
  for (std::size_t i : commandStarts(words)) {
    if ((words[i] & 0xFFFFu) != code) continue;
    std::uint32_t none = 0;
    edit(words[i], (code & LOUPE_ETHOSU_CMD1_FLAG) != 0 ? words[i + 1] : none);
    if (firstOnly) break;
  }
  return withStream(p, words);
}

// The largest end of the accesses of `kind` to `region`, or 0.
std::uint64_t highestEnd(const PayloadValidation& v, PayloadAccessKind kind, int region) {
  std::uint64_t end = 0;
  for (const PayloadAccess& a : v.accesses) {
    if (a.kind == kind && a.region == region) end = std::max(end, a.end);
  }
  return end;
}

bool hasProblem(const PayloadValidation& v, PayloadRule rule, const QString& containing) {
  return std::any_of(v.problems.begin(), v.problems.end(), [&](const PayloadProblem& p) {
    return p.rule == rule && QString::fromStdString(p.message).contains(containing);
  });
}

}  // namespace

class EthosuPayloadValidatorTest : public QObject {
  Q_OBJECT

 private slots:
  // On both systems: NXP's buffers most weights, DMAs into the scratch.
  void everyLoupePayloadPassesOnEveryConfiguration_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("arch");
    QTest::addColumn<QString>("system");
    for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir())) {
      if (!std::filesystem::exists(entry.path() / "model.tflite")) continue;
      for (const NpuArchitecture& arch : npuArchitectures()) {
        for (const char* system : {"", "nxp-imx93"}) {
          const std::string model = entry.path().filename().string();
          QTest::newRow((model + " " + std::string(arch.name) + " " + system).c_str())
              << QString::fromStdString(model) << QString::fromStdString(std::string(arch.name))
              << system;
        }
      }
    }
  }

  void everyLoupePayloadPassesOnEveryConfiguration() {
    QFETCH(QString, model);
    QFETCH(QString, arch);
    QFETCH(QString, system);
    const ir::Graph graph = compiledFor(test::modelsDir() / model.toStdString() / "model.tflite",
                                        arch.toStdString(), system.toStdString());
    const std::vector<OperatorPayload> payloads = ethosuPayloads(graph);
    // Only the float model keeps everything on the CPU.
    if (model != "hello_world_float") QVERIFY(!payloads.empty());
    for (const OperatorPayload& p : payloads) {
      QCOMPARE(p.accelerator, findNpuArchitecture(arch.toStdString())->accelerator);
      const PayloadValidation v = validate(p);
      QVERIFY2(v.ok(), v.text().c_str());
      QCOMPARE(v.operations, p.npuOperations);
      QVERIFY(v.regionExtent[1] > 0);
      qInfo("%s", usage(v, p).c_str());
    }
  }

  void everyVelaPayloadPasses_data() {
    QTest::addColumn<QString>("file");
    for (const auto& f : test::ethosu::velaFiles()) {
      QTest::newRow(f.name.c_str()) << QString::fromStdString(f.path.string());
    }
  }

  void everyVelaPayloadPasses() {
    QFETCH(QString, file);
    const ir::Graph graph = frontend::importTfliteFile(file.toStdString());
    const std::vector<OperatorPayload> payloads = ethosuPayloads(graph);
    QVERIFY(!payloads.empty());
    for (const OperatorPayload& p : payloads) {
      const PayloadValidation v = validate(p);
      QVERIFY2(v.ok(), v.text().c_str());
      QCOMPARE(v.operations, p.npuOperations);
      qInfo("%s", usage(v, p).c_str());
    }
  }

  // Two independent readings of the same words: the least memory each
  // region needs by these checks is the highest byte the region map (built
  // on the functional model's decoder) finds used.
  void extentsAgreeWithTheRegionMap_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("arch");  // empty: a Vela file
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized", "hello_world_int8"}) {
      for (const char* arch : {"ethos-u55-32", "ethos-u65-256"}) {
        QTest::newRow((std::string(model) + " " + arch).c_str())
            << QString::fromStdString((test::modelsDir() / model / "model.tflite").string())
            << QString(arch);
      }
    }
    for (const auto& f : test::ethosu::velaFiles()) {
      QTest::newRow(f.name.c_str()) << QString::fromStdString(f.path.string()) << QString();
    }
  }

  void extentsAgreeWithTheRegionMap() {
    QFETCH(QString, file);
    QFETCH(QString, arch);
    const ir::Graph graph = arch.isEmpty() ? frontend::importTfliteFile(file.toStdString())
                                           : compiledFor(file.toStdString(), arch.toStdString());
    int operators = 0;
    for (const ir::Operator& op : graph.operators) {
      if (op.type != ir::OpType::EthosU) continue;
      ++operators;
      const PayloadValidation v = validate(payloadOf(graph, op));
      const analysis::EthosURegionMap map = analysis::ethosuRegionMapOf(graph, op);
      QVERIFY2(map.problems.empty(), analysis::ethosuRegionMapText(map).c_str());
      for (const analysis::EthosURegionInfo& info : map.regions) {
        if (info.region < 0 || info.region >= 8) continue;
        QVERIFY2(v.regionExtent[static_cast<std::size_t>(info.region)] == info.highest,
                 (info.name + ": " +
                  std::to_string(v.regionExtent[static_cast<std::size_t>(info.region)]) +
                  " here, " + std::to_string(info.highest) + " in the region map")
                     .c_str());
      }
    }
    QVERIFY(operators > 0);
  }

  // What the C code hands Arm's driver: the payload (its stream 32 bytes
  // in), the flash and the arena, each on 16 bytes (ethosu_driver.c refuses
  // a stream or base address off 16 bytes; arm-none-eabi-gcc places a
  // uint8_t array on any byte).
  void theGeneratedCPutsPayloadFlashAndArenaOnSixteenBytes() {
    const ir::Graph graph =
        compiledFor(test::modelsDir() / "kws_ref_model" / "model.tflite", "ethos-u55-128");
    const codegen::CompiledModel model = codegen::compileToC(graph, {});
    int checked = 0;
    for (const tir::PrimFunc& func : model.functions) {
      const std::string c = codegen::printCSource(func);
      if (c.find("loupe_ethosu_run_operator(") == std::string::npos) continue;
      ++checked;
      QVERIFY2(c.find("#define LOUPE_ALIGNED(n) __attribute__((aligned(n)))") != std::string::npos,
               c.substr(0, 2000).c_str());
      for (const char* array : {" payload[", " flash["}) {
        const std::size_t at = c.find(array);
        QVERIFY2(at != std::string::npos, array);
        const std::string declaration = c.substr(at, c.find('=', at) - at);
        QVERIFY2(declaration.find("LOUPE_ALIGNED(16)") != std::string::npos, declaration.c_str());
      }
      // The arena: in the planned scratch at an offset of 16, or an array of its own.
      const std::size_t arena = c.find(" arena");
      QVERIFY(arena != std::string::npos);
      const std::string line = c.substr(arena, c.find(';', arena) - arena);
      const std::size_t plus = line.find(std::string(tir::kScratchParam) + " + ");
      if (plus != std::string::npos) {
        const long offset = std::stol(line.substr(plus + std::strlen(tir::kScratchParam) + 3));
        QVERIFY2(offset % 16 == 0, line.c_str());
      } else {
        QVERIFY2(line.find("LOUPE_ALIGNED(16)") != std::string::npos, line.c_str());
      }
    }
    QCOMPARE(checked, 1);
  }

  // --- Each check, broken on purpose -----------------------------------

  void aWrongConfigWordFails() {
    OperatorPayload p = kwsPayload();
    QVERIFY(validate(p).ok());
    // The CONFIG word of the u55-256 in a u55-128 payload: MACs differ.
    const loupe_ethosu_npu_config u55x256 = npuConfig(LOUPE_ETHOSU_U55_256);
    putWord(p.payload, 8, loupe_ethosu_npu_config_word(&u55x256));
    const PayloadValidation v = validate(p);
    QVERIFY2(hasProblem(v, PayloadRule::Config, "MACs per cycle differ"), v.text().c_str());
    // Only the SHRAM size differs: the driver lets it through, Loupe does not.
    p = kwsPayload();
    const loupe_ethosu_npu_config own = npuConfig(p.accelerator);
    putWord(p.payload, 8, loupe_ethosu_npu_config_word(&own) ^ 0x100u);
    QVERIFY(validate(p).has(PayloadRule::Config));
    // The right payload on another NPU.
    const PayloadValidation onU65 =
        validatePayload(kwsPayload().payload, npuConfig(LOUPE_ETHOSU_U65_256), kwsPayload().memory);
    QVERIFY2(hasProblem(onU65, PayloadRule::Config, "product differs"), onU65.text().c_str());
    // An architecture newer than the NPU's.
    p = kwsPayload();
    putWord(p.payload, 12, loupe_le_u32(p.payload.data() + 12) + (1u << 20));
    QVERIFY(hasProblem(validate(p), PayloadRule::Config, "architecture"));
  }

  void aMisalignedStreamFails() {
    const OperatorPayload& good = kwsPayload();
    QCOMPARE(validate(good).streamWordOffset % 4, 0u);
    // One NOP less: the stream starts 4 bytes before a 16-byte boundary.
    OperatorPayload p = good;
    const std::uint32_t offset = validate(good).streamWordOffset;
    QCOMPARE(loupe_le_u32(p.payload.data() + 4 * (offset - 2)) & 0xFFu,
             std::uint32_t{LOUPE_ETHOSU_DA_NOP});
    p.payload.erase(p.payload.begin() + 4 * (offset - 2), p.payload.begin() + 4 * (offset - 1));
    PayloadValidation v = validate(p);
    QVERIFY2(v.has(PayloadRule::StreamAlignment), v.text().c_str());
    QCOMPARE(v.problems.size(), std::size_t{1});
    // The payload itself where the stream cannot be on 16 bytes.
    p = good;
    p.memory.payloadAddress = 0x20000008;
    QVERIFY(validate(p).has(PayloadRule::StreamAlignment));
    // A base address off 16 bytes (the fast scratch 8 bytes into the arena).
    p = good;
    p.memory.baseAddresses[2] = 8;
    QVERIFY(validate(p).has(PayloadRule::BaseAddressAlignment));
  }

  void aTruncatedStreamFails() {
    const OperatorPayload& good = kwsPayload();
    // The header promises more words than the payload has.
    OperatorPayload p = good;
    p.payload.resize(p.payload.size() - 8);
    PayloadValidation v = validate(p);
    QVERIFY2(v.has(PayloadRule::ActionTruncated), v.text().c_str());
    // The stream without its last command (NPU_OP_STOP).
    std::vector<std::uint32_t> words = streamWords(good);
    QCOMPARE(words.back() & 0xFFFFu, std::uint32_t{LOUPE_ETHOSU_NPU_OP_STOP});
    words.pop_back();
    v = validate(withStream(good, words));
    QVERIFY2(v.has(PayloadRule::StopPlacement), v.text().c_str());
    // Cut in the middle of a cmd1: its payload word is missing.
    words = streamWords(good);
    std::size_t cut = 0;
    for (std::size_t i : commandStarts(words)) {
      if ((words[i] & LOUPE_ETHOSU_CMD1_FLAG) != 0) cut = i + 1;
    }
    words.resize(cut);
    v = validate(withStream(good, words));
    QVERIFY2(v.has(PayloadRule::Cmd1Truncated), v.text().c_str());
    // A command after NPU_OP_STOP, and an empty stream.
    words = streamWords(good);
    words.push_back(LOUPE_ETHOSU_NPU_OP_STOP);
    QVERIFY(validate(withStream(good, words)).has(PayloadRule::StopPlacement));
    QVERIFY(validate(withStream(good, {})).has(PayloadRule::StreamLength));
  }

  void anOfmOneBytePastTheScratchFails() {
    OperatorPayload p = kwsPayload();
    const std::uint64_t ofmEnd = highestEnd(validate(p), PayloadAccessKind::Ofm, kScratchRegion);
    QVERIFY(ofmEnd > 0 && ofmEnd <= p.memory.regionSizes[1]);
    p.memory.regionSizes[1] = ofmEnd - 1;
    const PayloadValidation v = validate(p);
    QVERIFY2(hasProblem(v, PayloadRule::RegionBounds, "ends 1 byte past its"), v.text().c_str());
    QVERIFY2(hasProblem(v, PayloadRule::RegionBounds, "OFM tile"), v.text().c_str());
  }

  void weightsPastTheFlashFail() {
    OperatorPayload p = kwsPayload();
    const PayloadValidation good = validate(p);
    const std::uint64_t weightsEnd = highestEnd(good, PayloadAccessKind::Weights, kFlashRegion);
    const std::uint64_t copiedEnd = highestEnd(good, PayloadAccessKind::DmaSource, kFlashRegion);
    QVERIFY(std::max(weightsEnd, copiedEnd) > 0);
    p.memory.regionSizes[0] = std::max(weightsEnd, copiedEnd) - 1;
    const PayloadValidation v = validate(p);
    QVERIFY2(hasProblem(v, PayloadRule::RegionBounds,
                        weightsEnd >= copiedEnd ? "weights stream" : "DMA source"),
             v.text().c_str());
    // No flash given at all.
    p.memory.regionSizes[0] = 0;
    QVERIFY(validate(p).has(PayloadRule::RegionBounds));
  }

  void aWeightStreamOffSixteenBytesFails() {
    const OperatorPayload p =
        withEdited(kwsPayload(), LOUPE_ETHOSU_NPU_SET_WEIGHT_BASE,
                   [](std::uint32_t&, std::uint32_t& address) { address += 4; });
    const PayloadValidation v = validate(p);
    QVERIFY2(hasProblem(v, PayloadRule::Alignment, "weights base"), v.text().c_str());
  }

  void theFramingFails() {
    OperatorPayload p = kwsPayload();
    p.payload[0] = 'X';
    QVERIFY(validate(p).has(PayloadRule::Fourcc));
    p = kwsPayload();
    p.payload.push_back(0);
    QVERIFY(validate(p).has(PayloadRule::PayloadSize));
    // A driver action the driver does not have (3, Vela's ReadAPB), and RESERVED.
    for (std::uint8_t action : {std::uint8_t{3}, std::uint8_t{0}}) {
      p = kwsPayload();
      const std::uint32_t nop = validate(p).streamWordOffset - 2;
      p.payload[4 * nop] = action;
      QVERIFY2(validate(p).has(PayloadRule::DriverAction), validate(p).text().c_str());
    }
    // No OPTIMIZER_CONFIG: the config action's tag and words become NOPs.
    p = kwsPayload();
    for (int w = 1; w <= 3; ++w) putWord(p.payload, 4 * w, LOUPE_ETHOSU_DA_NOP);
    QVERIFY(validate(p).has(PayloadRule::Config));
  }

  void malformedCommandsFail() {
    const OperatorPayload& good = kwsPayload();
    std::vector<std::uint32_t> words = streamWords(good);
    // An opcode the NPU does not have, reserved bits, an interrupt.
    for (std::uint32_t bad : {0x0155u, 0x0400u | LOUPE_ETHOSU_NPU_SET_IFM_REGION,
                              std::uint32_t{LOUPE_ETHOSU_NPU_OP_IRQ}}) {
      std::vector<std::uint32_t> w = words;
      w.insert(w.begin(), bad);
      const PayloadValidation v = validate(withStream(good, w));
      QVERIFY2(v.has(bad == LOUPE_ETHOSU_NPU_OP_IRQ ? PayloadRule::ForbiddenCommand
                                                    : PayloadRule::UnknownCommand),
               v.text().c_str());
    }
    // An operation before any register is written.
    words.insert(words.begin(), LOUPE_ETHOSU_NPU_OP_CONV);
    PayloadValidation v = validate(withStream(good, words));
    QVERIFY2(hasProblem(v, PayloadRule::RegisterUnset, "NPU_SET_OFM_PRECISION"), v.text().c_str());
    // A feature map format neither NHWC nor NHCWB16.
    v = validate(withEdited(good, LOUPE_ETHOSU_NPU_SET_OFM_PRECISION,
                            [](std::uint32_t& w0, std::uint32_t&) { w0 |= 2u << 22; }));
    QVERIFY2(v.has(PayloadRule::FeatureMapFormat), v.text().c_str());
    // Padding larger than the window: the IFM it implies is negative.
    v = validate(withEdited(
        good, LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM,
        [](std::uint32_t& w0, std::uint32_t&) { w0 = (w0 & 0xFFFFu) | (255u << 16); }, false));
    QVERIFY2(v.has(PayloadRule::Geometry), v.text().c_str());
    // An upscaled IFM under kws's first convolution, of stride 2: undefined.
    v = validate(
        withEdited(good, LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE, [](std::uint32_t& w0, std::uint32_t&) {
          w0 = (w0 & 0xFFFFu) | (std::uint32_t{LOUPE_ETHOSU_upscale_mode_NEAREST} << 16);
        }));
    QVERIFY2(hasProblem(v, PayloadRule::Geometry, "an upscaled IFM under a kernel of stride 2x2"),
             v.text().c_str());
  }
};

QTEST_APPLESS_MAIN(EthosuPayloadValidatorTest)
#include "payload_validator_test.moc"
