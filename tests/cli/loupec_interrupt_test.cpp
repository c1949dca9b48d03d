// Killing loupec (SIGINT, SIGTERM, SIGKILL) while it builds firmware or runs
// it on QEMU leaves nothing behind: its make and qemu-system-arm children are
// gone (checked by their PIDs in /proc) and so are its temporary folders (a
// SIGKILL's folders by the next run, which sweeps them).
#include <signal.h>
#include <unistd.h>

#include <QtTest>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "process_table.h"
#include "test_data.h"

namespace {

namespace fs = std::filesystem;
using loupe::test::entriesStartingWith;
using loupe::test::isGone;
using loupe::test::liveGroupMembers;
using loupe::test::ProcessStat;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

template <typename Condition>
bool waitFor(Condition condition, milliseconds limit) {
  const auto deadline = steady_clock::now() + limit;
  while (!condition()) {
    if (steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return true;
}

QString model() {
  return QString::fromStdString(
      (loupe::test::modelsDir() / "hello_world_int8" / "model.tflite").string());
}

QString input() {
  return QString::fromStdString(
      (loupe::test::modelsDir() / "hello_world_int8" / "golden" / "seed1" / "input0.bin").string());
}

const char* const kBoard = "qemu-mps2-an385";

class Loupec {
 public:
  Loupec(const QString& cache, const QString& outputDir) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CACHE_HOME"), cache);
    process_.setProcessEnvironment(environment);
    process_.start(QStringLiteral(LOUPEC_PATH), {"run", model(), "--platform", kBoard, "--inputs",
                                                 input(), "--output-dir", outputDir});
  }
  bool waitForStarted() { return process_.waitForStarted(10000); }
  pid_t pid() const { return static_cast<pid_t>(process_.processId()); }
  bool running() const { return process_.state() != QProcess::NotRunning; }
  // Its child running `command`, once there is one (while loupec runs).
  std::optional<ProcessStat> waitForChild(const std::string& command, milliseconds limit) {
    std::optional<ProcessStat> child;
    waitFor(
        [&] {
          child = loupe::test::liveChild(pid(), command);
          return child.has_value() || !running();
        },
        limit);
    return child;
  }
  bool finish() { return process_.waitForFinished(120000); }
  int exitCode() const { return process_.exitCode(); }
  // Ended by a signal, not by returning an exit status.
  bool endedBySignal() const { return process_.exitStatus() == QProcess::CrashExit; }
  QByteArray errors() { return process_.readAllStandardError(); }
  QString output() {
    return QString::fromUtf8(process_.readAllStandardOutput() + process_.readAllStandardError());
  }

 private:
  QProcess process_;
};

fs::path buildFolderParent(const QTemporaryDir& cache) {
  return fs::path(cache.path().toStdString()) / "loupe" / "firmware" / kBoard;
}

}  // namespace

class LoupecInterrupt : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    // A cached build, so that a run reaches QEMU within a second.
    QVERIFY(warmCache_.isValid() && out_.isValid());
    Loupec warmUp(warmCache_.path(), out_.path());
    QVERIFY(warmUp.waitForStarted());
    QVERIFY(warmUp.finish());
    QVERIFY2(warmUp.exitCode() == 0, qPrintable(warmUp.output()));
  }

  void killDuringAColdBuild_data() { signals_(); }
  void killDuringAColdBuild() {
    QFETCH(int, signal);
    QTemporaryDir cache;
    Loupec loupec(cache.path(), out_.path());
    QVERIFY(loupec.waitForStarted());
    const auto make = loupec.waitForChild("make", milliseconds(60000));
    QVERIFY2(make, "loupec did not start make");
    // Into the build: make's compilers are running.
    QVERIFY(waitFor([&] { return liveGroupMembers(make->pid) > 1; }, milliseconds(10000)));
    const pid_t loupecPid = loupec.pid();
    QCOMPARE(::kill(loupecPid, signal), 0);
    QVERIFY(loupec.finish());
    // Ended by the signal once the cleanup was done, without an error about
    // the build it interrupted.
    QVERIFY(loupec.endedBySignal());
    QVERIFY2(loupec.errors().isEmpty(), loupec.errors().constData());
    QVERIFY2(waitFor([&] { return isGone(*make); }, milliseconds(2000)), "make outlived loupec");
    // A compiler make had started finishes its file at most.
    QVERIFY2(waitFor([&] { return liveGroupMembers(make->pid) == 0; }, milliseconds(15000)),
             "make's compilers outlived loupec");
    const fs::path parent = buildFolderParent(cache);
    if (signal == SIGKILL) {
      // Nothing could remove it; the next build sweeps it.
      QCOMPARE(entriesStartingWith(parent, "building-" + std::to_string(loupecPid) + "-").size(),
               std::size_t{1});
      Loupec next(cache.path(), out_.path());
      QVERIFY(next.waitForStarted());
      QVERIFY(next.waitForChild("make", milliseconds(60000)));
      QVERIFY(next.finish());
    }
    QVERIFY(entriesStartingWith(parent, "building-" + std::to_string(loupecPid) + "-").empty());
  }

  void killDuringAQemuRun_data() { signals_(); }
  void killDuringAQemuRun() {
    QFETCH(int, signal);
    Loupec loupec(warmCache_.path(), out_.path());
    QVERIFY(loupec.waitForStarted());
    const auto qemu = loupec.waitForChild("qemu-system-arm", milliseconds(60000));
    QVERIFY2(qemu, "loupec did not start qemu-system-arm");
    const pid_t loupecPid = loupec.pid();
    QCOMPARE(::kill(loupecPid, signal), 0);
    QVERIFY(loupec.finish());
    QVERIFY(loupec.endedBySignal());
    QVERIFY2(waitFor([&] { return isGone(*qemu); }, milliseconds(2000)),
             "qemu-system-arm outlived loupec");
    const std::string prefix = "loupe-qemu-" + std::to_string(loupecPid) + "-";
    if (signal == SIGKILL && !entriesStartingWith("/tmp", prefix).empty()) {
      // Killed before QEMU was connected (after it, the folder is gone
      // already): the next run sweeps it.
      Loupec next(warmCache_.path(), out_.path());
      QVERIFY(next.waitForStarted());
      QVERIFY(next.finish());
    }
    QVERIFY(entriesStartingWith("/tmp", prefix).empty());
  }

 private:
  void signals_() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT") << SIGINT;
    QTest::newRow("SIGTERM") << SIGTERM;
    QTest::newRow("SIGKILL") << SIGKILL;
  }

  QTemporaryDir warmCache_;
  QTemporaryDir out_;
};

QTEST_GUILESS_MAIN(LoupecInterrupt)
#include "loupec_interrupt_test.moc"
