// The File > Open Recent list: the models opened last, newest first, kept in
// QSettings between sessions (or only in memory, for tests and screenshots).
#pragma once

#include <QStringList>

namespace loupe::gui {

class RecentFiles {
 public:
  static constexpr int kMaximum = 10;

  explicit RecentFiles(bool persistent);

  QStringList paths() const { return paths_; }
  void add(const QString& path);  // moves it to the front
  void clear();

 private:
  void save() const;

  bool persistent_;
  QStringList paths_;
};

}  // namespace loupe::gui
