// The operator functions' C streamed into the Model Library Format (as
// loupec compile writes it, CompileOptions::printOperatorSources off) gives
// the archive the same bytes as the C printed whole beforehand; a streamed
// file that does not match its measured size fails without touching the
// target.
#include <QtTest>

#include <filesystem>

#include "codegen/c_function_printer.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "mlf/compiled_model_export.h"
#include "mlf/model_library_format.h"
#include "mlf/tar_archive.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

// As loupec compile compiles (the graph passes, the c target).
codegen::CompiledModel compile(const std::string& model, bool printOperatorSources) {
  codegen::CompileOptions options;
  options.printOperatorSources = printOperatorSources;
  return driver::compileModel(
             {frontend::importTfliteFile(test::modelsDir() / model / "model.tflite"),
              target::parseTargetString("c", targets::builtinTargetRegistry()),
              std::move(options),
              {}})
      .model;
}

}  // namespace

class StreamedSources : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  fs::path path(const std::string& name) const {
    return fs::path(dir_.path().toStdString()) / name;
  }

 private slots:
  void archiveIsTheSameByteForByte_data() {
    QTest::addColumn<QString>("model");
    for (const char* model : {"hello_world_int8", "hello_world_float", "micro_speech_quantized",
                              "kws_ref_model", "ad01_int8"}) {
      QTest::newRow(model) << model;
    }
  }

  void archiveIsTheSameByteForByte() {
    QFETCH(QString, model);
    const std::string name = model.toStdString();
    const codegen::CompiledModel printed = compile(name, true);
    const codegen::CompiledModel streamed = compile(name, false);
    QVERIFY(printed.hasOperatorSources);
    QVERIFY(!streamed.hasOperatorSources);
    // Only the run and registry sources are printed beforehand.
    QCOMPARE(streamed.sources.size(), printed.sources.size() - printed.functions.size());
    const std::vector<mlf::StageFile> stages = {{"01_imported.graph.txt", "graph\n"}};
    mlf::writeModelLibraryFormat(path(name + "_printed.tar"), mlf::mlfContentsOf(printed, stages));
    codegen::CompiledModel taken = streamed;
    mlf::writeModelLibraryFormat(path(name + "_streamed.tar"), mlf::takeMlfContents(taken, stages));
    QCOMPARE(test::readBytes(path(name + "_streamed.tar")),
             test::readBytes(path(name + "_printed.tar")));
  }

  void pieceByPieceIsTheWholeText() {
    // A constant several pieces long (printCSource hands over 16 Ki values at
    // a time): the pieces join into exactly the whole file's text.
    tir::PrimFunc f = compile("hello_world_int8", true).functions.front();
    auto large = std::make_shared<tir::BufferNode>(*f.constants.front());
    std::vector<std::uint8_t> bytes(40000);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 7);
    large->type = tir::ScalarType::Int8;
    large->shape = {static_cast<std::int64_t>(bytes.size())};
    large->data = std::move(bytes);
    f.constants.front() = large;
    std::string joined;
    int pieces = 0;
    codegen::printCSource(f, [&](std::string_view piece) {
      joined += piece;
      ++pieces;
    });
    QVERIFY(pieces > 2);
    QCOMPARE(joined, codegen::printCSource(f));
  }

  void contentsThatDoNotMatchTheirSizeFail() {
    const fs::path folder = path("inconsistent");
    fs::create_directories(folder);
    const fs::path target = folder / "archive.tar";
    mlf::writeTarArchive(target, {mlf::ArchiveEntry{"a.txt", {'o', 'l', 'd'}, false, nullptr}});
    const auto before = test::readBytes(target);
    // Writes one byte more each time it is called: its measurement is wrong.
    auto calls = std::make_shared<int>(0);
    auto growing = std::make_shared<mlf::StreamedContents>();
    growing->write = [calls](const mlf::ArchiveSink& sink) {
      sink(std::string(static_cast<std::size_t>(++*calls), 'x'));
    };
    QVERIFY_THROWS_EXCEPTION(
        mlf::ArchiveError,
        mlf::writeTarArchive(target, {mlf::ArchiveEntry{"a.txt", {}, false, growing}}));
    QCOMPARE(test::readBytes(target), before);
    // Nothing but the archive is left in its folder.
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) {
      ++files;
    }
    QCOMPARE(files, 1);
  }

  void streamedContentsReadBackAsWritten() {
    auto contents = std::make_shared<mlf::StreamedContents>();
    contents->write = [](const mlf::ArchiveSink& sink) {
      for (int i = 0; i < 1000; ++i) sink("line " + std::to_string(i) + "\n");
    };
    const fs::path target = path("streamed.tar");
    mlf::writeTarArchive(target, {mlf::ArchiveEntry{"lines.txt", {}, false, contents},
                                  mlf::ArchiveEntry{"plain.txt", {'a', 'b'}, false, nullptr}});
    const std::vector<mlf::ArchiveEntry> entries = mlf::readTarArchive(target);
    QCOMPARE(entries.size(), std::size_t{2});
    std::string expected;
    contents->write([&](std::string_view piece) { expected += piece; });
    QCOMPARE(entries[0].path, std::string("lines.txt"));
    QCOMPARE(std::string(entries[0].bytes.begin(), entries[0].bytes.end()), expected);
    QCOMPARE(entries[1].path, std::string("plain.txt"));
    QVERIFY(entries[1].bytes == std::vector<std::uint8_t>({'a', 'b'}));
  }
};

QTEST_APPLESS_MAIN(StreamedSources)
#include "streamed_sources_test.moc"
