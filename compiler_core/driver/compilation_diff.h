// What differs between two compilations: of one model with other targets, a
// planner, a board, a tuning log, or of two versions of a model (retrained,
// re-quantised). An operator one side compiled from several of the model's
// (an Ethos-U region) corresponds to each of them on the other side (a pair
// "merged"); the others correspond by the name of the tensor they write,
// then, among those left, by type and order; each pair says what changed
// (type, target, MACs, weight and output bytes), the rest are added or
// removed. `loupec diff` prints it and the GUI's comparison shows it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "driver/compile_driver.h"

namespace loupe::driver {

// One operator of one compilation, as compared.
struct ComparedOperator {
  int index = 0;       // in the compilation's partitioned graph
  std::string name;    // the tensor it writes
  std::string type;    // "CONV_2D"
  std::string target;  // "c", "ethos-u"; empty when no target took it
  std::int64_t macs = 0;
  std::int64_t parameterBytes = 0;  // its constant operands
  std::int64_t outputBytes = 0;
  std::optional<std::int64_t> estimatedCycles;  // its target's estimate, if it has a model
  // Measured on a board (setMeasuredTimes), in CompilationDiff::timeUnit.
  std::optional<double> measuredTime;
  std::vector<int> modelOperators;  // the model's operators it stands for
};

struct OperatorDifference {
  std::optional<ComparedOperator> a;  // none: added in B
  std::optional<ComparedOperator> b;  // none: removed from A
  // Of a pair: "merged" (one side's operator stands for several of the
  // model's, the other's among them), "type", "target", "macs", ... (empty: same).
  std::vector<std::string> changes;

  bool added() const { return !a; }
  bool removed() const { return !b; }
  bool changed() const { return a && b && !changes.empty(); }
  bool merged() const { return !changes.empty() && changes.front() == "merged"; }
};

// A compilation's totals, as compared.
struct CompilationTotals {
  int operators = 0;
  std::int64_t macs = 0;
  std::int64_t parameterBytes = 0;  // the model's constants, each once
  std::int64_t workspaceBytes = 0;  // all pools together
  std::int64_t constantBytes = 0;   // the generated constant arrays (flash)
  std::int64_t stateBytes = 0;
  int functions = 0;                            // generated operator and region functions
  std::optional<std::int64_t> estimatedCycles;  // the sum, when every operator has an estimate
  std::optional<double> measuredTime;           // the whole run, measured on a board
};

struct CompilationDiff {
  std::vector<OperatorDifference> operators;  // A's order, then what B adds in B's order
  CompilationTotals a;
  CompilationTotals b;
  // Both sides measured on one board: its profile's unit ("instructions",
  // "ns") and name; empty when not measured. Measured times never make an
  // operator "changed" (a real board's clock jitters).
  std::string timeUnit;
  std::string measuredOn;

  int changedCount() const;  // merged pairs included
  int mergedCount() const;
  int addedCount() const;
  int removedCount() const;
  // No operator added, removed or changed, and equal totals.
  bool identical() const;
};

CompilationDiff diffCompilations(const Compilation& a, const Compilation& b);

enum class DiffSide { A, B };
// What one side measured on a board: `times` per operator of its compiled
// graph (a call running several already shared among them), `total` the
// whole run, both in `unit`.
void setMeasuredTimes(CompilationDiff& diff, DiffSide side, const std::vector<double>& times,
                      double total, const std::string& unit);

// {"identical", "totals": {"a", "b"}, "operators": [{"status": "same" |
// "changed" | "added" | "removed", "a", "b", "changes"}]}, and "time_unit"
// when measured (each side's "measured_time").
nlohmann::json compilationDiffJson(const CompilationDiff& diff);

}  // namespace loupe::driver
