// Pools in the board's memories: every memory of board.json that may hold
// workspace becomes a pool, every constant array goes to a memory that may
// hold constants, and the generated linker script puts each where the plan
// says. A model of MobileNetV2's size (3.5 MB of int8 weights, 1.4 MB of
// activations at once) runs on the AN547, which keeps it in its SRAM and
// ISRAM beside the TCMs; a model too large for every memory is refused with
// the bytes each would need.
#include <QtTest>

#include <random>
#include <set>
#include <sstream>

#include "builtin_registries.h"
#include "deploy/deploy_error.h"
#include "deploy/firmware_build.h"
#include "deploy/process_runner.h"
#include "deploy/run_on_board.h"
#include "platforms/board_platform.h"
#include "tflite_model_writer.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

constexpr std::int32_t kAveragePool2D = 1;
constexpr std::int32_t kConv2D = 3;
constexpr std::int32_t kFullyConnected = 9;
constexpr std::int32_t kReshape = 22;

struct LargeModelShape {
  int side = 224;     // input side, 3 channels
  int channels = 28;  // of the 3x3 convolution at full resolution
  int pool = 8;       // average pool window and stride
  int classes = 160;  // fully connected outputs
};

std::vector<std::int8_t> randomInt8(std::size_t count, std::mt19937& random) {
  std::uniform_int_distribution<int> value(-127, 127);
  std::vector<std::int8_t> values(count);
  for (auto& v : values) v = static_cast<std::int8_t>(value(random));
  return values;
}

std::vector<std::int32_t> randomBias(std::size_t count, int range, std::mt19937& random) {
  std::uniform_int_distribution<int> value(-range, range);
  std::vector<std::int32_t> values(count);
  for (auto& v : values) v = value(random);
  return values;
}

// int8 input [1, side, side, 3] -> CONV_2D 3x3 SAME, per-channel weights ->
// [1, side, side, channels] -> AVERAGE_POOL_2D -> RESHAPE -> FULLY_CONNECTED
// -> [1, classes]: MobileNetV2's memory at 224x224 (weights 3.5 MB, its
// largest activations 1.2 MB + 0.4 MB) with a tenth of its arithmetic.
ir::Graph largeModel(const LargeModelShape& s) {
  std::mt19937 random(20261126);
  test::TfliteModelWriter w;
  tflite::SubGraphT& g = w.subgraph();
  using tflite::TensorType;
  const int pooled = s.side / s.pool;
  const int features = pooled * pooled * s.channels;
  const float inputScale = 1.0f / 128, convScale = 0.02f, fcWeightScale = 0.001f, outScale = 0.05f;

  const int input = w.tensor(g, "image", TensorType::INT8, {1, s.side, s.side, 3});
  w.quantize(g, input, {inputScale}, {0});
  std::vector<float> filterScales;
  std::vector<float> biasScales;
  for (int c = 0; c < s.channels; ++c) {
    filterScales.push_back(0.5f / 127 * (1.0f + 0.1f * static_cast<float>(c % 3)));
    biasScales.push_back(inputScale * filterScales.back());
  }
  const int filter =
      w.tensor(g, "conv/filter", TensorType::INT8, {s.channels, 3, 3, 3},
               test::bytesOf(randomInt8(static_cast<std::size_t>(s.channels) * 27, random)));
  w.quantize(g, filter, filterScales, std::vector<std::int64_t>(filterScales.size(), 0));
  const int convBias =
      w.tensor(g, "conv/bias", TensorType::INT32, {s.channels},
               test::bytesOf(randomBias(static_cast<std::size_t>(s.channels), 1000, random)));
  w.quantize(g, convBias, biasScales, std::vector<std::int64_t>(biasScales.size(), 0));
  const int conv = w.tensor(g, "conv", TensorType::INT8, {1, s.side, s.side, s.channels});
  w.quantize(g, conv, {convScale}, {0});
  const int pool = w.tensor(g, "pool", TensorType::INT8, {1, pooled, pooled, s.channels});
  w.quantize(g, pool, {convScale}, {0});
  const int flat = w.tensor(g, "flat", TensorType::INT8, {1, features});
  w.quantize(g, flat, {convScale}, {0});
  const int weights =
      w.tensor(g, "fc/weights", TensorType::INT8, {s.classes, features},
               test::bytesOf(randomInt8(static_cast<std::size_t>(s.classes) * features, random)));
  w.quantize(g, weights, {fcWeightScale}, {0});
  const int fcBias =
      w.tensor(g, "fc/bias", TensorType::INT32, {s.classes},
               test::bytesOf(randomBias(static_cast<std::size_t>(s.classes), 10000, random)));
  w.quantize(g, fcBias, {convScale * fcWeightScale}, {0});
  const int output = w.tensor(g, "scores", TensorType::INT8, {1, s.classes});
  w.quantize(g, output, {outScale}, {0});
  g.inputs = {input};
  g.outputs = {output};

  tflite::Conv2DOptionsT convOptions;
  convOptions.padding = tflite::Padding::SAME;
  convOptions.stride_h = convOptions.stride_w = 1;
  w.op(g, kConv2D, {input, filter, convBias}, {conv}, convOptions);
  tflite::Pool2DOptionsT poolOptions;
  poolOptions.padding = tflite::Padding::VALID;
  poolOptions.stride_h = poolOptions.stride_w = s.pool;
  poolOptions.filter_height = poolOptions.filter_width = s.pool;
  w.op(g, kAveragePool2D, {conv}, {pool}, poolOptions);
  tflite::ReshapeOptionsT reshapeOptions;
  reshapeOptions.new_shape = {1, features};
  w.op(g, kReshape, {pool}, {flat}, reshapeOptions);
  w.op(g, kFullyConnected, {flat, weights, fcBias}, {output}, tflite::FullyConnectedOptionsT{});
  return w.import();
}

