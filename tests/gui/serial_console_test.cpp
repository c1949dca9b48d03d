// The Serial Console dock (models::SerialConsole, views::SerialConsolePanel)
// on a pseudo-terminal standing in for a board's USB serial port: what the
// board prints shows as text and as hex, a typed line reaches the board, a
// run on the same port borrows it and gives it back, the board's LOG lines
// of a run are shown, a port that cannot be opened says why. And the Deploy
// panel with a real board: its serial row and its project options.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/serial_console.h"
#include "quiet_main_window.h"
#include "views/deploy_panel.h"
#include "views/serial_console_panel.h"

using loupe::gui::MainWindow;

namespace {

// The board's end of the link.
struct FakeBoard {
  int master = -1;
  QString port;

  FakeBoard() {
    int slave = -1;
    char name[256] = {};
    termios raw{};
    cfmakeraw(&raw);
    if (openpty(&master, &slave, name, &raw, nullptr) != 0) return;
    ::close(slave);
    port = QString::fromLocal8Bit(name);
  }
  ~FakeBoard() {
    if (master >= 0) ::close(master);
  }
  void print(const QByteArray& bytes) const {
    QVERIFY(::write(master, bytes.constData(), static_cast<size_t>(bytes.size())) == bytes.size());
  }
  // What the console sent, waiting up to a second for `count` bytes.
  QByteArray received(qsizetype count) const {
    QByteArray bytes;
    QElapsedTimer clock;
    clock.start();
    while (bytes.size() < count && clock.elapsed() < 1000) {
      QCoreApplication::processEvents();
      pollfd fd{master, POLLIN, 0};
      if (::poll(&fd, 1, 20) > 0) {
        char buffer[256];
        const ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n > 0) bytes.append(buffer, n);
      }
    }
    return bytes;
  }
};

}  // namespace

class SerialConsoleTest : public QObject {
  Q_OBJECT

 private slots:
  void showsWhatTheBoardPrintsAsTextAndHex() {
    FakeBoard board;
    QVERIFY(!board.port.isEmpty());
    MainWindow window(quietOptions());
    loupe::models::SerialConsole* console = window.serialConsole();
    loupe::views::SerialConsolePanel* panel = window.serialConsolePanel();
    panel->portBox()->setCurrentText(board.port);
    panel->findChild<QPushButton*>("consoleOpenButton")->click();
    QVERIFY2(console->isOpen(), qPrintable(console->errorString()));

    QSignalSpy data(console, &loupe::models::SerialConsole::dataReceived);
    board.print("loupe board ready\r\n");
    QTRY_VERIFY(console->received().contains("ready\r\n"));
    QTRY_VERIFY(panel->output()->toPlainText().contains("loupe board ready\n"));
    panel->modeBox()->setCurrentIndex(1);  // hex: "loupe" is 6c 6f 75 70 65
    QVERIFY(panel->output()->toPlainText().startsWith("6c 6f 75 70 65 20"));
    panel->modeBox()->setCurrentIndex(0);

    // A typed line reaches the board with a line feed.
    auto* line = panel->findChild<QLineEdit*>("consoleLine");
    line->setText("status");
    QTest::keyClick(line, Qt::Key_Return);
    QCOMPARE(board.received(7), QByteArray("status\n"));
    QVERIFY(line->text().isEmpty());

    // A run on the same port borrows it and gives it back afterwards.
    QVERIFY(window.deployPanel()->selectPlatform("serial"));
    emit window.deployPanel()->aboutToRun(board.port);
    QVERIFY(!console->isOpen());
    QVERIFY(console->hasYielded());
    console->appendBoardLog("abort 0x00000005");
    QTRY_VERIFY(panel->output()->toPlainText().contains("[board] abort 0x00000005"));
    console->reclaimPort();
    QVERIFY(console->isOpen());
    board.print("back again\n");
    QTRY_VERIFY(panel->output()->toPlainText().contains("back again"));
    // Another port is not the console's: nothing to give up.
    QVERIFY(!console->yieldPort("/dev/ttyLOUPE_NONE"));
    QVERIFY(console->isOpen());

    if (qEnvironmentVariableIsSet("LOUPE_TEST_SCREENSHOTS")) {
      window.openModel(loupe::test::kwsModelPath());
      QVERIFY(window.waitUntilIdle());
      board.print("model kws_ref_model: 12 operators, arena 16256 B\n");
      QTRY_VERIFY(panel->output()->toPlainText().contains("16256 B"));
      console->appendBoardLog("profiler: 12 operators, 592 ms");
      window.resize(1600, 1000);
      window.showView("console");
      window.grab().save(qEnvironmentVariable("LOUPE_TEST_SCREENSHOTS") + "/serial_console.png");
    }
  }

  void aPortThatCannotBeOpenedSaysWhy() {
    loupe::models::SerialConsole console;
    QVERIFY(!console.open("/dev/ttyLOUPE_NO_SUCH_PORT", 115200));
    QVERIFY2(console.errorString().startsWith("cannot open /dev/ttyLOUPE_NO_SUCH_PORT: "),
             qPrintable(console.errorString()));
    QVERIFY(!console.sendLine("x"));
  }

  void theDeployPanelOffersARealBoardsOptions() {
    MainWindow window(quietOptions());
    window.openModel(loupe::test::kwsModelPath());
    QVERIFY(window.waitUntilIdle());
    loupe::views::DeployPanel* panel = window.deployPanel();
    QVERIFY(panel->selectPlatform("nucleo-l4r5zi"));
    auto* programmer = panel->findChild<QComboBox*>("option_programmer");
    QVERIFY(programmer);
    QCOMPARE(programmer->currentText(), QString("openocd"));
    QStringList choices;
    for (int i = 0; i < programmer->count(); ++i) choices << programmer->itemText(i);
    QCOMPARE(choices, QStringList({"openocd", "st-flash", "dfu-util"}));
    QVERIFY(panel->findChild<QLineEdit*>("option_probe_serial"));
    QVERIFY(panel->portBox()->isVisibleTo(panel));
    programmer->setCurrentText("st-flash");
    panel->portBox()->setCurrentText("/dev/ttyACM0");
    QVERIFY(window.waitUntilIdle());  // the views recompiled for its Cortex-M4
    if (qEnvironmentVariableIsSet("LOUPE_TEST_SCREENSHOTS")) {
      window.resize(1600, 1000);
      window.showView("deploy");
      window.grab().save(qEnvironmentVariable("LOUPE_TEST_SCREENSHOTS") + "/deploy_real_board.png");
    }
    // The host has no options and no port.
    QVERIFY(panel->selectPlatform("host"));
    QVERIFY(!panel->findChild<QComboBox*>("option_programmer"));
    QVERIFY(!panel->portBox()->isVisibleTo(panel));
  }
};

QTEST_MAIN(SerialConsoleTest)
#include "serial_console_test.moc"
