// A third-party platform through the Project API (docs/project_api.md): a
// Python server (project_api/an385_api_server.py) in a folder on
// $LOUPE_BOARDS_PATH builds the model for the MPS2 AN385 with its own
// commands, runs it under QEMU and carries the session's bytes; `loupec run
// --platform python-an385` must be bit-exact through it. Servers that hang,
// answer garbage or crash fail within their time-out, naming the platform
// and the method.
#include <signal.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include "deploy/deploy_error.h"
#include "deploy/deployment.h"
#include "driver/compile_driver.h"
#include "frontend/tflite_importer.h"
#include "platforms/board_folders.h"
#include "platforms/builtin_platforms.h"
#include "platforms/project_api_platform.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "test_data.h"

namespace fs = std::filesystem;
using namespace loupe;
using deploy::DeployError;

namespace {

// A platform folder whose server is the Python script in `mode`.
void writePlatformFolder(const fs::path& folder, const std::string& name, const std::string& mode) {
  fs::create_directories(folder);
  const nlohmann::json description = {
      {"name", name},
      {"description",
       "the MPS2 AN385 under QEMU, served by a Python Project API server (" + mode + ")"},
      {"server", {"python3", LOUPE_API_SERVER_SCRIPT, LOUPE_PLATFORMS_DIR, mode}}};
  std::ofstream(folder / "platform.json") << description.dump(2);
}

}  // namespace

