// The `serial` platform end to end without a board on the desk: the host
// platform's firmware (the same RPC server the boards run) is started by hand
// on the master side of a pseudo-terminal, as a board flashed by hand would
// be sitting on a USB serial port, and Loupe reaches it through the slave
// tty (termios, raw 8N1) by its path.
#include <QtTest>

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "codegen/model_compiler.h"
#include "deploy/deployment.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "platforms/builtin_platforms.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

extern char** environ;

using namespace loupe;

class DeploySerial : public QObject {
  Q_OBJECT

 private slots:
  void runsOverATty() {
    const auto registry = platforms::builtinPlatformRegistry();
    const auto path = test::modelsDir() / "kws_ref_model" / "model.tflite";
    const ir::Graph graph = frontend::importTfliteFile(path);
    passes::StageTimeline timeline;
    const auto model = codegen::compileToC(passes::runGraphPipeline(graph, timeline), {});
    // "Flash" the board: build the firmware the host platform would run.
    const auto firmware = deploy::buildFirmware(*registry.find("host"), model,
                                                {.cacheRoot = LOUPE_DEPLOY_TEST_CACHE});

    int master = -1, slave = -1;
    QVERIFY(::openpty(&master, &slave, nullptr, nullptr, nullptr) == 0);
    termios raw{};
    QVERIFY(::tcgetattr(slave, &raw) == 0);
    ::cfmakeraw(&raw);
    QVERIFY(::tcsetattr(slave, TCSANOW, &raw) == 0);
    const std::string port = ::ttyname(slave);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, master, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, master, STDOUT_FILENO);
    const std::string program = firmware.firmware.string();
    char* argv[] = {const_cast<char*>(program.c_str()), nullptr};
    pid_t board = -1;
    QCOMPARE(::posix_spawn(&board, program.c_str(), &actions, nullptr, argv, environ), 0);
    posix_spawn_file_actions_destroy(&actions);

    const std::vector<std::uint8_t> input =
        test::readBytes(test::modelsDir() / "kws_ref_model" / "golden" / "seed2" / "input0.bin");
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, input);
    interpreter.invoke();
    const auto expected = interpreter.output(0);
    try {
      deploy::DeploymentOptions options;
      options.start.port = port;
      options.start.baud = 115200;
      deploy::Deployment deployment(*registry.find("serial"), model, options);
      QVERIFY2(deployment.transport().describe().find(port) != std::string::npos,
               deployment.transport().describe().c_str());
      const auto outputs = deployment.run({input});
      QVERIFY(
          std::equal(outputs.at(0).begin(), outputs.at(0).end(), expected.begin(), expected.end()));
      QCOMPARE(QString::fromStdString(deployment.profile().unit), QString("ns"));
      QCOMPARE(deployment.profile().operators.size(), model.calls.size());
    } catch (const std::exception& e) {
      ::kill(board, SIGKILL);
      ::waitpid(board, nullptr, 0);
      QFAIL(e.what());
    }
    ::kill(board, SIGKILL);
    ::waitpid(board, nullptr, 0);
    ::close(slave);
    ::close(master);
  }
};

QTEST_GUILESS_MAIN(DeploySerial)
#include "deploy_serial_test.moc"
