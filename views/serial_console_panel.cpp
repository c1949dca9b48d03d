#include "views/serial_console_panel.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "models/serial_console.h"
#include "views/serial_port_box.h"

namespace loupe::views {

namespace {

constexpr int kHexBytesPerLine = 16;

// Text as a terminal would show it: control characters other than tab and
// line feed as the middle dot, carriage returns dropped.
QString printable(const QString& text) {
  QString out;
  out.reserve(text.size());
  for (const QChar c : text) {
    if (c == u'\r') continue;
    out += (c.unicode() < 0x20 && c != u'\n' && c != u'\t') ? QChar(0x00B7) : c;
  }
  return out;
}

}  // namespace

SerialConsolePanel::SerialConsolePanel(models::SerialConsole* console, QWidget* parent)
    : QWidget(parent),
      console_(console),
      port_(new SerialPortBox(this)),
      baud_(new QSpinBox(this)),
      openButton_(new QPushButton(tr("Open"), this)),
      mode_(new QComboBox(this)),
      state_(new QLabel(this)),
      output_(new QPlainTextEdit(this)),
      line_(new QLineEdit(this)),
      sendButton_(new QPushButton(tr("Send"), this)) {
  port_->comboBox()->setObjectName(QStringLiteral("consolePortBox"));
  openButton_->setObjectName(QStringLiteral("consoleOpenButton"));
  output_->setObjectName(QStringLiteral("consoleOutput"));
  line_->setObjectName(QStringLiteral("consoleLine"));
  baud_->setRange(1200, 4000000);
  baud_->setValue(115200);
  mode_->addItems({tr("Text"), tr("Hex")});
  auto* clear = new QToolButton(this);
  clear->setText(tr("Clear"));

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Port"), this));
  top->addWidget(port_, 1);
  top->addWidget(new QLabel(tr("Baud"), this));
  top->addWidget(baud_);
  top->addWidget(openButton_);
  top->addWidget(mode_);
  top->addWidget(clear);

  output_->setReadOnly(true);
  output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  output_->setMaximumBlockCount(20000);
  output_->setPlaceholderText(
      tr("Open a board's serial port to see what it prints. A run on the same port borrows it "
         "and gives it back; the board's LOG lines of a run show here as [board] lines."));
  line_->setPlaceholderText(tr("A line to send (Enter)"));
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(line_, 1);
  bottom->addWidget(sendButton_);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(state_);
  // The bottom docks it shares may be a few lines high.
  output_->setMinimumHeight(30);
  layout->addWidget(output_, 1);
  layout->addLayout(bottom);

  connect(openButton_, &QPushButton::clicked, this, &SerialConsolePanel::toggleOpen);
  connect(clear, &QToolButton::clicked, this, [this] {
    console_->clear();
    render();
  });
  connect(mode_, &QComboBox::currentIndexChanged, this, &SerialConsolePanel::render);
  connect(sendButton_, &QPushButton::clicked, this, &SerialConsolePanel::send);
  connect(line_, &QLineEdit::returnPressed, this, &SerialConsolePanel::send);
  connect(console_, &models::SerialConsole::dataReceived, this, &SerialConsolePanel::append);
  connect(console_, &models::SerialConsole::stateChanged, this, &SerialConsolePanel::updateState);
  render();
  updateState();
}

QComboBox* SerialConsolePanel::portBox() const {
  return port_->comboBox();
}

void SerialConsolePanel::toggleOpen() {
  if (console_->isOpen() || console_->hasYielded()) {
    console_->close();
  } else {
    console_->open(port_->port(), baud_->value());
  }
}

void SerialConsolePanel::send() {
  if (line_->text().isEmpty()) return;
  if (console_->sendLine(line_->text())) line_->clear();
  updateState();
}

QString SerialConsolePanel::hexLines(const QByteArray& bytes) const {
  QString text;
  qsizetype column = hexColumn_;
  for (const char byte : bytes) {
    if (column == kHexBytesPerLine) {
      text += u'\n';
      column = 0;
    }
    text += (column == 0 ? QString() : QStringLiteral(" ")) +
            QStringLiteral("%1").arg(static_cast<unsigned char>(byte), 2, 16, QLatin1Char('0'));
    ++column;
  }
  return text;
}

void SerialConsolePanel::append(const QByteArray& bytes) {
  QScrollBar* bar = output_->verticalScrollBar();
  const bool atEnd = bar->value() == bar->maximum();
  output_->moveCursor(QTextCursor::End);
  if (mode_->currentIndex() == 1) {
    output_->insertPlainText(hexLines(bytes));
    hexColumn_ = (hexColumn_ + bytes.size() - 1) % kHexBytesPerLine + 1;
  } else {
    // Decode whole UTF-8 sequences only: a character split between two
    // reads waits for its other half.
    pendingText_ += bytes;
    qsizetype complete = pendingText_.size();
    for (qsizetype back = 1; back <= 3 && back <= pendingText_.size(); ++back) {
      const auto c = static_cast<unsigned char>(pendingText_[pendingText_.size() - back]);
      if ((c & 0xC0) == 0x80) continue;  // a continuation byte: look further back
      const qsizetype length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (length > back) complete = pendingText_.size() - back;
      break;
    }
    output_->insertPlainText(printable(QString::fromUtf8(pendingText_.left(complete))));
    pendingText_.remove(0, complete);
  }
  if (atEnd) bar->setValue(bar->maximum());
}

void SerialConsolePanel::render() {
  output_->clear();
  pendingText_.clear();
  hexColumn_ = 0;
  if (!console_->received().isEmpty()) append(console_->received());
}

void SerialConsolePanel::updateState() {
  const bool open = console_->isOpen();
  openButton_->setText(open || console_->hasYielded() ? tr("Close") : tr("Open"));
  port_->setEnabled(!open && !console_->hasYielded());
  baud_->setEnabled(!open && !console_->hasYielded());
  sendButton_->setEnabled(open);
  line_->setEnabled(open);
  if (console_->hasYielded()) {
    state_->setText(tr("%1 is lent to the run on the board; it is opened again when the run ends.")
                        .arg(console_->portName()));
  } else if (open) {
    state_->setText(tr("%1 open at %2 baud, 8N1.").arg(console_->portName()).arg(console_->baud()));
  } else if (!console_->errorString().isEmpty()) {
    state_->setText(
        tr("<span style='color:#b00020'>%1</span>").arg(console_->errorString().toHtmlEscaped()));
  } else {
    state_->setText(tr("Closed."));
  }
}

}  // namespace loupe::views
