// What each row of a comparison costs on either side, in the one figure that
// side has for it: the estimated NPU cycles of the operators an Ethos-U runs
// (the performance model's, per model operator: DeviceMapping::
// npuCyclesOfModelOperator), else the time measured on the board
// (instructions on QEMU, ns on the host). This is the Compare tab's "CPU vs
// NPU" (measured instructions against estimated NPU cycles) and "one
// configuration vs another" (estimated NPU cycles on both sides).
// Estimated cycles and measured instructions are different units, so every
// figure carries its kind and rows are totalled only with rows of the same
// pair of kinds.
#pragma once

#include <QList>
#include <QString>
#include <optional>
#include <vector>

namespace loupe::models {

enum class CostKind { EstimatedNpuCycles, Measured };

struct OperatorCost {
  double value = 0;
  CostKind kind = CostKind::Measured;
};

struct RowCosts {
  std::optional<OperatorCost> a, b;  // none: that side has no figure for the row
};

// What one side knows per model operator of its model.
struct SideCostFigures {
  QList<std::optional<qint64>> npuCycles;  // DeviceMapping::npuCyclesOfModelOperator
  std::vector<double> measured;            // per model operator; empty when not measured
};

// Per row, the side's figure over the row's model operators of that side
// (`operatorsA`/`operatorsB`, as CompilationComparison lists them); of a
// merged pair, only the model operators both stand for, so the side that
// compiled many into one operator counts the row's share of it.
QList<RowCosts> comparisonRowCosts(const QList<QList<int>>& operatorsA,
                                   const QList<QList<int>>& operatorsB, const SideCostFigures& a,
                                   const SideCostFigures& b);

// The rows that have a figure on both sides, totalled per pair of kinds.
struct CostTotals {
  CostKind a = CostKind::Measured;
  CostKind b = CostKind::Measured;
  QList<int> modelOperators;  // A's model operators of those rows, in row order
  double totalA = 0, totalB = 0;
};
QList<CostTotals> comparisonCostTotals(const QList<RowCosts>& rows,
                                       const QList<QList<int>>& operatorsA);

// "estimated NPU cycles", "measured instructions" (`timeUnit`: the board
// profile's unit).
QString costKindText(CostKind kind, const QString& timeUnit);
// A short unit for a figure beside others of another kind: "NPU cyc", "instr.".
QString costKindAbbreviation(CostKind kind, const QString& timeUnit);

// B / A as the tab writes it: "0.62", small ones with two significant
// digits ("0.034": an NPU's cycles against a CPU's instructions).
QString costRatioText(double ratio);

// "0–11", "0–3, 7, 9".
QString operatorRangesText(const QList<int>& operators);

}  // namespace loupe::models
