#include "views/configuration_bars.h"

#include <QPainter>
#include <algorithm>

#include "models/display_text.h"

namespace loupe::views {

namespace {
constexpr int kMargin = 6;
const QColor kBar(0x9c, 0xd3, 0x97);         // the NPU's graph colour, a shade deeper
const QColor kCurrentBar(0x3d, 0x8b, 0x40);  // the configuration compiled for
}  // namespace

ConfigurationBars::ConfigurationBars(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void ConfigurationBars::setBars(const QList<Bar>& bars) {
  bars_ = bars;
  updateGeometry();
  update();
}

int ConfigurationBars::rowHeight() const {
  return fontMetrics().height() + 8;
}

QSize ConfigurationBars::sizeHint() const {
  return {320, kMargin * 2 + rowHeight() * (static_cast<int>(bars_.size()) + 1)};
}

QSize ConfigurationBars::minimumSizeHint() const {
  return {220, sizeHint().height()};
}

void ConfigurationBars::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics metrics = fontMetrics();
  const int row = rowHeight();
  painter.setPen(palette().color(QPalette::WindowText));
  painter.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, row),
                   Qt::AlignLeft | Qt::AlignVCenter, tr("Total estimated cycles"));
  if (bars_.isEmpty()) return;

  int labelWidth = 0;
  int valueWidth = 0;
  qint64 peak = 1;
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics boldMetrics(bold);  // the current configuration's label is bold
  for (const Bar& bar : bars_) {
    labelWidth = std::max(labelWidth, boldMetrics.horizontalAdvance(bar.label));
    valueWidth =
        std::max(valueWidth, boldMetrics.horizontalAdvance(models::groupedNumber(bar.cycles)));
    peak = std::max(peak, bar.cycles);
  }
  const int barLeft = kMargin + labelWidth + 8;
  const int barSpace = std::max(10, width() - barLeft - valueWidth - 8 - kMargin);
  for (int i = 0; i < bars_.size(); ++i) {
    const Bar& bar = bars_[i];
    const int top = kMargin + row * (i + 1);
    QFont font = painter.font();
    font.setBold(bar.current);
    painter.setFont(font);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(kMargin, top, labelWidth, row), Qt::AlignRight | Qt::AlignVCenter,
                     bar.label);
    const int length = static_cast<int>(static_cast<double>(bar.cycles) / peak * barSpace);
    const QRect box(barLeft, top + 3, std::max(1, length), row - 6);
    painter.setPen(Qt::NoPen);
    painter.setBrush(bar.current ? kCurrentBar : kBar);
    painter.drawRect(box);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(box.right() + 6, top, valueWidth + 2, row),
                     Qt::AlignLeft | Qt::AlignVCenter, models::groupedNumber(bar.cycles));
  }
}

}  // namespace loupe::views
