// Closing the window while Run on board is in flight (the BoardRun is
// destroyed with it) leaves no make, no qemu-system-arm and no temporary
// folder: checked by the children's PIDs in /proc, during a cold firmware
// build (which stops at once rather than running on) and during a run on
// QEMU.
#include <unistd.h>

#include <QElapsedTimer>
#include <QtTest>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

#include "gui_test_files.h"
#include "models/board_run.h"
#include "models/model_document.h"
#include "process_table.h"

using loupe::models::BoardRun;
using loupe::models::ModelDocument;
using loupe::test::ProcessStat;

namespace {

constexpr int kRunTimeoutMs = 600000;  // a cold firmware build on a busy machine

std::optional<ProcessStat> waitForChild(const std::string& command, const BoardRun& run) {
  std::optional<ProcessStat> child;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (!child && run.isWorking() && std::chrono::steady_clock::now() < deadline) {
    child = loupe::test::liveChild(::getpid(), command);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return child;
}

BoardRun::Request onQemu() {
  BoardRun::Request request;
  request.platform = QStringLiteral("qemu-mps2-an385");
  return request;
}

}  // namespace

class BoardRunCloseTest : public QObject {
  Q_OBJECT

  QTemporaryDir cacheDir_;
  ModelDocument document_;

  std::string buildFolders() const {
    return cacheDir_.path().toStdString() + "/loupe/firmware/qemu-mps2-an385";
  }

 private slots:
  void initTestCase() {
    QVERIFY(cacheDir_.isValid());
    qputenv("XDG_CACHE_HOME", cacheDir_.path().toUtf8());
    QVERIFY(document_.open(loupe::test::kwsModelPath()));
  }

  void closingDuringAColdBuildKillsMakeAndRemovesItsFolder() {
    auto run = std::make_unique<BoardRun>(&document_, *loupe::test::registries());
    QVERIFY(run->start(onQemu()));
    const auto make = waitForChild("make", *run);
    QVERIFY2(make, "no make was started");
    QVERIFY(QTest::qWaitFor([&] { return loupe::test::liveGroupMembers(make->pid) > 1; }, 10000));
    QElapsedTimer closing;
    closing.start();
    run.reset();  // what closing the window does
    // Stopped, not waited for: the build did not run on to the cache.
    QVERIFY2(closing.elapsed() < 4000, qPrintable(QString::number(closing.elapsed())));
    QVERIFY(loupe::test::isGone(*make));
    QCOMPARE(loupe::test::liveGroupMembers(make->pid), 0);
    QVERIFY(loupe::test::entriesStartingWith(buildFolders(), "").empty());
  }

  void closingDuringAQemuRunKillsQemuAndRemovesItsFolder() {
    {
      BoardRun warmUp(&document_, *loupe::test::registries());
      QVERIFY(warmUp.start(onQemu()));
      QVERIFY(warmUp.waitUntilIdle(kRunTimeoutMs));
      QVERIFY2(warmUp.state() == BoardRun::State::Succeeded, qPrintable(warmUp.errorMessage()));
    }
    auto run = std::make_unique<BoardRun>(&document_, *loupe::test::registries());
    QVERIFY(run->start(onQemu()));
    const auto qemu = waitForChild("qemu-system-arm", *run);
    QVERIFY2(qemu, "no qemu-system-arm was started");
    run.reset();
    QVERIFY(loupe::test::isGone(*qemu));
    const std::string prefix = "loupe-qemu-" + std::to_string(::getpid()) + "-";
    QVERIFY(loupe::test::entriesStartingWith("/tmp", prefix).empty());
  }
};

QTEST_MAIN(BoardRunCloseTest)
#include "board_run_close_test.moc"
