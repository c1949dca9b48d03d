// A board's memories in the memory plan: the ones that may hold workspace
// become pools, constant arrays go hottest first to the fastest memory with
// room, what does not fit is refused memory by memory, and the generated C
// names the section of everything placed outside the code and data memories.
#include <QtTest>

#include "codegen/model_compiler.h"
#include "frontend/tflite_importer.h"
#include "memory/constant_placement.h"
#include "memory/memory_plan.h"
#include "mlf/compiled_model_export.h"
#include "test_data.h"

using namespace loupe;
using memory::ConstantArray;
using memory::MemoryRegion;

namespace {

// An AN547-like board: code in ITCM, data in DTCM, and an SRAM that may hold both.
std::vector<MemoryRegion> board(std::int64_t itcm, std::int64_t dtcm, std::int64_t sram) {
  return {{"ITCM", itcm, false, true, false, true},
          {"DTCM", dtcm, true, false, true, false},
          {"SRAM", sram, true, true, false, false}};
}

}  // namespace

class BoardMemoriesTest : public QObject {
  Q_OBJECT

 private slots:
  void workspaceMemoriesBecomePoolsFastestFirst() {
    const auto pools = memory::regionPools(board(1000, 2000, 5000));
    QCOMPARE(pools.size(), std::size_t{2});
    QCOMPARE(pools[0].name, std::string("dtcm"));
    QCOMPARE(pools[0].size, std::int64_t{2000});
    QCOMPARE(pools[0].memory, std::string("DTCM"));
    QCOMPARE(pools[1].name, std::string("sram"));
    QCOMPARE(pools[1].memory, std::string("SRAM"));
    // A memory with nothing left for the model gives no pool.
    QCOMPARE(memory::regionPools(board(1000, 0, 5000)).size(), std::size_t{1});
  }

  void hottestConstantsGoToTheFastestMemory() {
    const std::vector<ConstantArray> arrays = {
        {"classifier", 3000, 1.0},  // read once per run
        {"filter", 100, 500.0},     // read once per output pixel
        {"bias", 500, 1.0}};
    // SRAM: 5,000 bytes, 1,900 of them taken by the workspace pools.
    const auto placement = memory::placeConstants(arrays, board(1000, 2000, 5000), {0, 0, 1900});
    QCOMPARE(placement.region, (std::vector<int>{2, 0, 0}));
    // Each array 16-byte aligned: 112 + 512 in ITCM, 3,000 in SRAM.
    QCOMPARE(placement.regionBytes, (std::vector<std::int64_t>{624, 0, 3008}));
  }

  void constantsThatFitNowhereAreRefusedPerMemory() {
    try {
      memory::placeConstants({{"weights", 4000, 1.0}}, board(1000, 2000, 5000), {0, 0, 2000});
      QFAIL("4,000 bytes of weights fitted 1,000 + 3,000 free bytes");
    } catch (const memory::MemoryPlanError& error) {
      const QString message = error.what();
      QVERIFY2(message.contains("4,000 bytes short"), error.what());
      QVERIFY2(message.contains("ITCM has 1,000 bytes for the model, 0 of constants placed, "
                                "1,000 free: it would need 3,000 bytes more"),
               error.what());
      QVERIFY2(
          message.contains("SRAM has 5,000 bytes for the model (2,000 taken by workspace), "
                           "0 of constants placed, 3,000 free: it would need 1,000 bytes more"),
          error.what());
      QVERIFY2(!message.contains("DTCM"), "DTCM holds no constants");
    }
  }

  // hello_world: its weights stay beside the code while ITCM has room; with
  // ITCM full they move to SRAM, whose section the C and metadata name.
  void generatedCodeNamesTheSectionsOfThePlan() {
    const ir::Graph model =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite");
    codegen::CompileOptions options;
    options.boardMemories = board(64 * 1024, 64 * 1024, 64 * 1024);
    const codegen::CompiledModel fits = codegen::compileToC(model, options);
    QCOMPARE(fits.memoryPlan.pools.size(), std::size_t{2});
    QCOMPARE(fits.memories.at(0).constantBytes > 0, true);
    QCOMPARE(fits.memories.at(2).constantBytes, std::int64_t{0});
    QCOMPARE(fits.memories.at(1).workspaceBytes, fits.workspaceBytes());
    for (const codegen::GeneratedFile& file : fits.sources) {
      QVERIFY2(!QString::fromStdString(file.text).contains(".loupe."), file.name.c_str());
    }

    options.boardMemories[0].capacity = 0;  // nothing left beside the code
    options.boardMemories[1].capacity = 0;  // nor in DTCM
    const codegen::CompiledModel moved = codegen::compileToC(model, options);
    QCOMPARE(moved.memories.at(0).constantBytes, std::int64_t{0});
    QVERIFY(moved.memories.at(2).constantBytes > 0);
    QCOMPARE(moved.memories.at(2).workspaceBytes, moved.workspaceBytes());
    QCOMPARE(moved.memoryPlan.pools.size(), std::size_t{1});
    QCOMPARE(codegen::poolSection(moved, 0), std::string(".loupe.workspace.SRAM"));
    std::string all;
    for (const codegen::GeneratedFile& file : moved.sources) all += file.text;
    QVERIFY(all.find("LOUPE_CONSTANT_SECTION(\".loupe.constants.SRAM\")") != std::string::npos);
    QVERIFY(all.find("_IN_SECTION(\".loupe.workspace.SRAM\")") != std::string::npos);
    const nlohmann::json plan = mlf::memoryPlanJson(moved);
    QCOMPARE(plan["pools"][0]["memory"].get<std::string>(), std::string("SRAM"));
    for (const auto& constant : plan["constants"]) {
      QCOMPARE(constant["memory"].get<std::string>(), std::string("SRAM"));
    }
    QCOMPARE(plan["memories"][2]["constant_bytes"].get<std::int64_t>(),
             moved.memories.at(2).constantBytes);
  }

  void aPoolInAMemoryTheBoardLacksIsRefused() {
    const ir::Graph model =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite");
    codegen::CompileOptions options;
    options.boardMemories = board(64 * 1024, 64 * 1024, 64 * 1024);
    options.memory.pools = memory::parsePoolSpec("psram:size=1M,memory=PSRAM");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, codegen::compileToC(model, options));
  }
};

QTEST_APPLESS_MAIN(BoardMemoriesTest)
#include "board_memories_test.moc"
