#include "views/serial_port_box.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSerialPortInfo>
#include <QToolButton>

namespace loupe::views {

SerialPortBox::SerialPortBox(QWidget* parent) : QWidget(parent), ports_(new QComboBox(this)) {
  ports_->setEditable(true);
  ports_->setMinimumContentsLength(12);
  ports_->lineEdit()->setPlaceholderText(QStringLiteral("/dev/ttyACM0"));
  auto* again = new QToolButton(this);
  again->setText(QStringLiteral("\u21bb"));
  again->setToolTip(tr("Look for serial ports again"));
  connect(again, &QToolButton::clicked, this, &SerialPortBox::refresh);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(ports_, 1);
  layout->addWidget(again);
  refresh();
}

QString SerialPortBox::port() const {
  return ports_->currentText().trimmed();
}

void SerialPortBox::refresh() {
  const QString current = ports_->currentText();
  ports_->clear();
  for (const QSerialPortInfo& info : QSerialPortInfo::availablePorts()) {
    ports_->addItem(info.systemLocation());
    ports_->setItemData(ports_->count() - 1, info.description(), Qt::ToolTipRole);
  }
  ports_->setCurrentText(current);
}

}  // namespace loupe::views
