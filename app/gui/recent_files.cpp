#include "gui/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace loupe::gui {

namespace {
const char* const kSettingsKey = "recentFiles";
}

RecentFiles::RecentFiles(bool persistent) : persistent_(persistent) {
  if (persistent_) paths_ = QSettings().value(kSettingsKey).toStringList();
}

void RecentFiles::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  paths_.removeAll(absolute);
  paths_.prepend(absolute);
  while (paths_.size() > kMaximum) paths_.removeLast();
  save();
}

void RecentFiles::clear() {
  paths_.clear();
  save();
}

void RecentFiles::save() const {
  if (persistent_) QSettings().setValue(kSettingsKey, paths_);
}

}  // namespace loupe::gui
