#include "models/serial_console.h"

namespace loupe::models {

SerialConsole::SerialConsole(QObject* parent) : QObject(parent) {
  connect(&port_, &QSerialPort::readyRead, this, [this] {
    const QByteArray bytes = port_.readAll();
    if (!bytes.isEmpty()) keep(bytes);
  });
  connect(&port_, &QSerialPort::errorOccurred, this, [this](QSerialPort::SerialPortError error) {
    // A board unplugged while open: say so and close, the app stays usable.
    if (error == QSerialPort::ResourceError) {
      error_ = tr("%1 went away: %2").arg(portName_, port_.errorString());
      port_.close();
      emit errorOccurred(error_);
      emit stateChanged();
    }
  });
}

bool SerialConsole::open(const QString& port, qint32 baud) {
  if (port_.isOpen()) port_.close();
  yielded_ = false;
  portName_ = port.trimmed();
  baud_ = baud;
  if (portName_.isEmpty()) {
    error_ = tr("no serial port given");
    emit stateChanged();
    return false;
  }
  port_.setPortName(portName_);
  port_.setBaudRate(baud);
  port_.setDataBits(QSerialPort::Data8);
  port_.setParity(QSerialPort::NoParity);
  port_.setStopBits(QSerialPort::OneStop);
  port_.setFlowControl(QSerialPort::NoFlowControl);
  if (!port_.open(QIODevice::ReadWrite)) {
    error_ = tr("cannot open %1: %2").arg(portName_, port_.errorString());
    emit errorOccurred(error_);
    emit stateChanged();
    return false;
  }
  error_.clear();
  emit stateChanged();
  return true;
}

void SerialConsole::close() {
  yielded_ = false;
  if (port_.isOpen()) port_.close();
  emit stateChanged();
}

bool SerialConsole::sendLine(const QString& text) {
  if (!port_.isOpen()) {
    error_ = tr("the port is not open");
    return false;
  }
  const QByteArray bytes = text.toUtf8() + '\n';
  if (port_.write(bytes) != bytes.size()) {
    error_ = tr("cannot write to %1: %2").arg(portName_, port_.errorString());
    emit errorOccurred(error_);
    return false;
  }
  return true;
}

bool SerialConsole::yieldPort(const QString& port) {
  if (!port_.isOpen() || port.trimmed() != portName_) return false;
  port_.close();
  yielded_ = true;
  emit stateChanged();
  return true;
}

void SerialConsole::reclaimPort() {
  if (!yielded_) return;
  open(portName_, baud_);
}

void SerialConsole::appendBoardLog(const QString& line) {
  keep("[board] " + line.toUtf8() + '\n');
}

void SerialConsole::clear() {
  received_.clear();
}

void SerialConsole::keep(const QByteArray& bytes) {
  received_ += bytes;
  if (received_.size() > kKeptBytes) received_.remove(0, received_.size() - kKeptBytes);
  emit dataReceived(bytes);
}

}  // namespace loupe::models
