#include "views/device_mapping_view.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "models/configuration_cycles_model.h"
#include "models/device_mapping.h"
#include "models/device_operator_table_model.h"
#include "models/device_totals_model.h"
#include "models/display_text.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "views/configuration_bars.h"

#include "views/view_fonts.h"

namespace loupe::views {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name, QWidget* parent) {
  auto* table = new QTableView(parent);
  table->setObjectName(name);
  table->setModel(model);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setAlternatingRowColors(true);
  table->setWordWrap(false);
  table->setShowGrid(false);
  table->verticalHeader()->hide();
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
  table->horizontalHeader()->setHighlightSections(false);
  table->horizontalHeader()->setStretchLastSection(true);
  return table;
}

QLabel* heading(const QString& text, QWidget* parent) {
  auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()), parent);
  label->setContentsMargins(0, 6, 0, 2);
  return label;
}

// Tall enough for every row and the header, so the totals never scroll.
void fitHeightToRows(QTableView* table) {
  const int rows = table->model()->rowCount();
  table->setFixedHeight(table->horizontalHeader()->sizeHint().height() +
                        rows * table->verticalHeader()->defaultSectionSize() +
                        2 * table->frameWidth() + 2);
}

}  // namespace

DeviceMappingView::DeviceMappingView(models::ModelDocument* document,
                                     models::ModelCompilation* compilation, QWidget* parent)
    : QWidget(parent),
      document_(document),
      compilation_(compilation),
      totalsModel_(new models::DeviceTotalsModel(compilation, this)),
      operatorModel_(new models::DeviceOperatorTableModel(compilation, this)),
      configurationModel_(new models::ConfigurationCyclesModel(compilation, this)),
      summary_(new QLabel(this)),
      structLabel_(new QLabel(this)),
      configurationTitle_(new QLabel(this)),
      bars_(new ConfigurationBars(this)),
      configurationPane_(new QWidget(this)) {
  totalsTable_ = makeTable(totalsModel_, QStringLiteral("deviceTotalsTable"), this);
  totalsTable_->setSelectionMode(QAbstractItemView::NoSelection);
  totalsTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  operatorTable_ = makeTable(operatorModel_, QStringLiteral("deviceOperatorTable"), this);
  configurationTable_ =
      makeTable(configurationModel_, QStringLiteral("configurationCyclesTable"), this);
  summary_->setWordWrap(true);
  structLabel_->setFont(codeFont());
  structLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  structLabel_->setWordWrap(true);
  configurationTitle_->setWordWrap(true);
  bars_->setObjectName(QStringLiteral("configurationBars"));

  auto* configurationLayout = new QVBoxLayout(configurationPane_);
  configurationLayout->setContentsMargins(0, 0, 0, 0);
  configurationLayout->addWidget(configurationTitle_);
  configurationSplitter_ = new QSplitter(Qt::Horizontal, configurationPane_);
  auto* configurationSplitter = configurationSplitter_;
  configurationSplitter->addWidget(configurationTable_);
  configurationSplitter->addWidget(bars_);
  configurationSplitter->setStretchFactor(0, 3);
  configurationSplitter->setStretchFactor(1, 2);
  configurationLayout->addWidget(configurationSplitter, 1);

  auto* operatorPane = new QWidget(this);
  auto* operatorLayout = new QVBoxLayout(operatorPane);
  operatorLayout->setContentsMargins(0, 0, 0, 0);
  operatorLayout->addWidget(heading(tr("Operators"), operatorPane));
  operatorLayout->addWidget(operatorTable_, 1);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(operatorPane);
  splitter->addWidget(configurationPane_);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 6, 8, 6);
  layout->setSpacing(4);
  layout->addWidget(summary_);
  layout->addWidget(heading(tr("Devices"), this));
  layout->addWidget(totalsTable_);
  layout->addWidget(structLabel_);
  layout->addWidget(splitter, 1);

  auto select = [this](const QModelIndex& current, int role) {
    if (!current.isValid()) return;
    const int op = current.data(role).toInt();
    if (op >= 0) document_->setCurrentOperator(op);
  };
  connect(operatorTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this, select](const QModelIndex& current) {
            // A row stands for all the operators an NPU region fused: one
            // of them selected elsewhere stays selected when showOperator
            // makes its row current.
            if (operatorModel_->rowOfOperator(document_->currentOperator()) == current.row()) {
              return;
            }
            select(current, models::DeviceOperatorTableModel::OperatorIndexRole);
          });
  connect(configurationTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [select](const QModelIndex& current) {
            select(current, models::ConfigurationCyclesModel::OperatorIndexRole);
          });
  connect(document_, &models::ModelDocument::currentOperatorChanged, this,
          &DeviceMappingView::showOperator);
  connect(compilation_, &models::ModelCompilation::compiled, this, &DeviceMappingView::refresh);
  connect(compilation_, &models::ModelCompilation::compilationStarted, this,
          &DeviceMappingView::refresh);
  connect(compilation_, &models::ModelCompilation::compilationFailed, this,
          &DeviceMappingView::refresh);
  refresh();
}

