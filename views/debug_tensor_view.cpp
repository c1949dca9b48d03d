#include "views/debug_tensor_view.h"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "deploy/validation_metrics.h"
#include "models/board_run.h"
#include "models/display_text.h"
#include "models/model_document.h"

namespace loupe::views {

namespace {

constexpr int kGap = 2;  // pixels between tiles

QColor differenceColour(double difference, double maximum) {
  if (difference <= 0 || maximum <= 0) return Qt::white;
  // At least a quarter of the way to deep red, so one LSB still shows.
  const double t = 0.25 + 0.75 * std::clamp(difference / maximum, 0.0, 1.0);
  return QColor::fromRgbF(1.0, 1.0 - 0.85 * t, 1.0 - 0.85 * t);
}

}  // namespace

DebugTensorView::DebugTensorView(models::ModelDocument* document, models::BoardRun* run,
                                 QWidget* parent)
    : QWidget(parent),
      document_(document),
      run_(run),
      summary_(new QLabel(this)),
      tensor_(new QLabel(this)) {
  summary_->setObjectName(QStringLiteral("debugSummary"));
  tensor_->setObjectName(QStringLiteral("debugTensor"));
  summary_->setWordWrap(true);
  tensor_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addWidget(tensor_);
  layout->addStretch(1);
  setMinimumHeight(160);
  connect(run_, &models::BoardRun::finished, this, &DebugTensorView::refresh);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &DebugTensorView::refresh);
  connect(document_, &models::ModelDocument::modelLoaded, this, &DebugTensorView::refresh);
  refresh();
}

void DebugTensorView::refresh() {
  tiles_.clear();
  tileDiffers_.clear();
  differing_ = 0;
  const auto& findings = run_->debugFindings();
  if (!findings || !document_->isLoaded()) {
    summary_->setText(
        tr("Press <b>Debug on board</b> in the Deploy panel: every tensor comes "
           "back from the board and is compared, operator by operator."));
    tensor_->clear();
    update();
    return;
  }
  summary_->setText(findings->summary.toHtmlEscaped());
  const int op = document_->currentOperator();
  const ir::Graph& graph = document_->graph();
  if (op < 0 || static_cast<std::size_t>(op) >= graph.operators.size()) {
    tensor_->setText(tr("Select an operator to see its output, board against expected."));
    update();
    return;
  }
  const int t = graph.operators[static_cast<std::size_t>(op)].outputs.front();
  const ir::Tensor& tensor = graph.tensor(t);
  const auto board = findings->board->find(t);
  const auto expected = findings->expected->find(t);
  if (board == findings->board->end() || expected == findings->expected->end()) {
    tensor_->setText(tr("Tensor %1 of operator %2 did not come back from the board whole "
                        "(inside a region or a patch), or has nothing to compare with.")
                         .arg(t)
                         .arg(op));
    update();
    return;
  }
  const std::vector<double> b = deploy::tensorValues(tensor, board->second);
  const std::vector<double> e = deploy::tensorValues(tensor, expected->second);
  std::vector<double> difference(b.size());
  double maximum = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    difference[i] = std::abs(b[i] - e[i]);
    if (board->second.size() == expected->second.size() && difference[i] > 0) ++differing_;
    if (std::isfinite(difference[i])) maximum = std::max(maximum, difference[i]);
  }
  // Rows x columns per tile, and tiles: 4-D NHWC (the first batch): a tile
  // per channel; 2-D: one tile of rows; anything else: one row.
  const ir::Shape& shape = tensor.shape;
  int tiles = 1, rows = 1, columns = static_cast<int>(b.size());
  if (shape.size() == 4) {
    rows = shape[1];
    columns = shape[2];
    tiles = shape[3];
  } else if (shape.size() == 2) {
    rows = shape[0];
    columns = shape[1];
  }
  const auto at = [&](int tile, int row, int column) -> double {
    const std::size_t i = shape.size() == 4
                              ? (static_cast<std::size_t>(row) * columns + column) * tiles + tile
                              : static_cast<std::size_t>(row) * columns + column;
    return i < difference.size() ? difference[i] : 0.0;
  };
  QStringList channels;
  int differingTiles = 0;
  for (int tile = 0; tile < tiles; ++tile) {
    QImage image(columns, rows, QImage::Format_RGB32);
    bool any = false;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) {
        const double d = at(tile, r, c);
        any = any || d > 0;
        image.setPixelColor(c, r, differenceColour(d, maximum));
      }
    }
    tiles_ << image;
    tileDiffers_ << any;
    if (any && differingTiles++ < 12) channels << QString::number(tile);
  }
  QString text =
      tr("Operator %1 %2, output tensor %3 (%4): board against %5. ")
          .arg(op)
          .arg(QString::fromStdString(graph.operators[static_cast<std::size_t>(op)].typeName()),
               QString::number(t), models::tensorShapeText(tensor), findings->expectedName);
  if (differing_ == 0) {
    text += tr("Equal, element for element.");
  } else {
    text += tr("%1 of %2 elements differ, max abs difference %3")
                .arg(differing_)
                .arg(b.size())
                .arg(maximum, 0, 'g', 4);
    if (shape.size() == 4) {
      text += tr(" (channels %1%2)")
                  .arg(channels.join(QStringLiteral(", ")),
                       differingTiles > channels.size() ? QStringLiteral(", ...") : QString());
    }
    text += QLatin1Char('.');
  }
  tensor_->setText(text.toHtmlEscaped());
  update();
}

void DebugTensorView::paintEvent(QPaintEvent* event) {
  QWidget::paintEvent(event);
  if (tiles_.isEmpty()) return;
  // Below the labels: the tiles in as many per line as makes them largest.
  const int top = tensor_->geometry().bottom() + 8;
  const QRectF room(8, top, width() - 16, height() - top - 8);
  if (room.width() <= 0 || room.height() <= 0) return;
  const QSize tile = tiles_.front().size();
  const auto count = static_cast<int>(tiles_.size());
  int perLine = 1;
  double scale = 0;
  for (int n = 1; n <= count; ++n) {
    const int lines = (count + n - 1) / n;
    const double s = std::min(room.width() / (n * (tile.width() + kGap)),
                              room.height() / (lines * (tile.height() + kGap)));
    if (s > scale) {
      scale = s;
      perLine = n;
    }
  }
  QPainter painter(this);
  for (int i = 0; i < count; ++i) {
    const QRectF target(room.left() + (i % perLine) * (tile.width() + kGap) * scale,
                        room.top() + (i / perLine) * (tile.height() + kGap) * scale,
                        tile.width() * scale, tile.height() * scale);
    painter.drawImage(target, tiles_[i]);
    painter.setPen(tileDiffers_[i] ? QPen(QColor(0xc0, 0x24, 0x24), 1.5)
                                   : QPen(QColor(0xc8, 0xc8, 0xc8), 0.5));
    painter.drawRect(target);
  }
}

}  // namespace loupe::views
