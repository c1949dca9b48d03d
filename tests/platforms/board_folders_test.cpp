// Boards added as folders (plugins/platforms/board_folders.h): a complete
// folder becomes a QEMU platform whose projects carry the folder's own board
// files; an incomplete or malformed one, or one that would replace a built-in
// board, is skipped with a message naming the folder and the reason.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "codegen/model_compiler.h"
#include "deploy/firmware_build.h"
#include "deploy/process_runner.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "platforms/board_folders.h"
#include "platforms/builtin_platforms.h"
#include "platforms/platform_files.h"
#include "platforms/qemu_platform.h"
#include "test_data.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The AN385's folder under `name`, with a linker script of its own.
void writeBoardFolder(const fs::path& folder, const std::string& name) {
  std::string json(platforms::platformFile("qemu_mps2_an385/board.json"));
  const std::string builtinName = "\"qemu_mps2_an385\"";
  json.replace(json.find(builtinName), builtinName.size(), "\"" + name + "\"");
  writeText(folder / "board.json", json);
  writeText(folder / "board.h", platforms::platformFile("qemu_mps2_an385/board.h"));
  writeText(
      folder / "linker.ld",
      "/* " + name + " */\n" + std::string(platforms::platformFile("qemu_mps2_an385/linker.ld")));
}

}  // namespace

class BoardFoldersTest : public QObject {
  Q_OBJECT

 private slots:
  void aFolderBecomesAQemuPlatformWithItsOwnBoardFiles() {
    QTemporaryDir dir;
    const fs::path boards = dir.path().toStdString();
    writeBoardFolder(boards / "my_an385", "my_an385");
    deploy::PlatformRegistry registry;
    QVERIFY(platforms::addBoardFolders(registry, boards).empty());
    const auto* board =
        dynamic_cast<const platforms::QemuPlatform*>(registry.find("my-an385").get());
    QVERIFY(board != nullptr);
    QCOMPARE(board->board().qemuMachine, std::string("mps2-an385"));

    passes::StageTimeline timeline;
    const auto model = codegen::compileToC(
        passes::runGraphPipeline(
            frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite"),
            timeline),
        {});
    bool linkerScript = false, startup = false;
    for (const auto& file : board->projectFiles(model)) {
      if (file.path == "platform/linker.ld") {
        QVERIFY(file.text.starts_with("/* my_an385 */\n"));
        linkerScript = true;
      }
      startup = startup || file.path == "platform/cortex_m_startup.c";
    }
    QVERIFY(linkerScript);
    QVERIFY(startup);  // the embedded start-up code, shared by every board
  }

  void twoModelsOnOneBoardShareEveryCompileFlagButTheProfilers() {
    // ccache finds an object again only under the same command line: what
    // differs from model to model (the profiler's table size) is on
    // profiler.o's line alone, so the runtime and platform objects of one
    // model are found again for the next on the same board.
    const auto registry = platforms::builtinPlatformRegistry();
    const auto& board = *registry.find("qemu-mps2-an385");
    const auto makefileOf = [&board](const char* name) {
      passes::StageTimeline timeline;
      const auto model = codegen::compileToC(
          passes::runGraphPipeline(
              frontend::importTfliteFile(test::modelsDir() / name / "model.tflite"), timeline),
          {});
      for (const auto& file : board.projectFiles(model)) {
        if (file.path == "Makefile") return file.text;
      }
      return std::string();
    };
    const auto lineStarting = [](const std::string& text, const std::string& start) {
      const auto at = text.find("\n" + start);
      if (at == std::string::npos) return std::string();
      return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
    };
    const std::string hello = makefileOf("hello_world_int8");
    const std::string kws = makefileOf("kws_ref_model");
    QVERIFY(!lineStarting(hello, "CFLAGS :=").empty());
    QCOMPARE(lineStarting(hello, "CFLAGS :="), lineStarting(kws, "CFLAGS :="));
    QVERIFY(lineStarting(hello, "CFLAGS :=").find("PROFILED") == std::string::npos);
    // hello_world's 3 operators, kws's 13.
    QCOMPARE(
        lineStarting(hello, "build/runtime/src/profiler.o:"),
        std::string("build/runtime/src/profiler.o: CFLAGS += -DTVM_CRT_MAX_PROFILED_OPERATORS=3"));
    QCOMPARE(
        lineStarting(kws, "build/runtime/src/profiler.o:"),
        std::string("build/runtime/src/profiler.o: CFLAGS += -DTVM_CRT_MAX_PROFILED_OPERATORS=13"));
  }

