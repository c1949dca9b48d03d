// The decoded weights of one NPU convolution as a heat map: a row per
// output channel, a column per kernel position and input channel (OHWI's
// H, W and I in order), negative weights blue, positive red, white zero,
// on one scale for the whole operation. A tooltip names the weight under
// the pointer; the channel picked in the table beside it is outlined.
#pragma once

#include <QWidget>

#include "models/npu_weights_model.h"

namespace loupe::views {

class NpuWeightHeatMap : public QWidget {
  Q_OBJECT

 public:
  explicit NpuWeightHeatMap(QWidget* parent = nullptr);

  void setWeights(const models::NpuWeights& weights);
  void setSelectedChannel(int channel);
  int selectedChannel() const { return selectedChannel_; }
  // The (channel, value index) under `point`, or (-1, -1).
  QPair<int, int> cellAt(const QPointF& point) const;
  // The colour of weight `value` on a scale of +-`largest`.
  static QColor weightColor(int value, int largest);

  QSize minimumSizeHint() const override { return {120, 40}; }

 signals:
  void channelClicked(int channel);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  QRectF plotArea() const;

  models::NpuWeights weights_;
  int selectedChannel_ = -1;
};

}  // namespace loupe::views
