// A damaged link between the host and a real board firmware (the kws model on
// the QEMU Cortex-M3): dropped bytes, corrupted bytes and garbage before the
// handshake are recovered from, and the outputs still match the reference; a
// link too damaged to use and a board killed mid-run end in a clear error
// within the time-outs, never a hang.
#include <QtTest>

#include <signal.h>

#include <chrono>
#include <thread>

#include "codegen/model_compiler.h"
#include "deploy/deployment.h"
#include "fault_injecting_transport.h"
#include "frontend/tflite_importer.h"
#include "passes/pass_manager.h"
#include "platforms/builtin_platforms.h"
#include "platforms/qemu_link.h"
#include "reference/reference_interpreter.h"
#include "session_error.h"
#include "test_data.h"

using namespace loupe;
using Bytes = std::vector<std::uint8_t>;

class DeployFaults : public QObject {
  Q_OBJECT

  deploy::PlatformRegistry registry_ = platforms::builtinPlatformRegistry();
  ir::Graph graph_;
  codegen::CompiledModel model_;
  Bytes input_;
  Bytes expected_;
  host::FaultInjectingTransport* faults_ = nullptr;  // owned by the deployment

  deploy::DeploymentOptions options(host::FaultInjectionOptions faults) {
    deploy::DeploymentOptions options;
    options.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    options.session.responseTimeout = std::chrono::milliseconds(1000);
    options.interpose = [this, faults](host::Transport& link) {
      auto transport = std::make_unique<host::FaultInjectingTransport>(link, faults);
      faults_ = transport.get();
      return transport;
    };
    return options;
  }

  std::unique_ptr<deploy::Deployment> deploy(host::FaultInjectionOptions faults) {
    return std::make_unique<deploy::Deployment>(*registry_.find("qemu-mps2-an385"), model_,
                                                options(std::move(faults)));
  }

 private slots:
  void initTestCase() {
    const auto path = test::modelsDir() / "kws_ref_model" / "model.tflite";
    graph_ = frontend::importTfliteFile(path);
    passes::StageTimeline timeline;
    model_ = codegen::compileToC(passes::runGraphPipeline(graph_, timeline), {});
    input_ =
        test::readBytes(test::modelsDir() / "kws_ref_model" / "golden" / "seed1" / "input0.bin");
    reference::ReferenceInterpreter interpreter(graph_);
    interpreter.setInput(0, input_);
    interpreter.invoke();
    const auto output = interpreter.output(0);
    expected_.assign(output.begin(), output.end());
  }

  // Bytes lost and bits flipped at fixed places in both directions, inside
  // the handshake, the input transfer and the responses.
  void recoversFromDroppedAndCorruptedBytes() {
    host::FaultInjectionOptions faults;
    faults.toBoard.dropAt = {3, 120, 610};
    faults.toBoard.corruptAt = {40, 400};
    faults.fromBoard.dropAt = {2, 30};
    faults.fromBoard.corruptAt = {20, 45};
    auto deployment = deploy(faults);
    const auto outputs = deployment->run({input_});
    QCOMPARE(outputs.at(0), expected_);
    const auto& injected = faults_->injected();
    QCOMPARE(injected.droppedToBoard, std::size_t{3});
    QCOMPARE(injected.corruptedToBoard, std::size_t{2});
    QVERIFY(injected.droppedFromBoard + injected.corruptedFromBoard >= 3);
    QVERIFY(deployment->statistics().retries + deployment->statistics().startsSent > 1);
  }

  // Random damage (3 in 10,000 bytes each way, each kind), over several runs.
  void recoversFromRandomNoise() {
    host::FaultInjectionOptions faults;
    faults.seed = 7;
    faults.toBoard.dropRate = 0.0003;
    faults.toBoard.corruptRate = 0.0003;
    faults.fromBoard.dropRate = 0.0003;
    faults.fromBoard.corruptRate = 0.0003;
    auto deployment = deploy(faults);
    for (int run = 0; run < 5; ++run) QCOMPARE(deployment->run({input_}).at(0), expected_);
    const auto& injected = faults_->injected();
    QVERIFY(injected.droppedToBoard + injected.corruptedToBoard + injected.droppedFromBoard +
                injected.corruptedFromBoard >
            0);
  }

  // A boot banner and line noise (with stray start markers) before the board
  // answers the handshake.
  void garbageBeforeHandshake() {
    host::FaultInjectionOptions faults;
    for (int i = 0; i < 300; ++i)
      faults.garbageBeforeFirstRead.push_back(static_cast<std::uint8_t>(i * 37 + 11));
    faults.garbageBeforeFirstRead.push_back(0x7E);
    auto deployment = deploy(faults);
    QCOMPARE(deployment->run({input_}).at(0), expected_);
    QVERIFY(deployment->statistics().framing.garbageBytes > 0 ||
            deployment->statistics().framing.droppedFrames() > 0);
  }

  // Every byte from the board damaged: the session gives up with a clear
  // error after its retries instead of hanging.
  void hopelessLinkFailsClearly() {
    auto deployment = deploy({});
    host::FaultPlan corruptHalf;
    corruptHalf.corruptRate = 0.5;
    faults_->setPlans({}, corruptHalf);
    const auto start = std::chrono::steady_clock::now();
    try {
      deployment->run({input_});
      QFAIL("a run over a link that corrupts every other byte succeeded");
    } catch (const host::SessionError& error) {
      QVERIFY2(error.kind() == host::SessionErrorKind::CorruptedBeyondRetry ||
                   error.kind() == host::SessionErrorKind::NoResponse,
               error.what());
    }
    // 4 attempts of 1 s each, plus slack.
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }

  // QEMU killed while the model runs: the run fails within the time-out with
  // a message saying how the board died.
  void killedBoardIsReported() {
    auto deployment = deploy({});
    auto* link = dynamic_cast<platforms::QemuLink*>(&deployment->link());
    QVERIFY(link != nullptr);
    const pid_t pid = link->process().pid();
    std::thread killer([pid] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ::kill(pid, SIGKILL);
    });
    const auto start = std::chrono::steady_clock::now();
    bool failed = false;
    try {
      for (int run = 0; run < 100; ++run) deployment->run({input_});
    } catch (const host::SessionError& error) {
      failed = true;
      QVERIFY2(error.kind() == host::SessionErrorKind::LinkClosed, error.what());
      QVERIFY2(QString(error.what()).contains("killed by signal 9"), error.what());
    }
    killer.join();
    QVERIFY(failed);
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  }
};

QTEST_GUILESS_MAIN(DeployFaults)
#include "deploy_faults_test.moc"
