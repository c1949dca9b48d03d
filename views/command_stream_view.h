// The Command Stream dock: the selected Vela operator's (ethos-u) Ethos-U
// command stream listed like a disassembler's output - word offset, the
// words in hex, the command's name and its fields by name - under one
// collapsible row per NPU operation (kind, IFM -> OFM, kernel, weights,
// block, estimated cycles). Picking a row picks its NPU operation in the
// Graph view too, and the other way round.
#pragma once

#include <QWidget>

class QLabel;
class QStackedWidget;
class QTreeView;

namespace loupe::models {
class NpuCommandStreamModel;
class NpuOperationSelection;
}  // namespace loupe::models

namespace loupe::views {

class CommandStreamView : public QWidget {
  Q_OBJECT

 public:
  CommandStreamView(models::NpuCommandStreamModel* model, models::NpuOperationSelection* selection,
                    QWidget* parent = nullptr);

  QTreeView* tree() const { return tree_; }
  models::NpuCommandStreamModel* model() const { return model_; }
  // "op 0 CUSTOM(ethos-u) · ethos-u55-256 · 2,034 words · 235 NPU operations · ≈ 1,234 cycles".
  QString headerText() const;
  // Why nothing is listed, or an empty string while a stream is.
  QString placeholderText() const;

 private:
  void showListing();
  void showSelection();
  void onCurrentRowChanged();

  models::NpuCommandStreamModel* model_;
  models::NpuOperationSelection* selection_;
  QLabel* header_;
  QStackedWidget* pages_;
  QLabel* placeholder_;
  QTreeView* tree_;
};

}  // namespace loupe::views
