// The Serial Console dock: pick a port and a baud rate, open it, watch what
// the board prints as text or as hex, send a line. The port is yielded to a
// run on the same port and taken back after (models::SerialConsole); the
// board's LOG lines of a run appear as "[board] ..." lines.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace loupe::models {
class SerialConsole;
}

namespace loupe::views {

class SerialPortBox;

class SerialConsolePanel : public QWidget {
  Q_OBJECT

 public:
  explicit SerialConsolePanel(models::SerialConsole* console, QWidget* parent = nullptr);

  QComboBox* portBox() const;
  QComboBox* modeBox() const { return mode_; }
  QPlainTextEdit* output() const { return output_; }

 private:
  void toggleOpen();
  void send();
  void render();  // the whole output again (after a mode change or clear)
  void append(const QByteArray& bytes);
  void updateState();
  QString hexLines(const QByteArray& bytes) const;

  models::SerialConsole* console_;
  SerialPortBox* port_;
  QSpinBox* baud_;
  QPushButton* openButton_;
  QComboBox* mode_;
  QLabel* state_;
  QPlainTextEdit* output_;
  QLineEdit* line_;
  QPushButton* sendButton_;
  QByteArray pendingText_;   // an incomplete UTF-8 sequence or line, in text mode
  qsizetype hexColumn_ = 0;  // bytes on the current hex line
};

}  // namespace loupe::views
