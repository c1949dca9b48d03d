#include "gui/window_screenshot.h"

#include <QApplication>
#include <QImageWriter>
#include <QPixmap>
#include <QWidget>

namespace loupe::gui {

bool saveWindowScreenshot(QWidget* window, const QString& path, QString* error) {
  if (!window->isVisible()) window->show();
  // A few turns of the event loop: layouts, deferred resizes and the text
  // editor's first paint all happen in posted events.
  for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 50);

  const QPixmap pixmap = window->grab();
  if (pixmap.isNull()) {
    *error = QStringLiteral("could not render the window");
    return false;
  }
  QImageWriter writer(path, "png");
  if (!writer.write(pixmap.toImage())) {
    *error = QStringLiteral("cannot write %1: %2").arg(path, writer.errorString());
    return false;
  }
  return true;
}

}  // namespace loupe::gui
