#include "views/board_memory_bars.h"

#include <QLocale>
#include <QPainter>
#include <algorithm>

namespace loupe::views {

namespace {

constexpr int kRowHeight = 20;
constexpr int kNameWidth = 64;
constexpr int kBarWidthShare = 3;  // the bar takes a third of the width, the text the rest
const QColor kWorkspace(0x4a, 0x7f, 0xc1);
const QColor kConstants(0xe0, 0x8a, 0x2c);

}  // namespace

BoardMemoryBars::BoardMemoryBars(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  hide();
}

void BoardMemoryBars::setMemories(const QList<models::PlannedMemory>& memories) {
  memories_ = memories;
  QStringList lines;
  for (const models::PlannedMemory& memory : memories_) lines << describe(memory);
  setToolTip(lines.join(QLatin1Char('\n')));
  setVisible(!memories_.isEmpty());
  updateGeometry();
  update();
}

QString BoardMemoryBars::describe(const models::PlannedMemory& memory) {
  const QLocale locale = QLocale::system();
  QStringList parts;
  if (memory.holdsWorkspace)
    parts << tr("workspace %1").arg(locale.toString(memory.workspaceBytes));
  if (memory.holdsConstants) parts << tr("constants %1").arg(locale.toString(memory.constantBytes));
  const qint64 used = memory.workspaceBytes + memory.constantBytes;
  const int percent =
      memory.capacity > 0 ? static_cast<int>(100 * used / memory.capacity) : (used > 0 ? 100 : 0);
  return tr("%1: %2 of %3 bytes for the model (%4%)")
      .arg(memory.name, parts.join(QStringLiteral(" + ")), locale.toString(memory.capacity))
      .arg(percent);
}

QSize BoardMemoryBars::sizeHint() const {
  return {400, 6 + kRowHeight * static_cast<int>(memories_.size())};
}

QSize BoardMemoryBars::minimumSizeHint() const {
  // Narrow windows elide the text; the bars never widen the window.
  return {kNameWidth + 80, sizeHint().height()};
}

void BoardMemoryBars::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette& pal = palette();
  const int barWidth = std::max(60, (width() - kNameWidth - 16) / kBarWidthShare);
  for (int i = 0; i < memories_.size(); ++i) {
    const models::PlannedMemory& memory = memories_[i];
    const int top = 3 + i * kRowHeight;
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(QRect(8, top, kNameWidth, kRowHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
                     memory.name);
    painter.setFont(font());
    const QRectF bar(8 + kNameWidth, top + 2, barWidth, kRowHeight - 8);
    painter.fillRect(bar, pal.color(QPalette::AlternateBase));
    const double capacity = static_cast<double>(std::max<qint64>(memory.capacity, 1));
    const double workspace = std::min(1.0, static_cast<double>(memory.workspaceBytes) / capacity);
    const double constants =
        std::min(1.0 - workspace, static_cast<double>(memory.constantBytes) / capacity);
    painter.fillRect(QRectF(bar.left(), bar.top(), bar.width() * workspace, bar.height()),
                     kWorkspace);
    painter.fillRect(QRectF(bar.left() + bar.width() * workspace, bar.top(),
                            bar.width() * constants, bar.height()),
                     kConstants);
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawRect(bar);
    painter.setPen(pal.color(QPalette::Text));
    const QString text = describe(memory).section(QStringLiteral(": "), 1);
    painter.drawText(QRectF(bar.right() + 8, top, width() - bar.right() - 12, kRowHeight - 4),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     painter.fontMetrics().elidedText(
                         text, Qt::ElideRight, static_cast<int>(width() - bar.right() - 12)));
  }
}

}  // namespace loupe::views
