// Where a port is chosen: an editable list of the system's serial ports
// (QSerialPortInfo; a path such as /dev/ttyACM0 can be typed) and a button
// that looks for ports again. The Deploy panel and the Serial Console use it.
#pragma once

#include <QWidget>

class QComboBox;

namespace loupe::views {

class SerialPortBox : public QWidget {
  Q_OBJECT

 public:
  explicit SerialPortBox(QWidget* parent = nullptr);

  QComboBox* comboBox() const { return ports_; }
  QString port() const;  // what is chosen or typed, trimmed
  // Lists the ports again, keeping what was chosen or typed.
  void refresh();

 private:
  QComboBox* ports_;
};

}  // namespace loupe::views
