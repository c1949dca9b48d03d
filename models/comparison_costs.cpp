#include "models/comparison_costs.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>

namespace loupe::models {

namespace {

// The row's model operators on one side: `own`, or of a merged pair (one
// side's operators a strict subset of the other's) the smaller set.
QList<int> rowOperators(const QList<int>& own, const QList<int>& other) {
  if (own.size() <= other.size() || other.isEmpty()) return own;
  const bool part =
      std::all_of(other.cbegin(), other.cend(), [&own](int m) { return own.contains(m); });
  return part ? other : own;
}

std::optional<OperatorCost> sideCost(const QList<int>& operators, const SideCostFigures& side) {
  if (operators.isEmpty()) return std::nullopt;
  int onNpu = 0;
  double cycles = 0, measured = 0;
  for (int m : operators) {
    if (const std::optional<qint64> npu = side.npuCycles.value(m)) {
      ++onNpu;
      cycles += static_cast<double>(*npu);
    } else if (m >= 0 && static_cast<std::size_t>(m) < side.measured.size()) {
      measured += side.measured[static_cast<std::size_t>(m)];
    }
  }
  if (onNpu == operators.size()) return OperatorCost{cycles, CostKind::EstimatedNpuCycles};
  // One compiled operator runs on one device; a row half on each has no one figure.
  if (onNpu > 0 || side.measured.empty()) return std::nullopt;
  return OperatorCost{measured, CostKind::Measured};
}

}  // namespace

QList<RowCosts> comparisonRowCosts(const QList<QList<int>>& operatorsA,
                                   const QList<QList<int>>& operatorsB, const SideCostFigures& a,
                                   const SideCostFigures& b) {
  QList<RowCosts> rows;
  for (int row = 0; row < operatorsA.size(); ++row) {
    const QList<int> opsA = operatorsA[row];
    const QList<int> opsB = operatorsB.value(row);
    rows.append({sideCost(rowOperators(opsA, opsB), a), sideCost(rowOperators(opsB, opsA), b)});
  }
  return rows;
}

QList<CostTotals> comparisonCostTotals(const QList<RowCosts>& rows,
                                       const QList<QList<int>>& operatorsA) {
  QList<CostTotals> totals;
  for (int row = 0; row < rows.size(); ++row) {
    const RowCosts& r = rows[row];
    if (!r.a || !r.b) continue;
    auto same = [&r](const CostTotals& t) { return t.a == r.a->kind && t.b == r.b->kind; };
    auto it = std::find_if(totals.begin(), totals.end(), same);
    if (it == totals.end()) {
      totals.append(CostTotals{r.a->kind, r.b->kind, {}, 0, 0});
      it = totals.end() - 1;
    }
    for (int m : operatorsA.value(row)) {
      if (!it->modelOperators.contains(m)) it->modelOperators.append(m);
    }
    it->totalA += r.a->value;
    it->totalB += r.b->value;
  }
  return totals;
}

QString costKindText(CostKind kind, const QString& timeUnit) {
  if (kind == CostKind::EstimatedNpuCycles) {
    return QCoreApplication::translate("ComparisonCosts", "estimated NPU cycles");
  }
  return timeUnit.isEmpty()
             ? QCoreApplication::translate("ComparisonCosts", "measured time")
             : QCoreApplication::translate("ComparisonCosts", "measured %1").arg(timeUnit);
}

QString costKindAbbreviation(CostKind kind, const QString& timeUnit) {
  if (kind == CostKind::EstimatedNpuCycles) return QStringLiteral("NPU cyc");
  return timeUnit == QStringLiteral("instructions") ? QStringLiteral("instr.") : timeUnit;
}

QString costRatioText(double ratio) {
  return QString::number(ratio, ratio < 0.1 ? 'g' : 'f', 2);
}

QString operatorRangesText(const QList<int>& operators) {
  QList<int> sorted = operators;
  std::sort(sorted.begin(), sorted.end());
  QStringList parts;
  for (int i = 0; i < sorted.size();) {
    int j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    parts << (j > i ? QStringLiteral("%1\u2013%2").arg(sorted[i]).arg(sorted[j])
                    : QString::number(sorted[i]));
    i = j + 1;
  }
  return parts.join(QStringLiteral(", "));
}

}  // namespace loupe::models