std::vector<std::uint8_t> randomImage(const ir::Graph& model) {
  std::mt19937 random(7);
  std::vector<std::uint8_t> bytes(
      static_cast<std::size_t>(model.tensor(model.inputs[0]).byteSize()));
  for (auto& b : bytes) b = static_cast<std::uint8_t>(random() & 0xFF);
  return bytes;
}

const platforms::BoardPlatform& boardPlatform(const deploy::Platform& platform) {
  const auto* board = dynamic_cast<const platforms::BoardPlatform*>(&platform);
  if (!board) throw std::runtime_error(platform.name() + " is not a board");
  return *board;
}

std::uint64_t hex(const std::string& text) {
  return std::stoull(text, nullptr, 16);
}

// Where the linker put things: every symbol's address (nm) and every
// section's address and size (objdump -h).
struct LinkerMap {
  std::map<std::string, std::uint64_t> symbols;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> sections;  // address, size

  explicit LinkerMap(const fs::path& elf) {
    const auto nm = deploy::runProcess({"arm-none-eabi-nm", elf.string()}, elf.parent_path());
    if (nm.exitCode != 0) throw std::runtime_error(nm.output);
    std::istringstream symbolLines(nm.output);
    std::string address, type, name;
    for (std::string line; std::getline(symbolLines, line);) {
      std::istringstream fields(line);
      if (fields >> address >> type >> name) symbols[name] = hex(address);
    }
    const auto objdump =
        deploy::runProcess({"arm-none-eabi-objdump", "-h", elf.string()}, elf.parent_path());
    if (objdump.exitCode != 0) throw std::runtime_error(objdump.output);
    std::istringstream sectionLines(objdump.output);
    for (std::string line; std::getline(sectionLines, line);) {
      std::istringstream fields(line);
      std::string index, section, size, vma;
      if (fields >> index >> section >> size >> vma && std::isdigit(index[0]) != 0) {
        sections[section] = {hex(vma), hex(size)};
      }
    }
  }
};

bool inMemory(const deploy::BoardMemory& memory, std::uint64_t address, std::uint64_t bytes) {
  return address >= memory.origin && address + bytes <= memory.origin + memory.size;
}

