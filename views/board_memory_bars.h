// The board's memories under the Memory Plan's toolbar, one bar each: how
// much of what the model may use of it its workspace pools (blue) and its
// constant arrays (orange) take. Hidden for a compilation for no board.
#pragma once

#include <QList>
#include <QWidget>

#include "models/memory_plan_layout.h"

namespace loupe::views {

class BoardMemoryBars : public QWidget {
  Q_OBJECT

 public:
  explicit BoardMemoryBars(QWidget* parent = nullptr);

  void setMemories(const QList<models::PlannedMemory>& memories);
  const QList<models::PlannedMemory>& memories() const { return memories_; }
  // One memory's line as the bar's label says it, for tests and tooltips.
  static QString describe(const models::PlannedMemory& memory);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QList<models::PlannedMemory> memories_;
};

}  // namespace loupe::views
