// Model Library Format as Loupe writes it: TVM's folder layout and
// metadata.json keys (version 7: one entry per module under "modules"), Loupe's
// own keys beside them, a README that says how to build, and contents that
// could not be laid out safely refused before anything is written.
#include <QtTest>

#include <algorithm>
#include <filesystem>

#include "mlf/model_library_format.h"
#include "test_data.h"

namespace fs = std::filesystem;
using loupe::mlf::ArchiveEntry;
using loupe::mlf::MlfContents;
using loupe::mlf::mlfEntries;
using loupe::mlf::MlfError;
using loupe::mlf::mlfMetadata;
using loupe::mlf::writeModelLibraryFormat;
using nlohmann::json;

namespace {

ArchiveEntry textFile(std::string path, std::string_view text) {
  return {std::move(path), std::vector<std::uint8_t>(text.begin(), text.end()), false};
}

std::string textOf(const ArchiveEntry& entry) {
  return std::string(entry.bytes.begin(), entry.bytes.end());
}

// A small quantised model as the compiler would describe it.
MlfContents sampleContents() {
  MlfContents contents;
  contents.modelName = "default";
  contents.target = "c";
  contents.inputs = {{"input_1", "int8", {1, 49, 10, 1}, 0.5, -128, 490}};
  contents.outputs = {{"Identity", "float32", {1, 12}, std::nullopt, std::nullopt, 48}};
  contents.functions = {
      {"__tvm_main__", 4096, 20000, 538},
      {"tvmgen_default_fused_nn_conv2d", 256, 1000, 2000},
      {"tvmgen_default_fused_nn_softmax", 0, 0, 60},
  };
  contents.memoryPlan = {{"planner", "greedy_by_size"}, {"pool_bytes", 4096}};
  contents.hostSources = {textFile("default_lib0.c", "void f(void) {}\n"),
                          textFile("default_lib1.c", "void g(void) {}\n")};
  contents.hostHeaders = {textFile("tvmgen_default.h", "#pragma once\n")};
  contents.parameters = {ArchiveEntry{"default.params", {0, 1, 2, 255}, false}};
  contents.irStages = {textFile("01_imported.graph.txt", "graph\n"),
                       textFile("03_fused.graph.txt", "fused\n")};
  contents.runtimeFiles = {textFile("include/tvm/runtime/crt/crt.h", "#pragma once\n"),
                           textFile("src/error.c", "int e;\n")};
  return contents;
}

QStringList pathsOf(const std::vector<ArchiveEntry>& entries) {
  QStringList paths;
  for (const ArchiveEntry& entry : entries) paths << QString::fromStdString(entry.path);
  return paths;
}

QString mlfErrorOf(const MlfContents& contents) {
  try {
    mlfEntries(contents);
  } catch (const MlfError& error) {
    return QString::fromStdString(error.what());
  }
  return QStringLiteral("<no error>");
}

#define EXPECT_MESSAGE(message, fragment)                \
  QVERIFY2((message).contains(QStringLiteral(fragment)), \
           qPrintable(QStringLiteral("expected \"%1\" in: %2").arg(fragment, message)))

}  // namespace

