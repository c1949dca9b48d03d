// The Serial Console dock's port: a board's serial port the user watches and
// types into, opened with QSerialPort. What arrives is kept (the last MiB)
// for the view to show as text or hex. A run on a board that talks on the
// same port gets it: the console closes the port when the run starts and
// opens it again when the run ends. The board's LOG lines received during a
// run's session arrive here too (appendBoardLog), so they are not lost to
// the console while it had yielded the port.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSerialPort>
#include <QString>

namespace loupe::models {

class SerialConsole : public QObject {
  Q_OBJECT

 public:
  static constexpr qsizetype kKeptBytes = 1024 * 1024;

  explicit SerialConsole(QObject* parent = nullptr);

  // Opens `port` (a name from QSerialPortInfo or a path such as
  // /dev/ttyACM0) at `baud`, 8N1. On failure returns false and
  // errorString() says why, with the port's name.
  bool open(const QString& port, qint32 baud);
  void close();
  bool isOpen() const { return port_.isOpen(); }
  QString portName() const { return portName_; }
  qint32 baud() const { return baud_; }
  QString errorString() const { return error_; }

  // Sends `text` and a line feed; false (errorString()) when the port is
  // closed or the write fails.
  bool sendLine(const QString& text);

  // A run is about to use `port`: when it is the console's open port, the
  // console closes it and remembers to reopen it. Returns whether it did.
  bool yieldPort(const QString& port);
  // The run has ended: reopens a yielded port.
  void reclaimPort();
  bool hasYielded() const { return yielded_; }

  // A LOG line the board sent during a session.
  void appendBoardLog(const QString& line);

  // Everything received, in order, including board LOG lines as
  // "[board] line\n" (the last kKeptBytes).
  const QByteArray& received() const { return received_; }
  void clear();

 signals:
  void dataReceived(const QByteArray& bytes);
  void stateChanged();  // opened, closed, yielded or reclaimed
  void errorOccurred(const QString& message);

 private:
  void keep(const QByteArray& bytes);

  QSerialPort port_;
  QString portName_;
  qint32 baud_ = 115200;
  QString error_;
  QByteArray received_;
  bool yielded_ = false;
};

}  // namespace loupe::models
