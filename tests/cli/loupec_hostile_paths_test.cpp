// loupec given what a hostile or careless user gives it: tensor names with NUL
// bytes and invalid UTF-8, a folder where a model or input file belongs, an
// output folder that cannot be written, -o naming a device, a FIFO or a
// symbolic link, an overlong --model-name; and two identical compiles, which
// must give identical archives.
#include <sys/stat.h>
#include <unistd.h>

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "loupec_process.h"
#include "mlf/tar_archive.h"
#include "model_editor.h"
#include "test_data.h"

namespace {

namespace fs = std::filesystem;

using loupe::test::LoupecRun;

LoupecRun loupec(const QStringList& arguments) {
  return loupe::test::runLoupec(arguments);
}

fs::path helloWorld() {
  return loupe::test::modelsDir() / "hello_world_int8" / "model.tflite";
}

QString q(const fs::path& path) {
  return QString::fromStdString(path.string());
}

void writeBytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::uint8_t> readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The model input's name as the model file holds it: a NUL in the middle
// and bytes that are not UTF-8.
const std::string kOddName = std::string("functional_1/de\0nse", 19) + "\xff\xfe/in\\put";
// How Loupe shows it, everywhere.
const std::string kShownName = "functional_1/de\\x00nse\\xFF\\xFE/in\\\\put";

#define EXPECT_IN(haystack, needle)                            \
  QVERIFY2((haystack).contains(needle),                        \
           qPrintable(QStringLiteral("expected \"%1\" in: %2") \
                          .arg(QString::fromUtf8(needle), QString::fromUtf8(haystack))))

}  // namespace

