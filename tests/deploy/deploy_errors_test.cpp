// What a user sees when a deployment cannot happen: a model too large for the
// board (which memory, how many bytes), a missing tool (which package), a
// failing build (the compiler's output), a board that cannot be started or
// reached, a board serving another model, an unknown platform. Each is a
// DeployError of its own kind with a specific message.
#include <QtTest>

#include <csignal>
#include <cstdlib>
#include <stop_token>
#include <thread>

#include "codegen/model_compiler.h"
#include "deploy/deploy_error.h"
#include "deploy/deployment.h"
#include "deploy/process_runner.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "platforms/builtin_platforms.h"
#include "platforms/qemu_platform.h"
#include "session.h"
#include "session_error.h"
#include "test_data.h"

using namespace loupe;
using deploy::DeployError;

namespace {

codegen::CompiledModel compileModel(const std::string& name) {
  passes::StageTimeline timeline;
  return codegen::compileToC(
      passes::runGraphPipeline(
          frontend::importTfliteFile(test::modelsDir() / name / "model.tflite"), timeline),
      {});
}

const platforms::QemuPlatform& an547(const deploy::PlatformRegistry& registry) {
  return dynamic_cast<const platforms::QemuPlatform&>(*registry.find("qemu-mps3-an547"));
}

// The AN547 with only `dtcmBytes` of data memory, in its description and
// in its linker script alike. `checkBeforeBuilding` false leaves the
// refusal to the linker, as for a model whose minimum footprint fits.
class SmallDataBoard : public platforms::QemuPlatform {
 public:
  SmallDataBoard(const platforms::QemuPlatform& board, std::uint64_t dtcmBytes,
                 bool checkBeforeBuilding = true)
      : QemuPlatform(shrunk(board.board(), dtcmBytes), "qemu_mps3_an547"),
        bytes_(dtcmBytes),
        checkBeforeBuilding_(checkBeforeBuilding) {}

  std::optional<std::string> checkFits(const codegen::CompiledModel& model) const override {
    if (!checkBeforeBuilding_) return std::nullopt;
    return QemuPlatform::checkFits(model);
  }

  std::vector<deploy::ProjectFile> projectFiles(
      const codegen::CompiledModel& model) const override {
    auto files = QemuPlatform::projectFiles(model);
    for (auto& file : files) {
      if (file.path != "platform/linker.ld") continue;
      const std::string dtcm = "DTCM (rwx) : ORIGIN = 0x20000000, LENGTH = ";
      const auto at = file.text.find(dtcm + "512K");
      if (at == std::string::npos) throw std::runtime_error("the AN547 linker script changed");
      file.text.replace(at, dtcm.size() + 4, dtcm + std::to_string(bytes_ / 1024) + "K");
    }
    return files;
  }

 private:
  static deploy::BoardDescription shrunk(deploy::BoardDescription board, std::uint64_t bytes) {
    for (auto& memory : board.memories) {
      if (memory.name == "DTCM") memory.size = bytes;
    }
    return board;
  }
  std::uint64_t bytes_;
  bool checkBeforeBuilding_;
};

// The AN547 with a source file that does not compile.
class BrokenBuildBoard : public platforms::QemuPlatform {
 public:
  explicit BrokenBuildBoard(const platforms::QemuPlatform& board)
      : QemuPlatform(board.board(), "qemu_mps3_an547") {}
  std::vector<deploy::ProjectFile> projectFiles(
      const codegen::CompiledModel& model) const override {
    auto files = QemuPlatform::projectFiles(model);
    files.push_back({"platform/broken.c", "#error this file is deliberately broken\n"});
    return files;
  }
};

// The AN385 firmware of one model, presented as the firmware of any model
// (a board flashed with something else).
class StaleFirmwareBoard : public platforms::QemuPlatform {
 public:
  StaleFirmwareBoard(const platforms::QemuPlatform& board, const codegen::CompiledModel& flashed)
      : QemuPlatform(board.board(), "qemu_mps2_an385"), flashed_(flashed) {}
  std::vector<deploy::ProjectFile> projectFiles(const codegen::CompiledModel&) const override {
    return QemuPlatform::projectFiles(flashed_);
  }

