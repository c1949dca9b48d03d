// The NPU Weights dock: the weights of the NPU convolution selected in a
// Vela operator's command stream, decoded back to OHWI - a table of its
// output channels (bias, scale, shift and the multiplier they make, the
// weights' range) beside a heat map of every weight - under a line saying
// its shape and what the encoding saved (encoded bytes against the weights
// decoded).
#pragma once

#include <QWidget>

class QLabel;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace loupe::models {
class NpuWeightsModel;
}

namespace loupe::views {

class NpuWeightHeatMap;

class NpuWeightsView : public QWidget {
  Q_OBJECT

 public:
  explicit NpuWeightsView(models::NpuWeightsModel* model, QWidget* parent = nullptr);

  models::NpuWeightsModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  NpuWeightHeatMap* heatMap() const { return heatMap_; }
  // "npu 12 CONV · OHWI 16x3x3x8 = 1,152 weights · encoded 1,020 B ...".
  QString headerText() const;
  QString placeholderText() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fitSplit();
  void showWeights();

  models::NpuWeightsModel* model_;
  QLabel* header_;
  QStackedWidget* pages_;
  QLabel* placeholder_;
  QTableView* table_;
  NpuWeightHeatMap* heatMap_;
  QSplitter* split_;
  bool fitPending_ = false;  // new weights: the table to fit its columns
};

}  // namespace loupe::views