// Checks that the firmware puts every pool and every memory's constants
// where the compiled model's plan says.
void verifyPlacement(const deploy::BoardDescription& board, const codegen::CompiledModel& model,
                     const fs::path& elf) {
  const LinkerMap map(elf);
  const deploy::BoardMemory& data = board.memoryHolding("data");
  const auto& pools = model.memoryPlan.pools;
  for (std::size_t p = 0; p < pools.size(); ++p) {
    const auto bytes = static_cast<std::uint64_t>(model.memoryPlan.result.poolBytes.at(p));
    if (bytes == 0) continue;
    const std::string symbol = "tvmgen_" + model.modelName + "_" + pools[p].name + "_storage";
    QVERIFY2(map.symbols.contains(symbol), symbol.c_str());
    const deploy::BoardMemory* memory =
        pools[p].memory.empty() ? &data : board.memoryNamed(pools[p].memory);
    QVERIFY2(memory, pools[p].memory.c_str());
    QVERIFY2(inMemory(*memory, map.symbols.at(symbol), bytes),
             qPrintable(QString("pool %1 (%2 bytes) at 0x%3 is not in %4")
                            .arg(QString::fromStdString(pools[p].name))
                            .arg(bytes)
                            .arg(map.symbols.at(symbol), 0, 16)
                            .arg(QString::fromStdString(memory->name))));
  }
  for (const codegen::MemoryUse& use : model.memories) {
    if (use.constantBytes == 0 || use.region.defaultCode) continue;
    const std::string section = memory::constantSection(use.region.name);
    QVERIFY2(map.sections.contains(section), section.c_str());
    const auto [address, size] = map.sections.at(section);
    QVERIFY2(inMemory(*board.memoryNamed(use.region.name), address, size), section.c_str());
    // The arrays the plan put there, each aligned to at most 16 bytes.
    std::uint64_t arrays = 0;
    for (const tir::PrimFunc& f : model.functions) {
      for (std::size_t c = 0; c < f.constantSections.size(); ++c) {
        if (f.constantSections[c] == section) arrays += f.constants[c]->data.size();
      }
    }
    QVERIFY2(size >= arrays && size <= static_cast<std::uint64_t>(use.constantBytes),
             qPrintable(QString("%1: %2 bytes, the plan's arrays %3 (%4 aligned)")
                            .arg(QString::fromStdString(section))
                            .arg(size)
                            .arg(arrays)
                            .arg(use.constantBytes)));
  }
}

// A small int8 FULLY_CONNECTED model every board holds.
ir::Graph smallModel() {
  LargeModelShape shape;
  shape.side = 8;
  shape.channels = 4;
  shape.pool = 4;
  shape.classes = 10;
  return largeModel(shape);
}

}  // namespace

class DeployBoardPools : public QObject {
  Q_OBJECT

  const deploy::Registries registries_ = plugins::builtinRegistries();

  deploy::BoardRunRequest request(const std::string& platform, ir::Graph model) const {
    deploy::BoardRunRequest r;
    r.platform = registries_.platforms.find(platform);
    r.inputs = {randomImage(model)};
    r.compile.model = std::move(model);
    r.compile.targets = target::parseTargetString("c", registries_.targets);
    r.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    return r;
  }