 private:
  const codegen::CompiledModel& flashed_;
};

deploy::DeploymentOptions cachedOptions() {
  deploy::DeploymentOptions options;
  options.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
  return options;
}

}  // namespace

class DeployErrors : public QObject {
  Q_OBJECT

  deploy::PlatformRegistry registry_ = platforms::builtinPlatformRegistry();
  codegen::CompiledModel kws_ = compileModel("kws_ref_model");
  codegen::CompiledModel hello_ = compileModel("hello_world_int8");

  template <typename Action>
  static DeployError expectDeployError(Action action) {
    try {
      action();
    } catch (const DeployError& error) {
      return error;
    }
    throw std::runtime_error("no DeployError was thrown");
  }

 private slots:
  // Known before building: kws's workspace alone is twice the 8 KB.
  void modelTooLargeIsRefusedBeforeBuilding() {
    const SmallDataBoard board(an547(registry_), 8 * 1024);
    const std::filesystem::path cache =
        std::filesystem::path(LOUPE_DEPLOY_TEST_CACHE) / "refused-before-building";
    const auto error =
        expectDeployError([&] { deploy::buildFirmware(board, kws_, {.cacheRoot = cache}); });
    QVERIFY2(error.kind() == DeployError::Kind::DoesNotFit, error.what());
    const QString message = error.what();
    QVERIFY2(message.contains("does not fit qemu-mps3-an547: its DTCM memory (8,192 bytes, for "
                              "data stack) needs at least "),
             error.what());
    QVERIFY2(message.contains("(workspace 16,256, "), error.what());
    const QRegularExpressionMatch short_ =
        QRegularExpression("([\\d,]+) bytes short").match(message);
    QVERIFY2(short_.hasMatch(), error.what());
    QVERIFY(short_.captured(1).remove(u',').toLongLong() >= 16256 - 8192);
    QVERIFY(!std::filesystem::exists(cache));  // nothing generated, nothing built
  }

  // Found by the linker: its complaint said with the board's memory.
  void modelTooLargeNamesMemoryAndBytes() {
    const SmallDataBoard board(an547(registry_), 8 * 1024, /*checkBeforeBuilding=*/false);
    const auto error = expectDeployError(
        [&] { deploy::buildFirmware(board, kws_, {.cacheRoot = LOUPE_DEPLOY_TEST_CACHE}); });
    QVERIFY2(error.kind() == DeployError::Kind::DoesNotFit, error.what());
    const QString message = error.what();
    QVERIFY2(message.contains("does not fit qemu-mps3-an547"), error.what());
    QVERIFY2(message.contains("DTCM memory (8 KB, for data stack)"), error.what());
    const QRegularExpressionMatch short_ =
        QRegularExpression("is (\\d+) bytes short").match(message);
    QVERIFY2(short_.hasMatch(), error.what());
    // kws needs a 16,256-byte workspace in data memory: at least 8 KB short.
    QVERIFY(short_.captured(1).toLongLong() >= 16256 - 8192);
  }

  void missingToolNamesPackage() {
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", "/loupe-nowhere");
    const auto error = expectDeployError([&] {
      deploy::buildFirmware(*registry_.find("qemu-mps2-an385"), hello_,
                            {.cacheRoot = LOUPE_DEPLOY_TEST_CACHE});
    });
    qputenv("PATH", path);
    QCOMPARE(error.kind(), DeployError::Kind::ToolMissing);
    QVERIFY2(QString(error.what())
                 .contains("arm-none-eabi-gcc (install the Debian package gcc-arm-none-eabi)"),
             error.what());
    QVERIFY2(QString(error.what())
                 .contains("qemu-system-arm (install the Debian package "
                           "qemu-system-arm)"),
             error.what());
  }

  void failedBuildShowsCompilerOutput() {
    const BrokenBuildBoard board(an547(registry_));
    const auto error = expectDeployError(
        [&] { deploy::buildFirmware(board, hello_, {.cacheRoot = LOUPE_DEPLOY_TEST_CACHE}); });
    QCOMPARE(error.kind(), DeployError::Kind::BuildFailed);
    QVERIFY2(QString(error.what()).contains("this file is deliberately broken"), error.what());
    QVERIFY2(QString(error.what()).contains("platform/broken.c"), error.what());
  }

