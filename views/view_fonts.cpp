#include "views/view_fonts.h"

#include <QFontDatabase>
#include <QStringList>

namespace loupe::views {

namespace {

bool installed(const QString& family) {
  return QFontDatabase::families().contains(family);
}

}  // namespace

QFont codeFont() {
  static const QString kFamily = QStringLiteral("DejaVu Sans Mono");
  QFont font =
      installed(kFamily) ? QFont(kFamily) : QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setStyleHint(QFont::Monospace);
  font.setPointSize(10);
  return font;
}

QFont labelFont(int pixelSize, bool bold) {
  static const QString kFamily = QStringLiteral("DejaVu Sans");
  QFont font = installed(kFamily) ? QFont(kFamily) : QFont();
  font.setPixelSize(pixelSize);
  font.setBold(bold);
  return font;
}

}  // namespace loupe::views