 private slots:
  // 3.5 MB of weights and 1.4 MB of activations on a board whose code and
  // data memories are 512 KB each: the activations go to SRAM, the large
  // weights to ISRAM, and the outputs are the reference interpreter's bytes.
  void mobilenetSizedModelRunsOnAn547() {
    const deploy::BoardRunResult run =
        deploy::runOnBoard(request("qemu-mps3-an547", largeModel({})));
    QCOMPARE(run.checks.size(), std::size_t{1});
    QVERIFY2(run.checks[0].bitExact, run.checks[0].message.c_str());
    std::set<std::uint8_t> distinct(run.outputs.at(0).begin(), run.outputs.at(0).end());
    QVERIFY2(distinct.size() > 20, "the scores are spread, not saturated");

    const codegen::CompiledModel& model = run.compilation.model;
    std::map<std::string, codegen::MemoryUse> use;
    for (const codegen::MemoryUse& u : model.memories) use[u.region.name] = u;
    QCOMPARE(use.size(), std::size_t{4});
    QVERIFY(use["SRAM"].workspaceBytes >= 224 * 224 * 28);      // the convolution's output
    QVERIFY(use["ISRAM"].constantBytes >= 160 * 28 * 28 * 28);  // the classifier's weights
    QVERIFY(use["ITCM"].constantBytes > 0);  // the hot convolution filter stays beside the code
    QVERIFY(use["DTCM"].workspaceBytes > 0);
    verifyPlacement(boardPlatform(*registries_.platforms.find("qemu-mps3-an547")).board(), model,
                    run.firmware);
    // Flash, measured from the link map: every constant array loaded where
    // the plan put it, the code in ITCM, nothing unaccounted for.
    QVERIFY(run.footprint);
    std::map<std::string, deploy::MemoryImage> image;
    for (const deploy::MemoryImage& m : run.footprint->memories) {
      std::uint64_t parts = 0;
      for (std::uint64_t bytes : m.bytesByPart) parts += bytes;
      QCOMPARE(parts, m.imageBytes);
      QVERIFY(m.imageBytes <= m.capacity);
      image[m.memory] = m;
    }
    auto part = [&](const char* memory, deploy::FirmwarePart p) {
      return image[memory].bytesByPart[static_cast<int>(p)];
    };
    QVERIFY(part("ISRAM", deploy::FirmwarePart::ModelConstants) >=
            static_cast<std::uint64_t>(use["ISRAM"].constantBytes));
    QVERIFY(part("ITCM", deploy::FirmwarePart::ModelConstants) >=
            static_cast<std::uint64_t>(use["ITCM"].constantBytes));
    QVERIFY(part("ITCM", deploy::FirmwarePart::ModelCode) > 0);
    QVERIFY(part("ITCM", deploy::FirmwarePart::Runtime) > 0);
    QVERIFY(part("ITCM", deploy::FirmwarePart::BoardSupport) > 0);
    QVERIFY(part("ITCM", deploy::FirmwarePart::CLibrary) > 0);
    // Beyond the constant arrays, the model's objects hold little read-only data.
    const std::uint64_t constants =
        static_cast<std::uint64_t>(use["ITCM"].constantBytes + use["ISRAM"].constantBytes);
    QVERIFY2(run.footprint->bytes(deploy::FirmwarePart::ModelConstants) <= constants + 4096,
             std::to_string(run.footprint->bytes(deploy::FirmwarePart::ModelConstants)).c_str());
    // Pools are NOLOAD: RAM, not image.
    QVERIFY(image["SRAM"].imageBytes == 0);
    QVERIFY(image["SRAM"].ramBytes >= static_cast<std::uint64_t>(use["SRAM"].workspaceBytes));
    for (const std::string& line : deploy::footprintLines(*run.footprint)) {
      qInfo("%s", line.c_str());
    }
    qInfo(
        "MobileNetV2-sized model on qemu-mps3-an547: %.0f %s; DTCM %lld + SRAM %lld bytes of "
        "workspace, ITCM %lld + ISRAM %lld bytes of constants",
        run.profile.total, run.profile.unit.c_str(),
        static_cast<long long>(use["DTCM"].workspaceBytes),
        static_cast<long long>(use["SRAM"].workspaceBytes),
        static_cast<long long>(use["ITCM"].constantBytes),
        static_cast<long long>(use["ISRAM"].constantBytes));
  }

