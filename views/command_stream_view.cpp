#include "views/command_stream_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "models/display_text.h"
#include "models/npu_command_stream_model.h"
#include "models/npu_operation_selection.h"
#include "views/view_fonts.h"

namespace loupe::views {

using models::NpuCommandStreamModel;

CommandStreamView::CommandStreamView(NpuCommandStreamModel* model,
                                     models::NpuOperationSelection* selection, QWidget* parent)
    : QWidget(parent),
      model_(model),
      selection_(selection),
      header_(new QLabel(this)),
      pages_(new QStackedWidget(this)),
      placeholder_(new QLabel(this)),
      tree_(new QTreeView(this)) {
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(8, 4, 8, 4);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A long header must not force the dock wider.
  header_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  bar->addWidget(header_, 1);
  auto addButton = [&](const QString& text, const QString& tip, auto slot) {
    auto* button = new QToolButton(this);
    button->setText(text);
    button->setToolTip(tip);
    connect(button, &QToolButton::clicked, this, slot);
    bar->addWidget(button);
  };
  addButton(tr("Expand all"), tr("Show every NPU operation's commands"),
            [this] { tree_->expandAll(); });
  addButton(tr("Collapse all"), tr("Show one row per NPU operation"),
            [this] { tree_->collapseAll(); });

  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setContentsMargins(16, 16, 16, 16);
  tree_->setModel(model_);
  tree_->setFont(codeFont());
  tree_->setUniformRowHeights(true);  // ~2,000 rows: fast scrolling
  tree_->setAlternatingRowColors(true);
  tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  tree_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  tree_->header()->setStretchLastSection(true);
  pages_->addWidget(placeholder_);
  pages_->addWidget(tree_);

  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  column->addLayout(bar);
  column->addWidget(pages_, 1);

  connect(model_, &QAbstractItemModel::modelReset, this, &CommandStreamView::showListing);
  connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &CommandStreamView::onCurrentRowChanged);
  connect(selection_, &models::NpuOperationSelection::changed, this,
          &CommandStreamView::showSelection);
  showListing();
}

QString CommandStreamView::headerText() const {
  return header_->text();
}

QString CommandStreamView::placeholderText() const {
  return pages_->currentWidget() == placeholder_ ? placeholder_->text() : QString();
}

void CommandStreamView::showListing() {
  const models::NpuStreamListing& listing = model_->listing();
  if (listing.operations.isEmpty()) {
    header_->clear();
    placeholder_->setText(model_->placeholderText());
    pages_->setCurrentWidget(placeholder_);
    return;
  }
  // Short enough for the dock beside Properties: every ethos-u operator is a
  // CUSTOM(ethos-u).
  const QString what = model_->compiledRegion().isEmpty()
                           ? QStringLiteral("op %1").arg(listing.operatorIndex)
                           : model_->compiledRegion();
  QStringList parts{what, listing.accelerator,
                    tr("%1 words").arg(models::groupedNumber(listing.streamWords)),
                    tr("%1 NPU operations").arg(listing.npuOperationCount()),
                    tr("%1 MACs").arg(models::groupedNumber(listing.macs))};
  if (listing.npuCycles >= 0) {
    parts << tr("\u2248 %1 cycles").arg(models::groupedNumber(listing.npuCycles));
  }
  header_->setText(parts.join(QStringLiteral(" \u00b7 ")));
  header_->setToolTip(tr("op %1 %2; NPU cycles as Loupe's Ethos-U performance model estimates "
                         "them for Vela's default system (internal-default)")
                          .arg(listing.operatorIndex)
                          .arg(listing.operatorType));
  pages_->setCurrentWidget(tree_);
  // An operation's summary runs across the columns, as in `loupec npu-stream`.
  for (int row = 0; row < model_->rowCount(); ++row) tree_->setFirstColumnSpanned(row, {}, true);
  tree_->expandAll();
  // Wide enough for the widest offset and two words; the fields take the rest.
  const QFontMetrics metrics(tree_->font());
  tree_->setColumnWidth(NpuCommandStreamModel::OffsetColumn,
                        metrics.horizontalAdvance(QStringLiteral("000000")) + 40);
  tree_->setColumnWidth(NpuCommandStreamModel::WordsColumn,
                        metrics.horizontalAdvance(QStringLiteral("0x00000000 0x00000000")) + 16);
  tree_->setColumnWidth(
      NpuCommandStreamModel::CommandColumn,
      metrics.horizontalAdvance(QStringLiteral("NPU_SET_OFM_BLK_HEIGHT_M1")) + 16);
  showSelection();
}

void CommandStreamView::showSelection() {
  if (selection_->operatorIndex() != model_->operatorIndex()) return;
  const QModelIndex row = model_->indexOfOperation(selection_->operation());
  if (!row.isValid()) return;
  // Already on it (or on one of its commands): leave the user's row.
  const QModelIndex current = tree_->currentIndex();
  if (current.isValid() &&
      current.data(NpuCommandStreamModel::OperationRole).toInt() == selection_->operation()) {
    return;
  }
  tree_->setCurrentIndex(row);
  tree_->scrollTo(row, QAbstractItemView::PositionAtTop);
}

void CommandStreamView::onCurrentRowChanged() {
  const QModelIndex current = tree_->currentIndex();
  if (!current.isValid() || model_->operatorIndex() < 0) return;
  selection_->select(model_->operatorIndex(),
                     current.data(NpuCommandStreamModel::OperationRole).toInt());
}

}  // namespace loupe::views
