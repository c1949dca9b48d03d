#include "models/compilation_comparison.h"

#include <QColor>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLocale>
#include <QtConcurrent>

#include "frontend/tflite_importer.h"

namespace loupe::models {

struct CompilationComparison::Result {
  QString error;
  QString labelA, labelB;
  driver::CompilationDiff diff;
  MemoryPlanLayout planA, planB;
  QList<QList<int>> modelOperatorsOfA;  // per diff row
};

namespace {

driver::Compilation compileSide(const ComparisonSide& side) {
  codegen::CompileOptions options;
  options.memory.planner = side.planner.toStdString();
  return driver::compileModel({side.model, side.targets, std::move(options), {}});
}

QString number(std::int64_t value) {
  return QLocale::system().toString(static_cast<qlonglong>(value));
}

}  // namespace

CompilationComparison::CompilationComparison(QObject* parent) : QObject(parent) {
  connect(&watcher_, &QFutureWatcher<std::shared_ptr<const Result>>::finished, this,
          &CompilationComparison::onFinished);
}

CompilationComparison::~CompilationComparison() {
  watcher_.waitForFinished();
}

void CompilationComparison::start(ComparisonSide a, ComparisonSide b) {
  if (running_) {
    pending_ =
        std::make_unique<std::pair<ComparisonSide, ComparisonSide>>(std::move(a), std::move(b));
    return;
  }
  running_ = true;
  emit started();
  watcher_.setFuture(QtConcurrent::run([a = std::move(a), b = std::move(b)]() {
    auto result = std::make_shared<Result>();
    result->labelA = a.label;
    result->labelB = b.label;
    try {
      const driver::Compilation left = compileSide(a);
      const driver::Compilation right = compileSide(b);
      result->diff = driver::diffCompilations(left, right);
      result->planA =
          memoryPlanLayout(left.model.graph, left.model.memoryPlan, left.model.memories);
      result->planB =
          memoryPlanLayout(right.model.graph, right.model.memoryPlan, right.model.memories);
      for (const driver::OperatorDifference& d : result->diff.operators) {
        QList<int> operators;
        if (d.a) {
          const ir::Operator& op = left.graph.operators.at(static_cast<std::size_t>(d.a->index));
          for (int m : op.modelOperators()) operators.append(m);
        }
        result->modelOperatorsOfA.append(operators);
      }
    } catch (const std::exception& error) {
      result->error = QString::fromUtf8(error.what());
    }
    return std::shared_ptr<const Result>(result);
  }));
}

std::optional<ir::Graph> CompilationComparison::importModel(const QString& path, QString* error) {
  try {
    return frontend::importTfliteFile(path.toStdString());
  } catch (const std::exception& failure) {
    *error = QString::fromUtf8(failure.what());
    return std::nullopt;
  }
}

bool CompilationComparison::waitUntilIdle(int timeoutMs) {
  QElapsedTimer timer;
  timer.start();
  while (running_ && timer.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return !running_;
}

void CompilationComparison::onFinished() {
  result_ = watcher_.result();
  running_ = false;
  if (pending_) {
    auto next = std::move(pending_);
    start(std::move(next->first), std::move(next->second));
    return;
  }
  emit finished();
}

QString CompilationComparison::error() const {
  return result_ ? result_->error : QString();
}

const driver::CompilationDiff& CompilationComparison::diff() const {
  static const driver::CompilationDiff empty;
  return result_ ? result_->diff : empty;
}

const MemoryPlanLayout& CompilationComparison::planA() const {
  static const MemoryPlanLayout empty;
  return result_ ? result_->planA : empty;
}

const MemoryPlanLayout& CompilationComparison::planB() const {
  static const MemoryPlanLayout empty;
  return result_ ? result_->planB : empty;
}

QString CompilationComparison::labelA() const {
  return result_ ? result_->labelA : QString();
}

QString CompilationComparison::labelB() const {
  return result_ ? result_->labelB : QString();
}

QList<int> CompilationComparison::modelOperatorsOfA(int row) const {
  return result_ ? result_->modelOperatorsOfA.value(row) : QList<int>();
}

ComparisonTableModel::ComparisonTableModel(const CompilationComparison* comparison, QObject* parent)
    : QAbstractTableModel(parent), comparison_(comparison) {
  connect(comparison, &CompilationComparison::started, this, [this] {
    beginResetModel();
    endResetModel();
  });
  connect(comparison, &CompilationComparison::finished, this, [this] {
    beginResetModel();
    endResetModel();
  });
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(comparison_->diff().operators.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString ComparisonTableModel::status(int row) const {
  const driver::OperatorDifference& d =
      comparison_->diff().operators.at(static_cast<std::size_t>(row));
  return d.added()     ? QStringLiteral("added")
         : d.removed() ? QStringLiteral("removed")
         : d.changed() ? QStringLiteral("changed")
                       : QStringLiteral("same");
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const driver::OperatorDifference& d =
      comparison_->diff().operators.at(static_cast<std::size_t>(index.row()));
  const QString state = status(index.row());
  if (role == Qt::BackgroundRole) {
    if (state == QLatin1String("added")) return QColor(0xdf, 0xf3, 0xdc);
    if (state == QLatin1String("removed")) return QColor(0xf8, 0xdc, 0xdc);
    if (state == QLatin1String("changed")) return QColor(0xfd, 0xf0, 0xcc);
    return {};
  }
  if (role == Qt::TextAlignmentRole) {
    return index.column() >= MacsAColumn && index.column() <= CyclesDeltaColumn
               ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
               : QVariant();
  }
  if (role == Qt::ToolTipRole) {
    QStringList changes;
    for (const std::string& c : d.changes) changes << QString::fromStdString(c);
    return changes.isEmpty() ? QVariant() : QVariant(tr("changed: %1").arg(changes.join(", ")));
  }
  if (role != Qt::DisplayRole) return {};
  const driver::ComparedOperator& any = d.a ? *d.a : *d.b;
  auto both = [&](auto field) -> std::pair<QString, QString> {
    return {d.a ? field(*d.a) : QString(), d.b ? field(*d.b) : QString()};
  };
  auto cycles = [](const driver::ComparedOperator& op) {
    return op.estimatedCycles ? number(*op.estimatedCycles) : QStringLiteral("-");
  };
  switch (index.column()) {
    case StatusColumn:
      return state;
    case IndexColumn: {
      const auto [a, b] = both([](const auto& op) { return QStringLiteral("#%1").arg(op.index); });
      return a == b
                 ? a
                 : QStringLiteral("%1 \u2192 %2").arg(a.isEmpty() ? "-" : a, b.isEmpty() ? "-" : b);
    }
    case TensorColumn:
      return QString::fromStdString(any.name);
    case TypeColumn:
      return d.a && d.b && d.a->type != d.b->type
                 ? QStringLiteral("%1 \u2192 %2")
                       .arg(QString::fromStdString(d.a->type), QString::fromStdString(d.b->type))
                 : QString::fromStdString(any.type);
    case TargetColumn: {
      const auto [a, b] = both([](const auto& op) { return QString::fromStdString(op.target); });
      return a == b
                 ? a
                 : QStringLiteral("%1 \u2192 %2").arg(a.isEmpty() ? "-" : a, b.isEmpty() ? "-" : b);
    }
    case MacsAColumn:
      return d.a ? number(d.a->macs) : QString();
    case MacsBColumn:
      return d.b ? number(d.b->macs) : QString();
    case WeightsAColumn:
      return d.a ? number(d.a->parameterBytes) : QString();
    case WeightsBColumn:
      return d.b ? number(d.b->parameterBytes) : QString();
    case OutputAColumn:
      return d.a ? number(d.a->outputBytes) : QString();
    case OutputBColumn:
      return d.b ? number(d.b->outputBytes) : QString();
    case CyclesAColumn:
      return d.a ? cycles(*d.a) : QString();
    case CyclesBColumn:
      return d.b ? cycles(*d.b) : QString();
    case CyclesDeltaColumn:
      if (d.a && d.b && d.a->estimatedCycles && d.b->estimatedCycles) {
        const std::int64_t delta = *d.b->estimatedCycles - *d.a->estimatedCycles;
        return (delta > 0 ? QStringLiteral("+") : QString()) + number(delta);
      }
      return QString();
    default:
      return {};
  }
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case StatusColumn:
      return tr("Status");
    case IndexColumn:
      return tr("Operator");
    case TensorColumn:
      return tr("Tensor written");
    case TypeColumn:
      return tr("Type");
    case TargetColumn:
      return tr("Target A \u2192 B");
    case MacsAColumn:
      return tr("MACs A");
    case MacsBColumn:
      return tr("MACs B");
    case WeightsAColumn:
      return tr("Weights A");
    case WeightsBColumn:
      return tr("Weights B");
    case OutputAColumn:
      return tr("Output A");
    case OutputBColumn:
      return tr("Output B");
    case CyclesAColumn:
      return tr("Est. cycles A");
    case CyclesBColumn:
      return tr("Est. cycles B");
    case CyclesDeltaColumn:
      return tr("\u0394 cycles");
    default:
      return {};
  }
}

}  // namespace loupe::models
