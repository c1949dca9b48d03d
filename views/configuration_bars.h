// A small horizontal bar chart of the NPU's total estimated cycles in each
// configuration (ethos-u55-32 ... ethos-u65-256), for the Device Mapping view: one
// bar per configuration with its name before and its total after, the
// configuration compiled for drawn strong. Painted by hand: Qt Charts elides
// every label at the few hundred pixels this has.
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

namespace loupe::views {

class ConfigurationBars : public QWidget {
  Q_OBJECT

 public:
  struct Bar {
    QString label;  // "ethos-u55-128"
    qint64 cycles = 0;
    bool current = false;  // the configuration compiled for
  };

  explicit ConfigurationBars(QWidget* parent = nullptr);

  void setBars(const QList<Bar>& bars);
  const QList<Bar>& bars() const { return bars_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int rowHeight() const;

  QList<Bar> bars_;
};

}  // namespace loupe::views