class ModelLibraryFormat : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  fs::path path(const char* name) const { return fs::path(dir_.path().toStdString()) / name; }

 private slots:
  void metadataHasTvmsTopLevelKeys() {
    const json metadata = mlfMetadata(sampleContents());
    QCOMPARE(metadata["version"].get<int>(), 7);
    QCOMPARE(metadata["modules"].size(), std::size_t{1});
    const json& module = metadata["modules"]["default"];
    QCOMPARE(module["model_name"], json("default"));
    QCOMPARE(module["export_datetime"], json("1970-01-01 00:00:00Z"));
    QCOMPARE(module["target"], json::array({"c"}));
    QCOMPARE(module["executors"], json::array({"aot"}));
    QCOMPARE(module["style"], json("full-model"));
    QCOMPARE(module["external_dependencies"][0]["url"], json("./runtime"));
    QCOMPARE(module["external_dependencies"][0]["url_type"], json("mlf_path"));
  }

  void metadataMemoryFollowsTvmsFunctionSchema() {
    const json functions =
        mlfMetadata(sampleContents())["modules"]["default"]["memory"]["functions"];
    QCOMPARE(functions["main"].size(), std::size_t{1});
    const json& main = functions["main"][0];
    QCOMPARE(main["device"], json(1));
    QCOMPARE(main["workspace_size_bytes"], json(4096));
    QCOMPARE(main["constants_size_bytes"], json(20000));
    QCOMPARE(main["io_size_bytes"], json(538));
    QCOMPARE(main["inputs"], json::parse(R"({"input_1": {"size": 490, "dtype": "int8"}})"));
    QCOMPARE(main["outputs"], json::parse(R"({"Identity": {"size": 48, "dtype": "float32"}})"));

    const json& operators = functions["operator_functions"];
    QCOMPARE(operators.size(), std::size_t{2});
    QCOMPARE(operators[0]["function_name"], json("tvmgen_default_fused_nn_conv2d"));
    QCOMPARE(operators[0]["workspace"], json::parse(R"([{"device": 1, "workspace_size_bytes": 256,
        "constants_size_bytes": 1000, "io_size_bytes": 2000}])"));
    QCOMPARE(operators[1]["function_name"], json("tvmgen_default_fused_nn_softmax"));
  }

  void theRunFunctionMayBeNamedAfterTheModel() {
    MlfContents contents = sampleContents();
    contents.modelName = "kws";
    contents.functions = {{"tvmgen_kws_run", 100, 0, 0}, {"tvmgen_kws_fused_add", 10, 0, 0}};
    const json functions = mlfMetadata(contents)["modules"]["kws"]["memory"]["functions"];
    QCOMPARE(functions["main"][0]["workspace_size_bytes"], json(100));
    QCOMPARE(functions["operator_functions"][0]["function_name"], json("tvmgen_kws_fused_add"));
  }

  void metadataCarriesLoupesKeys() {
    const json module = mlfMetadata(sampleContents())["modules"]["default"];
    QCOMPARE(module["inputs"], json::parse(R"([{"name": "input_1", "dtype": "int8",
        "shape": [1, 49, 10, 1], "quantization": {"scale": 0.5, "zero_point": -128},
        "bytes": 490}])"));
    QCOMPARE(module["outputs"], json::parse(R"([{"name": "Identity", "dtype": "float32",
        "shape": [1, 12], "quantization": null, "bytes": 48}])"));
    QCOMPARE(module["memory_plan"], sampleContents().memoryPlan);
  }

  void withoutARuntimeThereIsNoExternalDependency() {
    MlfContents contents = sampleContents();
    contents.runtimeFiles.clear();
    QVERIFY(!mlfMetadata(contents)["modules"]["default"].contains("external_dependencies"));
    const auto entries = mlfEntries(contents);
    QVERIFY(std::none_of(entries.begin(), entries.end(),
                         [](const ArchiveEntry& e) { return e.path.starts_with("runtime/"); }));
  }

  void entriesFollowTheLayout() {
    QCOMPARE(pathsOf(mlfEntries(sampleContents())), (QStringList{
                                                        "metadata.json",
                                                        "README.txt",
                                                        "codegen/host/src/default_lib0.c",
                                                        "codegen/host/src/default_lib1.c",
                                                        "codegen/host/include/tvmgen_default.h",
                                                        "parameters/default.params",
                                                        "src/01_imported.graph.txt",
                                                        "src/03_fused.graph.txt",
                                                        "runtime/include/tvm/runtime/crt/crt.h",
                                                        "runtime/src/error.c",
                                                    }));
    const auto entries = mlfEntries(sampleContents());
    QCOMPARE(json::parse(textOf(entries[0])), mlfMetadata(sampleContents()));
    QVERIFY(entries[5].bytes == (std::vector<std::uint8_t>{0, 1, 2, 255}));
  }

  void readmeSaysHowToBuild() {
    const std::string readme = textOf(mlfEntries(sampleContents())[1]);
    for (const char* fragment : {"codegen/host/include", "runtime/include", "codegen/host/src",
                                 "runtime/src", "every .c file"}) {
      QVERIFY2(readme.find(fragment) != std::string::npos, fragment);
    }
  }

  void writtenArchiveReadsBackAsItsEntries() {
    writeModelLibraryFormat(path("model.tar"), sampleContents());
    auto expected = mlfEntries(sampleContents());
    std::sort(expected.begin(), expected.end(),
              [](const ArchiveEntry& a, const ArchiveEntry& b) { return a.path < b.path; });
    QVERIFY(loupe::mlf::readTarArchive(path("model.tar")) == expected);
  }

  void twoExportsAreByteIdentical() {
    writeModelLibraryFormat(path("first.tar"), sampleContents());
    writeModelLibraryFormat(path("second.tar"), sampleContents());
    QVERIFY(loupe::test::readBytes(path("first.tar")) ==
            loupe::test::readBytes(path("second.tar")));
  }

  void rejectsFileNamesThatAreNotPlainRelativePaths() {
    for (const char* name : {"", "/abs.c", "../up.c", "a/../b.c", "a//b.c", "dir/"}) {
      MlfContents contents = sampleContents();
      contents.hostSources.push_back(textFile(name, "x"));
      const QString message = mlfErrorOf(contents);
      QVERIFY2(message.contains(QStringLiteral("host source '%1'").arg(name)), qPrintable(message));
    }
    MlfContents contents = sampleContents();
    contents.runtimeFiles.push_back(textFile("../../etc/passwd", "x"));
    EXPECT_MESSAGE(mlfErrorOf(contents), "runtime file '../../etc/passwd': '..' component");
    contents = sampleContents();
    contents.irStages.push_back(textFile("/tmp/stage.txt", "x"));
    EXPECT_MESSAGE(mlfErrorOf(contents), "IR stage '/tmp/stage.txt': absolute path");
  }

  void rejectsDuplicateFileNames() {
    MlfContents contents = sampleContents();
    contents.hostHeaders.push_back(textFile("tvmgen_default.h", "again"));
    EXPECT_MESSAGE(mlfErrorOf(contents), "two host headers named 'tvmgen_default.h'");
    contents = sampleContents();
    contents.parameters.push_back(contents.parameters[0]);
    EXPECT_MESSAGE(mlfErrorOf(contents), "two parameter files named 'default.params'");
  }

  void rejectsInvalidModelDescriptions() {
    MlfContents contents = sampleContents();
    contents.modelName = "my model";
    EXPECT_MESSAGE(mlfErrorOf(contents), "model name 'my model' is not a C identifier");
    contents = sampleContents();
    contents.functions.erase(contents.functions.begin());
    EXPECT_MESSAGE(mlfErrorOf(contents),
                   "no run function ('__tvm_main__' or 'tvmgen_default_run')");
    contents = sampleContents();
    contents.functions.push_back({"tvmgen_default_run", 0, 0, 0});
    EXPECT_MESSAGE(mlfErrorOf(contents), "more than one run function");
    contents = sampleContents();
    contents.functions.push_back(contents.functions[1]);
    EXPECT_MESSAGE(mlfErrorOf(contents), "two functions named 'tvmgen_default_fused_nn_conv2d'");
    contents = sampleContents();
    contents.inputs.push_back(contents.inputs[0]);
    EXPECT_MESSAGE(mlfErrorOf(contents), "two inputs named 'input_1'");
    contents = sampleContents();
    contents.outputs[0].scale = 0.25;
    EXPECT_MESSAGE(mlfErrorOf(contents),
                   "output 'Identity' has a scale or a zero point but not both");
    contents = sampleContents();
    contents.target.clear();
    EXPECT_MESSAGE(mlfErrorOf(contents), "no target");
  }

  void invalidContentsWriteNothing() {
    MlfContents contents = sampleContents();
    contents.hostSources.push_back(textFile("../escape.c", "x"));
    QVERIFY_THROWS_EXCEPTION(MlfError, writeModelLibraryFormat(path("invalid.tar"), contents));
    QVERIFY(!fs::exists(path("invalid.tar")));
  }
};

QTEST_APPLESS_MAIN(ModelLibraryFormat)
#include "model_library_format_test.moc"
