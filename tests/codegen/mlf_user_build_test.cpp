// The Model Library Format as a user meets it: `loupec compile`'s tar,
// unpacked, built with nothing but its README's recipe (include
// codegen/host/include and runtime/include, compile every .c under
// codegen/host/src and runtime/src) plus the user's own main.c — natively,
// where the outputs must equal the golden ones, and with arm-none-eabi-gcc
// for Cortex-M3 and Cortex-M55, all with strict C99 warnings as errors.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "codegen/model_compiler.h"
#include "deploy/process_runner.h"
#include "frontend/tflite_importer.h"
#include "mlf/compiled_model_export.h"
#include "mlf/tar_archive.h"
#include "test_data.h"
#include "test_group.h"

namespace mlf_user_build_test {

using namespace loupe;
namespace fs = std::filesystem;

namespace {

const char* kUserMain = R"(#include <stdio.h>
#include "tvmgen_hello.h"
static int8_t input[TVMGEN_HELLO_SERVING_DEFAULT_DENSE_INPUT_0_SIZE];
static int8_t output[TVMGEN_HELLO_STATEFULPARTITIONEDCALL_0_SIZE];
int main(int argc, char** argv) {
  struct tvmgen_hello_inputs in;
  struct tvmgen_hello_outputs out;
  FILE* f;
  if (argc != 3 || (f = fopen(argv[1], "rb")) == NULL) return 2;
  if (fread(input, 1, sizeof input, f) != sizeof input) return 2;
  fclose(f);
  in.serving_default_dense_input_0 = input;
  out.StatefulPartitionedCall_0 = output;
  if (tvmgen_hello_run(&in, &out) != 0) return 3;
  f = fopen(argv[2], "wb");
  if (f == NULL || fwrite(output, 1, sizeof output, f) != sizeof output) return 4;
  return fclose(f);
}
)";

std::vector<std::string> sourcesUnder(const fs::path& root) {
  std::vector<std::string> files;
  for (const char* dir : {"codegen/host/src", "runtime/src"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (e.path().extension() == ".c") files.push_back(fs::relative(e.path(), root).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

class MlfUserBuild : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  fs::path root_;

 private slots:
  void initTestCase() {
    const fs::path model = test::modelsDir() / "hello_world_int8" / "model.tflite";
    codegen::CompileOptions options;
    options.modelName = "hello";
    const auto compiled = codegen::compileToC(frontend::importTfliteFile(model), options);
    const fs::path tar = fs::path(dir_.path().toStdString()) / "hello.tar";
    mlf::writeModelLibraryFormat(tar, mlf::mlfContentsOf(compiled, {}));
    root_ = fs::path(dir_.path().toStdString()) / "unpacked";
    for (const mlf::ArchiveEntry& e : mlf::readTarArchive(tar)) {
      fs::create_directories((root_ / e.path).parent_path());
      std::ofstream(root_ / e.path, std::ios::binary)
          .write(reinterpret_cast<const char*>(e.bytes.data()),
                 static_cast<std::streamsize>(e.bytes.size()));
    }
    std::ofstream(root_ / "main.c") << kUserMain;
  }

  void buildsNativelyAndGivesTheGoldenOutput() {
    std::vector<std::string> argv = {"cc",
                                     "-std=c99",
                                     "-Wall",
                                     "-Wextra",
                                     "-Werror",
                                     "-pedantic",
                                     "-O2",
                                     "-Icodegen/host/include",
                                     "-Iruntime/include"};
    for (const auto& f : sourcesUnder(root_)) argv.push_back(f);
    argv.insert(argv.end(), {"main.c", "-o", "app"});
    const auto build = deploy::runProcess(argv, root_);
    QVERIFY2(build.exitCode == 0, build.output.c_str());
    const fs::path golden = test::modelsDir() / "hello_world_int8" / "golden" / "seed3";
    const auto run = deploy::runProcess(
        {(root_ / "app").string(), (golden / "input0.bin").string(), (root_ / "out.bin").string()},
        root_);
    QVERIFY2(run.exitCode == 0, run.output.c_str());
    QCOMPARE(test::readBytes(root_ / "out.bin"), test::readBytes(golden / "output0.bin"));
  }

  void buildsForCortexM_data() {
    QTest::addColumn<QString>("cpu");
    QTest::newRow("cortex-m3") << "cortex-m3";
    QTest::newRow("cortex-m55") << "cortex-m55";
  }

  void buildsForCortexM() {
    QFETCH(QString, cpu);
    std::vector<std::string> argv = {"arm-none-eabi-gcc",
                                     "-std=c99",
                                     "-Wall",
                                     "-Wextra",
                                     "-Werror",
                                     "-pedantic",
                                     "-O2",
                                     "-mthumb",
                                     "-mcpu=" + cpu.toStdString(),
                                     "--specs=nosys.specs",
                                     "-Icodegen/host/include",
                                     "-Iruntime/include"};
    for (const auto& f : sourcesUnder(root_)) argv.push_back(f);
    argv.insert(argv.end(), {"main.c", "-o", "app-" + cpu.toStdString() + ".elf"});
    const auto build = deploy::runProcess(argv, root_);
    QVERIFY2(build.exitCode == 0, build.output.c_str());
  }

  // loupec compile moves the generated C into the archive instead of copying
  // it: the archive is byte for byte the one the copying path writes.
  void takingTheSourcesWritesTheSameArchive() {
    const fs::path model = test::modelsDir() / "hello_world_int8" / "model.tflite";
    codegen::CompileOptions options;
    options.modelName = "hello";
    auto compiled = codegen::compileToC(frontend::importTfliteFile(model), options);
    const std::vector<mlf::StageFile> stages = {{"00_imported.graph.txt", "graph text\n"}};
    const fs::path copied = fs::path(dir_.path().toStdString()) / "copied.tar";
    const fs::path taken = fs::path(dir_.path().toStdString()) / "taken.tar";
    mlf::writeModelLibraryFormat(copied, mlf::mlfContentsOf(compiled, stages));
    const std::size_t functions = compiled.functions.size();
    QVERIFY(!compiled.sources.empty() && !compiled.headers.empty());
    mlf::writeModelLibraryFormat(taken, mlf::takeMlfContents(compiled, stages));
    QVERIFY(compiled.sources.empty() && compiled.headers.empty());
    QCOMPARE(compiled.functions.size(), functions);  // the rest stays
    QCOMPARE(test::readBytes(taken), test::readBytes(copied));
  }
};

LOUPE_TEST_APPLESS_MAIN(MlfUserBuild)

}  // namespace mlf_user_build_test

#include "mlf_user_build_test.moc"
