// The Debug dock: after Debug on board, the selected operator's output as
// the board computed it against what was expected (TFLite Micro's dump or
// the reference interpreter), and where they differ: a heat map of the
// absolute difference in real units, one tile per channel for a 4-D tensor
// (each tile its rows and columns), one row per row for a 2-D tensor. White
// is equal; the deeper the red, the larger the difference; a tile with any
// difference is outlined.
#pragma once

#include <QImage>
#include <QWidget>

class QLabel;

namespace loupe::models {
class BoardRun;
class ModelDocument;
}  // namespace loupe::models

namespace loupe::views {

class DebugTensorView : public QWidget {
  Q_OBJECT

 public:
  DebugTensorView(models::ModelDocument* document, models::BoardRun* run,
                  QWidget* parent = nullptr);

  QLabel* summaryLabel() const { return summary_; }
  QLabel* tensorLabel() const { return tensor_; }
  // The heat map's tiles (one pixel per element; a channel's rows and
  // columns, or a 2-D tensor's), laid out to fill the dock when drawn;
  // none before a debug run or for an operator whose output did not come back.
  const QList<QImage>& tiles() const { return tiles_; }
  // Elements of the shown tensor that differ.
  qint64 differingElements() const { return differing_; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void refresh();

  models::ModelDocument* document_;
  models::BoardRun* run_;
  QLabel* summary_;
  QLabel* tensor_;
  QList<QImage> tiles_;
  QList<bool> tileDiffers_;
  qint64 differing_ = 0;
};

}  // namespace loupe::views