class LoupecHostilePaths : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  fs::path path(const std::string& name) const {
    return fs::path(dir_.path().toStdString()) / name;
  }

  // hello_world with its input tensor renamed to kOddName.
  fs::path oddlyNamedModel() {
    loupe::test::ModelEditor editor(helloWorld());
    editor.tensor(static_cast<std::size_t>(editor.subgraph().inputs.at(0))).name = kOddName;
    const fs::path file = path("odd_names.tflite");
    writeBytes(file, editor.bytes());
    return file;
  }

 private slots:
  void oddTensorNamesAreEscapedTheSameInTextAndJson() {
    const fs::path model = oddlyNamedModel();
    auto result = loupec({"info", q(model), "--json"});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    const auto report = nlohmann::json::parse(result.out.toStdString());
    QCOMPARE(report["inputs"][0]["name"].get<std::string>(), kShownName);

    result = loupec({"info", q(model)});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    EXPECT_IN(result.out, QByteArray::fromStdString(kShownName));
    QVERIFY(!result.out.contains('\0'));

    result = loupec({"compile", q(model), "-o", q(path("odd.tar"))});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    bool found = false;
    for (const auto& entry : loupe::mlf::readTarArchive(path("odd.tar"))) {
      if (entry.path != "metadata.json") continue;
      const std::string text(entry.bytes.begin(), entry.bytes.end());
      QVERIFY(nlohmann::json::accept(text));  // valid JSON
      found = text.find(nlohmann::json(kShownName).dump()) != std::string::npos;
    }
    QVERIFY2(found, "metadata.json does not name the input as shown");
  }

  void anErrorAboutAnOddlyNamedTensorNamesTheFileAndTheWholeName() {
    loupe::test::ModelEditor editor(helloWorld());
    auto& input = editor.tensor(static_cast<std::size_t>(editor.subgraph().inputs.at(0)));
    input.name = kOddName;
    input.type = tflite::TensorType::COMPLEX64;
    const fs::path model = path("odd_type.tflite");
    writeBytes(model, editor.bytes());
    for (const char* verb : {"info", "compile"}) {
      QStringList args = {verb, q(model)};
      if (QByteArray(verb) == "compile") args << "-o" << q(path("never.tar"));
      const auto result = loupec(args);
      QCOMPARE(result.exitCode, 1);
      EXPECT_IN(result.err, "odd_type.tflite: tensor");
      EXPECT_IN(result.err, QByteArray::fromStdString("'" + kShownName + "' has type COMPLEX64"));
    }
  }

  void aFolderGivenAsAFileIsNamedInTheError() {
    const fs::path folder = path("a_folder.tflite");
    fs::create_directories(folder);
    auto result = loupec({"info", q(folder)});
    QCOMPARE(result.exitCode, 1);
    EXPECT_IN(result.err, QByteArray::fromStdString(folder.string() + ": it is a folder"));
    QVERIFY(!result.err.contains("basic_filebuf"));

    result =
        loupec({"run", q(helloWorld()), "--inputs", q(folder), "--output-dir", q(path("out"))});
    QCOMPARE(result.exitCode, 1);
    EXPECT_IN(result.err, QByteArray::fromStdString(folder.string() + ": it is a folder"));
  }

  void anUnwritableOutputFolderFailsBeforeTheBuildWithTheReason() {
    const fs::path file = path("plain_file");
    writeBytes(file, {1, 2, 3});
    const fs::path below = file / "out";
    const fs::path input =
        loupe::test::modelsDir() / "hello_world_int8" / "golden" / "seed1" / "input0.bin";
    for (const char* platform : {"reference", "host"}) {
      const auto result = loupec({"run", q(helloWorld()), "--platform", platform, "--inputs",
                                  q(input), "--output-dir", q(below)});
      QCOMPARE(result.exitCode, 1);
      EXPECT_IN(result.err,
                QByteArray::fromStdString("cannot write into the output folder " + below.string()));
      EXPECT_IN(result.err, "Not a directory");
      QVERIFY2(!result.out.contains("[compile]") && !result.out.contains("[build]"),
               result.out.constData());
    }
    if (::geteuid() != 0) {  // root writes into a folder of mode 0555
      const fs::path readOnly = path("read_only");
      fs::create_directories(readOnly);
      fs::permissions(readOnly, fs::perms::owner_read | fs::perms::owner_exec);
      const auto result = loupec({"run", q(helloWorld()), "--platform", "host", "--inputs",
                                  q(input), "--output-dir", q(readOnly)});
      EXPECT_IN(result.err, "Permission denied");
      QVERIFY(!result.out.contains("[build]"));
    }
  }

  void compileRefusesDevicesAndFifosAndWritesThroughLinks() {
    auto result = loupec({"compile", q(helloWorld()), "-o", "/dev/null"});
    QCOMPARE(result.exitCode, 1);
    EXPECT_IN(result.err, "/dev/null: is a character device, not a regular file");
    QVERIFY(!result.out.contains("compiled"));  // refused before compiling
    QVERIFY(fs::is_character_file("/dev/null"));

    const fs::path fifo = path("model.fifo");
    QCOMPARE(::mkfifo(fifo.c_str(), 0644), 0);
    result = loupec({"compile", q(helloWorld()), "-o", q(fifo)});
    QCOMPARE(result.exitCode, 1);
    EXPECT_IN(result.err, "is a FIFO, not a regular file");
    QVERIFY(fs::is_fifo(fifo));

    fs::create_directories(path("real"));
    fs::create_symlink("real/model.tar", path("link.tar"));
    result = loupec({"compile", q(helloWorld()), "-o", q(path("link.tar"))});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    QVERIFY(fs::is_symlink(path("link.tar")));
    QVERIFY(!loupe::mlf::readTarArchive(path("real/model.tar")).empty());

    result = loupec({"compile", q(helloWorld()), "-o", q(path("no/such/folder/model.tar"))});
    QCOMPARE(result.exitCode, 1);
    EXPECT_IN(result.err, "No such file or directory");
    QVERIFY(!result.out.contains("compiled"));
  }

  void twoIdenticalCompilesGiveIdenticalArchives() {
    const fs::path kws = loupe::test::modelsDir() / "kws_ref_model" / "model.tflite";
    for (const char* name : {"first.tar", "second.tar"}) {
      const auto result = loupec({"compile", q(kws), "-o", q(path(name))});
      QVERIFY2(result.exitCode == 0, result.err.constData());
    }
    const auto first = readBytes(path("first.tar"));
    QVERIFY(first.size() > 10000);
    QVERIFY(first == readBytes(path("second.tar")));
  }

  void anOverlongModelNameIsRefusedAndTheLongestAllowedExtracts() {
    auto result = loupec({"compile", q(helloWorld()), "-o", q(path("long.tar")), "--model-name",
                          QString(300, QChar('m'))});
    QCOMPARE(result.exitCode, 2);
    EXPECT_IN(result.err, "at most 64 characters");
    QVERIFY(!fs::exists(path("long.tar")));

    result = loupec({"compile", q(helloWorld()), "-o", q(path("longest.tar")), "--model-name",
                     QString(64, QChar('m'))});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    fs::create_directories(path("extracted"));
    QProcess tar;
    tar.start("tar", {"-xf", q(path("longest.tar")), "-C", q(path("extracted"))});
    QVERIFY(tar.waitForFinished(30000));
    QVERIFY2(tar.exitCode() == 0, tar.readAllStandardError().constData());
    QVERIFY(fs::exists(path("extracted") / "metadata.json"));
  }
};

QTEST_GUILESS_MAIN(LoupecHostilePaths)
#include "loupec_hostile_paths_test.moc"
