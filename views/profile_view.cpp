#include "views/profile_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "models/board_run.h"
#include "models/display_text.h"
#include "models/model_document.h"
#include "models/profile_table_model.h"
#include "views/percent_bar_delegate.h"

namespace loupe::views {

using models::ProfileTableModel;

ProfileView::ProfileView(models::ModelDocument* document, models::BoardRun* run,
                         models::ProfileTableModel* model, QWidget* parent)
    : QWidget(parent),
      document_(document),
      run_(run),
      model_(model),
      proxy_(new QSortFilterProxyModel(this)),
      summary_(new QLabel(this)),
      table_(new QTableView(this)),
      chartView_(new QChartView(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(ProfileTableModel::SortRole);
  table_->setObjectName(QStringLiteral("profileTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // call order until the user sorts
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setItemDelegateForColumn(ProfileTableModel::PeakColumn,
                                   new PercentBarDelegate(ProfileTableModel::SortRole, table_));
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return;
            const int op = current.data(ProfileTableModel::OperatorIndexRole).toInt();
            if (op >= 0) document_->setCurrentOperator(op);
          });

  chartView_->setObjectName(QStringLiteral("profileChart"));
  chartView_->setRenderHint(QPainter::Antialiasing);
  // Low enough that the bottom docks it shares can be a few lines high while
  // nothing ran; a run makes them roomy.
  chartView_->setMinimumHeight(60);
  summary_->setWordWrap(true);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(table_);
  splitter->addWidget(chartView_);
  splitter->setStretchFactor(0, 5);
  splitter->setStretchFactor(1, 4);
  splitter->setSizes({680, 240});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addWidget(splitter, 1);

  connect(run_, &models::BoardRun::profileChanged, this, [this] {
    table_->resizeColumnsToContents();
    // Room for the bar, whatever the numbers' width.
    table_->setColumnWidth(
        ProfileTableModel::PeakColumn,
        std::max(table_->columnWidth(ProfileTableModel::PeakColumn),
                 table_->fontMetrics().horizontalAdvance(QStringLiteral("100.0 %")) * 2));
    rebuildChart();
    updateSummary();
    showCurrentOperator(document_->currentOperator());
  });
  connect(run_, &models::BoardRun::finished, this, &ProfileView::updateSummary);
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &ProfileView::showCurrentOperator);
  rebuildChart();
  updateSummary();
}

void ProfileView::updateSummary() {
  if (run_->profileRows().isEmpty()) {
    summary_->setText(
        tr("No profile yet: run the model on a board (Deploy \u2192 Run on board, "
           "Ctrl+R)."));
    return;
  }
  summary_->setText(tr("<b>%1</b> on %2: %3 %4 in all, %5 operator calls, %6 MACs")
                        .arg(document_->modelName().toHtmlEscaped(),
                             run_->platform().toHtmlEscaped(),
                             models::groupedNumber(static_cast<std::int64_t>(run_->profileTotal())),
                             run_->profileUnit())
                        .arg(run_->profileRows().size())
                        .arg(models::groupedNumber([this] {
                          std::int64_t macs = 0;
                          for (const auto& row : run_->profileRows()) macs += row.time.macs;
                          return macs;
                        }())));
}

void ProfileView::rebuildChart() {
  auto* chart = new QChart;
  chart->legend()->hide();
  chart->setMargins(QMargins(4, 4, 4, 4));
  barOperators_.clear();
  const auto& rows = run_->profileRows();
  // The slowest calls, the slowest at the top (a horizontal bar chart draws
  // its first category at the bottom).
  QList<int> order;
  for (int i = 0; i < rows.size(); ++i) order << i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return rows[a].time.time > rows[b].time.time; });
  if (order.size() > kMaxBars) order.resize(kMaxBars);
  std::reverse(order.begin(), order.end());
  barCount_ = static_cast<int>(order.size());

  // Readable axis numbers: ns become µs or ms, instructions thousands or millions.
  double peak = 0;
  for (int i : order) peak = std::max(peak, rows[i].time.time);
  double scale = 1;
  QString unit = run_->profileUnit();
  if (unit == QStringLiteral("ns")) {
    if (peak >= 1e6) {
      scale = 1e6;
      unit = QStringLiteral("ms");
    } else if (peak >= 1e3) {
      scale = 1e3;
      unit = QStringLiteral("\u00b5s");
    }
  } else if (peak >= 1e6) {
    scale = 1e6;
    unit = unit == QStringLiteral("instructions") ? tr("M instr.") : tr("M %1").arg(unit);
  } else if (peak >= 1e3) {
    scale = 1e3;
    unit = unit == QStringLiteral("instructions") ? tr("k instr.") : tr("k %1").arg(unit);
  }

  auto* set = new QBarSet(tr("time"));
  set->setColor(QColor(0xe0, 0x7b, 0x39));
  QStringList categories;
  double maximum = 0;
  for (int i : order) {
    const auto& row = rows[i];
    *set << row.time.time / scale;
    maximum = std::max(maximum, row.time.time / scale);
    categories << QStringLiteral("%1 %2").arg(
        models::ProfileTableModel::callOperatorsText(row),
        models::ProfileTableModel::callTypeText(row).toLower());
    barOperators_ << (row.modelOperators.isEmpty() ? -1 : row.modelOperators.front());
  }
  auto* series = new QHorizontalBarSeries;
  series->append(set);
  series->setBarWidth(0.7);
  chart->addSeries(series);
  auto* axisY = new QBarCategoryAxis;
  axisY->append(categories);
  axisY->setTruncateLabels(false);
  QFont labels = axisY->labelsFont();
  labels.setPointSizeF(labels.pointSizeF() * 0.85);
  axisY->setLabelsFont(labels);
  chart->addAxis(axisY, Qt::AlignLeft);
  series->attachAxis(axisY);
  auto* axisX = new QValueAxis;
  axisX->setRange(0, maximum > 0 ? maximum * 1.05 : 1);
  axisX->setLabelFormat(QStringLiteral("%.3g"));
  axisX->setTickCount(4);
  axisX->setTruncateLabels(false);
  axisX->setTitleText(unit.isEmpty() ? tr("time") : tr("time per call (%1)").arg(unit));
  chart->addAxis(axisX, Qt::AlignBottom);
  series->attachAxis(axisX);
  if (rows.size() > kMaxBars) {
    chart->setTitle(tr("slowest %1 of %2 operator calls").arg(kMaxBars).arg(rows.size()));
  }
  connect(set, &QBarSet::clicked, this, &ProfileView::activateBar);

  QChart* old = chartView_->chart();
  chartView_->setChart(chart);
  delete old;
}

void ProfileView::activateBar(int index) {
  if (index < 0 || index >= barOperators_.size()) return;
  if (barOperators_[index] >= 0) document_->setCurrentOperator(barOperators_[index]);
}

void ProfileView::showCurrentOperator(int operatorIndex) {
  const int row = model_->rowOfOperator(operatorIndex);
  if (row < 0) return;
  const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
  if (table_->currentIndex().row() == index.row()) return;
  table_->setCurrentIndex(index);
  table_->scrollTo(index);
}

}  // namespace loupe::views