  void aStopKillsTheProgramItInterrupts() {
    std::stop_source stop;
    std::thread canceller([&stop] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stop.request_stop();
    });
    const auto result = deploy::runProcess({"sleep", "60"}, std::filesystem::temp_directory_path(),
                                           std::chrono::minutes(5), stop.get_token());
    canceller.join();
    QVERIFY(result.cancelled);
    QVERIFY(!result.timedOut);
    QCOMPARE(result.exitCode, -1);
    QCOMPARE(result.signal, SIGKILL);
  }

  void aStoppedDeploymentBuildsAndStartsNothing() {
    std::stop_source stop;
    stop.request_stop();
    deploy::DeploymentOptions options = cachedOptions();
    options.stop = stop.get_token();
    std::vector<std::string> stages;
    const auto error = expectDeployError([&] {
      deploy::Deployment deployment(
          an547(registry_), kws_, options,
          [&stages](const std::string& stage, const std::string&) { stages.push_back(stage); });
    });
    QCOMPARE(error.kind(), DeployError::Kind::Cancelled);
    QCOMPARE(QString(error.what()), "cancelled before build");
    QVERIFY(stages.empty());
  }

  void boardServingAnotherModelIsRefused() {
    const StaleFirmwareBoard board(
        dynamic_cast<const platforms::QemuPlatform&>(*registry_.find("qemu-mps2-an385")), hello_);
    const auto error =
        expectDeployError([&] { deploy::Deployment deployment(board, kws_, cachedOptions()); });
    QCOMPARE(error.kind(), DeployError::Kind::Mismatch);
    QVERIFY2(QString(error.what()).contains("inputs of [1]"), error.what());
    QVERIFY2(QString(error.what()).contains("flash the firmware generated for this model"),
             error.what());
  }

  void qemuThatCannotStartIsReported() {
    const auto& board = an547(registry_);
    const auto error = expectDeployError(
        [&] { board.start("/loupe-nowhere/firmware.elf", deploy::StartOptions{}); });
    QCOMPARE(error.kind(), DeployError::Kind::StartFailed);
    QVERIFY2(QString(error.what()).contains("/loupe-nowhere/firmware.elf does not exist"),
             error.what());

    // Not an ELF: QEMU starts, takes the connection, then gives up; the
    // session says so with QEMU's own words.
    QTemporaryDir dir;
    const QString bogus = dir.filePath("firmware.elf");
    QFile file(bogus);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("this is not an ELF file\n");
    file.close();
    auto link = board.start(bogus.toStdString(), deploy::StartOptions{});
    host::Session session(*link);
    try {
      session.start();
      QFAIL("a handshake with a QEMU that could not load its firmware succeeded");
    } catch (const host::SessionError& e) {
      QVERIFY2(e.kind() == host::SessionErrorKind::LinkClosed, e.what());
      // QEMU either refuses the file or aborts on the garbage it ran.
      QVERIFY2(
          QRegularExpression("qemu-system-arm (exited with status|was killed by signal) \\d+: ")
              .match(e.what())
              .hasMatch(),
          e.what());
    }
  }

  void serialNeedsAPortThatExists() {
    const auto& serial = *registry_.find("serial");
    auto error = expectDeployError([&] { serial.start({}, deploy::StartOptions{}); });
    QCOMPARE(error.kind(), DeployError::Kind::StartFailed);
    QVERIFY2(QString(error.what()).contains("--port"), error.what());
    deploy::StartOptions options;
    options.port = "/dev/loupe-no-such-tty";
    error = expectDeployError([&] { serial.start({}, options); });
    QCOMPARE(error.kind(), DeployError::Kind::StartFailed);
    QVERIFY2(QString(error.what()).contains("/dev/loupe-no-such-tty"), error.what());
  }

  void unknownPlatformListsKnownOnes() {
    const auto error = expectDeployError([&] { registry_.find("qemu-mars"); });
    QCOMPARE(error.kind(), DeployError::Kind::UnknownPlatform);
    for (const char* name : {"host", "qemu-mps2-an385", "qemu-mps3-an547", "serial"}) {
      QVERIFY2(QString(error.what()).contains(name), error.what());
    }
  }
};

QTEST_GUILESS_MAIN(DeployErrors)
#include "deploy_errors_test.moc"