class ProjectApi : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  fs::path boards_;

  std::shared_ptr<const deploy::Platform> platform(const std::string& name) {
    return platforms::builtinPlatformRegistry().find(name);
  }

  codegen::CompiledModel compiled(const std::string& model, const deploy::Platform& platform) {
    driver::CompileRequest request{
        frontend::importTfliteFile(test::modelsDir() / model / "model.tflite"),
        target::parseTargetString("c", targets::builtinTargetRegistry()),
        {},
        platform.cpu()};
    return driver::compileModel(std::move(request)).model;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    boards_ = fs::path(dir_.path().toStdString()) / "boards";
    writePlatformFolder(boards_ / "python_an385", "python-an385", "normal");
    writePlatformFolder(boards_ / "python_garbage", "python-garbage", "garbage");
    writePlatformFolder(boards_ / "python_crash", "python-crash", "crash-on-build");
    writePlatformFolder(boards_ / "python_hang", "python-hang", "hang");
    // A folder whose platform.json names no server is skipped with the reason.
    fs::create_directories(boards_ / "python_broken");
    std::ofstream(boards_ / "python_broken" / "platform.json")
        << R"({"name": "x", "description": "y"})";
    qputenv("LOUPE_BOARDS_PATH", QByteArray::fromStdString(boards_.string()));
  }

  void theServerDescribesThePlatform() {
    const auto python = platform("python-an385");
    QCOMPARE(python->cpu(), std::string("cortex-m3"));
    QVERIFY2(python->problem().empty(), python->problem().c_str());
    const auto options = python->projectOptions();
    QCOMPARE(options.size(), std::size_t{1});
    QCOMPARE(options[0].name, std::string("qemu"));
    QCOMPARE(options[0].defaultValue, std::string("qemu-system-arm"));

    deploy::PlatformRegistry registry;
    const auto problems = platforms::addBoardFolders(registry, boards_);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].find("python_broken: skipped: platform.json: expected 'server'") !=
                 std::string::npos,
             problems[0].c_str());
  }

  // What a user does: loupec run with the platform's name, bit-exact.
  void loupecRunsAModelThroughTheServer() {
    const fs::path golden = test::modelsDir() / "kws_ref_model" / "golden" / "real1";
    const QString out = dir_.path() + "/run-kws";
    QProcess loupec;
    loupec.setProcessChannelMode(QProcess::MergedChannels);
    loupec.start(
        LOUPEC_PATH,
        {"run",
         QString::fromStdString((test::modelsDir() / "kws_ref_model" / "model.tflite").string()),
         "--platform", "python-an385", "--option", "qemu=qemu-system-arm", "--inputs",
         QString::fromStdString((golden / "input0.bin").string()), "--output-dir", out});
    QVERIFY(loupec.waitForFinished(600000));
    const QString output = QString::fromUtf8(loupec.readAll());
    QVERIFY2(loupec.exitCode() == 0, qPrintable(output));
    QVERIFY2(output.contains("outputs agree with the reference interpreter (bit-exact)"),
             qPrintable(output));
    std::ifstream produced((out + "/output0.bin").toStdString(), std::ios::binary);
    std::ifstream expected(golden / "output0.bin", std::ios::binary);
    const std::string a{std::istreambuf_iterator<char>(produced), {}};
    const std::string b{std::istreambuf_iterator<char>(expected), {}};
    QVERIFY(!a.empty());
    QVERIFY(a == b);

    QProcess list;
    list.start(LOUPEC_PATH, {"platforms"});
    QVERIFY(list.waitForFinished(120000));
    const QString platforms = QString::fromUtf8(list.readAllStandardOutput());
    QVERIFY2(platforms.contains("python-an385\n    ready: the MPS2 AN385 under QEMU"),
             qPrintable(platforms));
    QVERIFY2(platforms.contains("--option qemu=VALUE: the QEMU to run the board with"),
             qPrintable(platforms));
    QVERIFY2(platforms.contains("python-garbage\n    unavailable (platform python-garbage: "
                                "server_info_query: "),
             qPrintable(platforms));
  }

  // Loupe killed mid-run (SIGKILL: nothing can clean up) takes the server
  // with it, and the server's QEMU goes with the server.
  void killingLoupecLeavesNoBoardBehind() {
    const QString cache = dir_.path() + "/kill-cache";
    const fs::path golden = test::modelsDir() / "kws_ref_model" / "golden" / "real1";
    QProcess loupec;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("XDG_CACHE_HOME", cache);  // the firmware path QEMU runs is unique
    loupec.setProcessEnvironment(environment);
    loupec.setProcessChannelMode(QProcess::MergedChannels);
    loupec.start(
        LOUPEC_PATH,
        {"run",
         QString::fromStdString((test::modelsDir() / "kws_ref_model" / "model.tflite").string()),
         "--platform", "python-an385", "--inputs",
         QString::fromStdString((golden / "input0.bin").string()), "--output-dir",
         dir_.path() + "/run-killed"});
    QString output;
    QElapsedTimer clock;
    clock.start();
    while (!output.contains("[connect] handshake") && clock.elapsed() < 300000 &&
           loupec.state() != QProcess::NotRunning) {
      loupec.waitForReadyRead(100);
      output += QString::fromUtf8(loupec.readAll());
    }
    QVERIFY2(output.contains("[connect] handshake"), qPrintable(output));
    auto boardsRunning = [&cache] {
      int count = 0;
      for (const auto& entry : fs::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline", std::ios::binary);
        const std::string arguments{std::istreambuf_iterator<char>(in), {}};
        if (arguments.starts_with("qemu-system-arm") &&
            arguments.find(cache.toStdString()) != std::string::npos) {
          ++count;
        }
      }
      return count;
    };
    QCOMPARE(boardsRunning(), 1);  // the server's QEMU runs the board
    ::kill(static_cast<pid_t>(loupec.processId()), SIGKILL);
    QVERIFY(loupec.waitForFinished(10000));
    QTRY_COMPARE_WITH_TIMEOUT(boardsRunning(), 0, 10000);
  }

  void aServerThatAnswersGarbageIsNamed() {
    const auto garbage = platform("python-garbage");
    const std::string problem = garbage->problem();
    QVERIFY2(problem.starts_with("platform python-garbage: server_info_query: the API server "
                                 "answered with something that is not JSON-RPC 2.0: 'hello, this "
                                 "is not JSON'"),
             problem.c_str());
  }

  void aServerThatHangsTimesOut() {
    platforms::ProjectApiPlatform::Timeouts timeouts;
    timeouts.info = std::chrono::milliseconds(1500);
    const platforms::ProjectApiPlatform hang(boards_ / "python_hang", timeouts);
    QElapsedTimer clock;
    clock.start();
    const std::string problem = hang.problem();
    QVERIFY2(problem.starts_with("platform python-hang: server_info_query: no answer within 1.5"),
             problem.c_str());
    QVERIFY(clock.elapsed() < 5000);  // the time-out, then the server is killed
  }

  void aServerThatCrashesFailsTheBuild() {
    const auto crash = platform("python-crash");
    const auto model = compiled("hello_world_int8", *crash);
    deploy::DeploymentOptions options;
    options.build.cacheRoot = dir_.path().toStdString() + "/cache";
    try {
      deploy::Deployment deployment(*crash, model, options);
      QFAIL("a server that crashes in build must fail the deployment");
    } catch (const DeployError& error) {
      QCOMPARE(error.kind(), DeployError::Kind::BuildFailed);
      const std::string message = error.what();
      QVERIFY2(message.starts_with("platform python-crash: build: the API server closed its output "
                                   "(the server exited with status 3)"),
               error.what());
      QVERIFY2(message.find("crashing in build as asked") != std::string::npos, error.what());
    }
  }
};

QTEST_GUILESS_MAIN(ProjectApi)
#include "project_api_test.moc"