  void aChangedRuntimeHeaderRebuildsTheObjectsThatIncludeIt() {
    // A user who edits the generated project's runtime headers gets the
    // objects that include them rebuilt: the compile rule writes -MMD
    // dependency files and the Makefile includes them (ccache's depend mode
    // reads the same files).
    const auto registry = platforms::builtinPlatformRegistry();
    const auto& board = *registry.find("qemu-mps2-an385");
    passes::StageTimeline timeline;
    const auto model = codegen::compileToC(
        passes::runGraphPipeline(
            frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite"),
            timeline),
        {});
    QTemporaryDir dir;
    const fs::path project = dir.path().toStdString();
    deploy::writeProject(board.projectFiles(model), project);
    const std::string object = "build/runtime/src/profiler.o";
    const auto made = deploy::runProcess({"make", object}, project);
    QVERIFY2(made.exitCode == 0, made.output.c_str());
    QVERIFY(fs::is_regular_file(project / "build/runtime/src/profiler.d"));
    // make -q: exit 0 when the object is up to date, 1 when it must be rebuilt.
    QCOMPARE(deploy::runProcess({"make", "-q", object}, project).exitCode, 0);
    const fs::path header = project / "runtime/include/tvm/runtime/crt/profiler.h";
    fs::last_write_time(header, fs::last_write_time(project / object) + std::chrono::seconds(2));
    QCOMPARE(deploy::runProcess({"make", "-q", object}, project).exitCode, 1);
  }

  void brokenFoldersAreSkippedWithTheReason() {
    QTemporaryDir dir;
    const fs::path boards = dir.path().toStdString();
    writeBoardFolder(boards / "a_no_linker", "a_no_linker");
    fs::remove(boards / "a_no_linker" / "linker.ld");
    writeBoardFolder(boards / "b_bad_json", "b_bad_json");
    writeText(boards / "b_bad_json" / "board.json", "{\"name\": \"b_bad_json\"");
    writeBoardFolder(boards / "c_good", "c_good");
    writeText(boards / "not_a_board" / "notes.txt", "no board.json here");
    // A UART Loupe has no driver for, and a board neither emulated nor flashed.
    writeBoardFolder(boards / "d_odd_uart", "d_odd_uart");
    std::string json = readText(boards / "d_odd_uart" / "board.json");
    json.replace(json.find("\"cmsdk_uart\""), 12, "\"pl011_uart\"");
    writeText(boards / "d_odd_uart" / "board.json", json);
    writeBoardFolder(boards / "e_no_qemu", "e_no_qemu");
    json = readText(boards / "e_no_qemu" / "board.json");
    json.erase(json.find("\"qemu\""), json.find("\"uart0_base\"") - json.find("\"qemu\""));
    writeText(boards / "e_no_qemu" / "board.json", json);

    deploy::PlatformRegistry registry;
    const auto problems = platforms::addBoardFolders(registry, boards);
    QCOMPARE(problems.size(), std::size_t{4});
    QVERIFY2(problems[0].starts_with((boards / "a_no_linker").string() + ": skipped: ") &&
                 problems[0].ends_with("no linker.ld"),
             problems[0].c_str());
    QVERIFY2(problems[1].starts_with((boards / "b_bad_json").string() + ": skipped: "),
             problems[1].c_str());
    QVERIFY2(problems[2].ends_with("Loupe has no UART driver 'pl011_uart'"), problems[2].c_str());
    QVERIFY2(problems[3].ends_with("expected either 'qemu' (an emulated board) or 'flash' (a real "
                                   "board)"),
             problems[3].c_str());
    QCOMPARE(registry.names(), std::vector<std::string>{"c-good"});
  }

  void aFolderCannotReplaceABuiltInBoard() {
    QTemporaryDir dir;
    const fs::path boards = dir.path().toStdString();
    writeBoardFolder(boards / "qemu_mps2_an385", "qemu_mps2_an385");
    auto registry = platforms::builtinPlatformRegistry();
    const auto before = registry.names();
    const auto problems = platforms::addBoardFolders(registry, boards);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].ends_with("a platform named qemu-mps2-an385 exists already"),
             problems[0].c_str());
    QCOMPARE(registry.names(), before);
  }

  void noFolderNoBoards() {
    deploy::PlatformRegistry registry;
    QVERIFY(platforms::addBoardFolders(registry, "/nonexistent/share/loupe/boards").empty());
    QVERIFY(registry.names().empty());
  }
};

QTEST_GUILESS_MAIN(BoardFoldersTest)
#include "board_folders_test.moc"