  // Every board: the firmware's linker map has each pool and each memory's
  // constants where the plan put them. On the AN547 also with the TCMs
  // taken away (everything in SRAM) and with SRAM too small (ISRAM).
  void linkerPlacesPoolsWherePlanSays_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<QString>("without");
    for (const auto& platform : registries_.platforms.all()) {
      if (!dynamic_cast<const platforms::BoardPlatform*>(platform.get())) continue;
      QTest::newRow(platform->name().c_str()) << QString::fromStdString(platform->name()) << "";
    }
    QTest::newRow("qemu-mps3-an547 without TCMs") << "qemu-mps3-an547"
                                                  << "TCM";
    QTest::newRow("qemu-mps3-an547 without TCMs and SRAM") << "qemu-mps3-an547"
                                                           << "TCM SRAM";
  }
  void linkerPlacesPoolsWherePlanSays() {
    QFETCH(QString, platform);
    QFETCH(QString, without);
    const auto& board = boardPlatform(*registries_.platforms.find(platform.toStdString()));
    const ir::Graph model = smallModel();
    codegen::CompileOptions options;
    options.boardMemories = board.memoryRegions(model);
    for (memory::MemoryRegion& region : options.boardMemories) {
      if (without.contains("TCM") && region.name.ends_with("TCM")) {
        region.holdsWorkspace = region.holdsConstants = false;
      }
      if (without.contains("SRAM") && region.name == "SRAM") region.capacity = 0;
    }
    const codegen::CompiledModel compiled =
        driver::compileModel({model, target::parseTargetString("c", registries_.targets),
                              std::move(options), board.cpu()})
            .model;
    const std::string expected = without.isEmpty()          ? ""
                                 : without.contains("SRAM") ? "ISRAM"
                                                            : "SRAM";
    if (!expected.empty()) {
      for (const codegen::MemoryUse& use : compiled.memories) {
        const bool there = use.region.name == expected;
        QCOMPARE(use.workspaceBytes > 0, there);
        QCOMPARE(use.constantBytes > 0, there);
      }
    }
    const deploy::FirmwareBuild build =
        deploy::buildFirmware(board, compiled, {.cacheRoot = LOUPE_DEPLOY_TEST_CACHE});
    verifyPlacement(board.board(), compiled, build.firmware);
  }

  // Constants larger than every memory together: refused before anything is
  // built, with what each memory has and the bytes it would need.
  void tooManyConstantsAreRefusedPerMemory() {
    LargeModelShape shape;
    shape.classes = 400;  // 8.8 MB of classifier weights
    try {
      deploy::runOnBoard(request("qemu-mps3-an547", largeModel(shape)));
      QFAIL("a model with 8.8 MB of weights ran on a board with 7 MB");
    } catch (const deploy::DeployError& error) {
      QCOMPARE(error.kind(), deploy::DeployError::Kind::DoesNotFit);
      const QString message = error.what();
      QVERIFY2(message.startsWith("the model does not fit qemu-mps3-an547: the model's constants"),
               error.what());
      QVERIFY2(message.contains("8,780,800 bytes short"), error.what());  // the weights, whole
      for (const char* memory : {"ITCM has", "SRAM has", "ISRAM has"}) {
        QVERIFY2(message.contains(memory), error.what());
      }
      QVERIFY2(!message.contains("DTCM has"), "DTCM holds no constants on the AN547");
      QVERIFY2(message.contains("it would need"), error.what());
    }
  }

  // Activations larger than every pool: the plan's refusal names each pool
  // with its memory.
  void tooLargeWorkspaceIsRefusedPerPool() {
    LargeModelShape shape;
    shape.channels = 180;  // a 9 MB convolution output
    shape.classes = 4;
    try {
      deploy::runOnBoard(request("qemu-mps3-an547", largeModel(shape)));
      QFAIL("a 9 MB activation fitted 7 MB of memory");
    } catch (const deploy::DeployError& error) {
      QCOMPARE(error.kind(), deploy::DeployError::Kind::DoesNotFit);
      const QString message = error.what();
      for (const char* pool : {"dtcm (in DTCM,", "sram (in SRAM,", "isram (in ISRAM,"}) {
        QVERIFY2(message.contains(pool), error.what());
      }
      QVERIFY2(message.contains("bytes short of what the pools hold"), error.what());
    }
  }
};

QTEST_APPLESS_MAIN(DeployBoardPools)
#include "deploy_board_pools_test.moc"
