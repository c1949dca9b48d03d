// Saves what a window shows as a PNG: `loupe --screenshot`, used by scripts,
// documentation and the gui tests (works on the offscreen platform).
#pragma once

#include <QString>

class QWidget;

namespace loupe::gui {

// Lays the window out, renders it and writes `path`. On failure returns false
// and sets `error` to a message naming the file.
bool saveWindowScreenshot(QWidget* window, const QString& path, QString* error);

}  // namespace loupe::gui