void DeviceMappingView::refresh() {
  using State = models::ModelCompilation::State;
  const models::DeviceMapping& mapping = compilation_->deviceMapping();
  switch (compilation_->state()) {
    case State::NoModel:
      summary_->setText(tr("No model open."));
      break;
    case State::Compiling:
      summary_->setText(
          tr("Compiling for <b>%1</b>\u2026").arg(compilation_->targetString().toHtmlEscaped()));
      break;
    case State::Failed:
      summary_->setText(tr("Compilation for <b>%1</b> failed (see Problems).")
                            .arg(compilation_->targetString().toHtmlEscaped()));
      break;
    case State::Compiled:
      summary_->setText(
          tr("<b>%1</b> compiled for <b>%2</b>: every operator goes to the first target that "
             "accepts it. Choose the target in the toolbar or the Compile menu.")
              .arg(document_->modelName().toHtmlEscaped(), mapping.targetString.toHtmlEscaped()));
      break;
  }
  if (mapping.isEmpty()) {
    structLabel_->clear();
  } else if (mapping.deviceMembers.isEmpty()) {
    bool accelerator = false;
    for (const models::DeviceTotalsRow& d : mapping.devices) {
      accelerator = accelerator || (d.operators > 0 && d.device != QLatin1String("host"));
    }
    structLabel_->setText(
        accelerator
            ? tr("The host CPU runs main and hands each Ethos-U operator to the NPU through the "
                 "core driver (ethosu_invoke_v3): the run function takes no struct %1.")
                  .arg(mapping.devicesStruct)
            : tr("Everything runs on the host CPU: the run function takes no struct %1.")
                  .arg(mapping.devicesStruct));
  } else {
    QString members;
    for (const QString& member : mapping.deviceMembers) {
      members += QStringLiteral(" tvm_device_t* %1;").arg(member);
    }
    structLabel_->setText(QStringLiteral("struct %1 {%2 };   \u2190 %3")
                              .arg(mapping.devicesStruct, members,
                                   tr("the application binds each device before the run")));
  }
  fitHeightToRows(totalsTable_);
  totalsTable_->resizeColumnsToContents();
  operatorTable_->resizeColumnsToContents();
  {
    // The refusal text spanning the estimate columns must not widen the first of them.
    using Ops = models::DeviceOperatorTableModel;
    const int numbers =
        operatorTable_->fontMetrics().horizontalAdvance(QStringLiteral("888,888,888"));
    const int header =
        operatorTable_->horizontalHeader()->fontMetrics().horizontalAdvance(tr("Compute"));
    operatorTable_->setColumnWidth(Ops::ComputeCyclesColumn, std::max(numbers, header) + 16);
  }
  updateSpans();
  configurationTable_->resizeColumnsToContents();
  {
    // The table as wide as its columns, the bars take the rest.
    int tableWidth = 2 * configurationTable_->frameWidth() +
                     configurationTable_->verticalScrollBar()->sizeHint().width() + 4;
    for (int c = 0; c < configurationModel_->columnCount(); ++c) {
      tableWidth += configurationTable_->columnWidth(c);
    }
    const int total = std::max(configurationSplitter_->width(), width() - 16);
    configurationSplitter_->setSizes({tableWidth, std::max(220, total - tableWidth)});
  }
  configurationPane_->setVisible(!mapping.configurations.isEmpty());
  configurationTitle_->setText(
      tr("<b>Estimated cycles of the %1 operators in each MAC configuration</b>")
          .arg(mapping.configurationsTarget.section(QLatin1Char(' '), 0, 1).toHtmlEscaped()));
  QList<ConfigurationBars::Bar> bars;
  for (const models::ConfigurationCycles& c : mapping.configurations) {
    bars.append({c.label, c.total, mapping.targetString.contains(QStringLiteral("=") + c.label)});
  }
  bars_->setBars(bars);
  showOperator(document_->currentOperator());
}

// An operator the NPU refused shows the reasons across its estimate columns.
void DeviceMappingView::updateSpans() {
  using Ops = models::DeviceOperatorTableModel;
  operatorTable_->clearSpans();
  for (int row = 0; row < operatorModel_->rowCount(); ++row) {
    if (operatorModel_->hasRefusal(row)) {
      operatorTable_->setSpan(row, Ops::ComputeCyclesColumn, 1,
                              Ops::WeightsColumn - Ops::ComputeCyclesColumn + 1);
    }
  }
}

void DeviceMappingView::showOperator(int operatorIndex) {
  const int row = operatorModel_->rowOfOperator(operatorIndex);
  if (row < 0) {
    operatorTable_->clearSelection();
    return;
  }
  const QModelIndex index = operatorModel_->index(row, 0);
  if (operatorTable_->currentIndex().row() != row) {
    operatorTable_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  }
  operatorTable_->scrollTo(index);
}

}  // namespace loupe::views
