#include "driver/compilation_diff.h"

#include <algorithm>
#include <map>

#include "analysis/operator_cost.h"

namespace loupe::driver {

namespace {

std::vector<ComparedOperator> comparedOperators(const Compilation& compilation) {
  std::vector<ComparedOperator> result;
  for (const target::OperatorPlacementRow& row : compilation.devices.operators) {
    const ir::Operator& op =
        compilation.graph.operators.at(static_cast<std::size_t>(row.operatorIndex));
    const analysis::OperatorCost cost = analysis::operatorCost(compilation.graph, op);
    ComparedOperator compared;
    compared.index = row.operatorIndex;
    compared.name = row.name;
    compared.type = row.type;
    compared.target = row.target;
    compared.macs = row.macs;
    compared.parameterBytes = cost.parameterBytes;
    compared.outputBytes = cost.outputBytes;
    if (row.estimate) compared.estimatedCycles = row.estimate->estimatedCycles;
    compared.modelOperators = op.modelOperators();
    result.push_back(std::move(compared));
  }
  return result;
}

CompilationTotals totalsOf(const Compilation& compilation,
                           const std::vector<ComparedOperator>& operators) {
  CompilationTotals totals;
  totals.operators = static_cast<int>(operators.size());
  const analysis::GraphCost cost = analysis::graphCost(compilation.graph);
  totals.macs = cost.macs;
  totals.parameterBytes = cost.parameterBytes;
  totals.workspaceBytes = compilation.model.workspaceBytes();
  totals.stateBytes = compilation.model.stateBytes;
  totals.functions = static_cast<int>(compilation.model.functions.size());
  for (const tir::PrimFunc& f : compilation.model.functions) {
    for (const tir::Buffer& c : f.constants) {
      totals.constantBytes += static_cast<std::int64_t>(c->data.size());
    }
  }
  std::int64_t cycles = 0;
  bool every = !operators.empty();
  for (const ComparedOperator& op : operators) {
    every = every && op.estimatedCycles.has_value();
    if (op.estimatedCycles) cycles += *op.estimatedCycles;
  }
  if (every) totals.estimatedCycles = cycles;
  return totals;
}

std::vector<std::string> changesBetween(const ComparedOperator& a, const ComparedOperator& b) {
  std::vector<std::string> changes;
  if (a.type != b.type) changes.push_back("type");
  if (a.target != b.target) changes.push_back("target");
  if (a.macs != b.macs) changes.push_back("macs");
  if (a.parameterBytes != b.parameterBytes) changes.push_back("parameter_bytes");
  if (a.outputBytes != b.outputBytes) changes.push_back("output_bytes");
  if (a.estimatedCycles != b.estimatedCycles) changes.push_back("estimated_cycles");
  return changes;
}

bool sameTotals(const CompilationTotals& a, const CompilationTotals& b) {
  return a.operators == b.operators && a.macs == b.macs && a.parameterBytes == b.parameterBytes &&
         a.workspaceBytes == b.workspaceBytes && a.constantBytes == b.constantBytes &&
         a.stateBytes == b.stateBytes && a.functions == b.functions &&
         a.estimatedCycles == b.estimatedCycles;
}

nlohmann::json operatorJson(const std::optional<ComparedOperator>& op) {
  if (!op) return nullptr;
  return {{"index", op->index},
          {"name", op->name},
          {"type", op->type},
          {"target", op->target},
          {"macs", op->macs},
          {"parameter_bytes", op->parameterBytes},
          {"output_bytes", op->outputBytes},
          {"estimated_cycles",
           op->estimatedCycles ? nlohmann::json(*op->estimatedCycles) : nlohmann::json(nullptr)},
          {"measured_time",
           op->measuredTime ? nlohmann::json(*op->measuredTime) : nlohmann::json(nullptr)}};
}

nlohmann::json totalsJson(const CompilationTotals& t) {
  return {{"operators", t.operators},
          {"macs", t.macs},
          {"parameter_bytes", t.parameterBytes},
          {"workspace_bytes", t.workspaceBytes},
          {"constant_bytes", t.constantBytes},
          {"state_bytes", t.stateBytes},
          {"functions", t.functions},
          {"estimated_cycles",
           t.estimatedCycles ? nlohmann::json(*t.estimatedCycles) : nlohmann::json(nullptr)},
          {"measured_time",
           t.measuredTime ? nlohmann::json(*t.measuredTime) : nlohmann::json(nullptr)}};
}

}  // namespace

int CompilationDiff::changedCount() const {
  return static_cast<int>(std::count_if(operators.begin(), operators.end(),
                                        [](const OperatorDifference& d) { return d.changed(); }));
}

int CompilationDiff::mergedCount() const {
  return static_cast<int>(std::count_if(operators.begin(), operators.end(),
                                        [](const OperatorDifference& d) { return d.merged(); }));
}

int CompilationDiff::addedCount() const {
  return static_cast<int>(std::count_if(operators.begin(), operators.end(),
                                        [](const OperatorDifference& d) { return d.added(); }));
}

int CompilationDiff::removedCount() const {
  return static_cast<int>(std::count_if(operators.begin(), operators.end(),
                                        [](const OperatorDifference& d) { return d.removed(); }));
}

bool CompilationDiff::identical() const {
  return changedCount() == 0 && addedCount() == 0 && removedCount() == 0 && sameTotals(a, b);
}

CompilationDiff diffCompilations(const Compilation& a, const Compilation& b) {
  const std::vector<ComparedOperator> left = comparedOperators(a);
  const std::vector<ComparedOperator> right = comparedOperators(b);
  std::vector<int> partner(left.size(), -1);  // left index -> right index
  std::vector<bool> taken(right.size(), false);
  std::vector<bool> merged(left.size(), false);

  // First, an operator that stands for several of the model's (a region
  // compiled to one) with each operator of the other side among them.
  const auto within = [](const ComparedOperator& part, const ComparedOperator& whole) {
    return whole.modelOperators.size() > part.modelOperators.size() &&
           std::all_of(part.modelOperators.begin(), part.modelOperators.end(), [&](int m) {
             return std::find(whole.modelOperators.begin(), whole.modelOperators.end(), m) !=
                    whole.modelOperators.end();
           });
  };
  for (std::size_t i = 0; i < left.size(); ++i) {
    for (std::size_t j = 0; j < right.size() && partner[i] < 0; ++j) {
      if (within(left[i], right[j]) || within(right[j], left[i])) {
        partner[i] = static_cast<int>(j);
        taken[j] = true;
        merged[i] = true;
      }
    }
  }

  // First by the name of the tensor written, where it names one operator on
  // each side.
  std::map<std::string, std::vector<std::size_t>> leftByName, rightByName;
  for (std::size_t i = 0; i < left.size(); ++i) leftByName[left[i].name].push_back(i);
  for (std::size_t j = 0; j < right.size(); ++j) rightByName[right[j].name].push_back(j);
  for (const auto& [name, indices] : leftByName) {
    const auto other = rightByName.find(name);
    if (name.empty() || indices.size() != 1 || other == rightByName.end() ||
        other->second.size() != 1 || partner[indices[0]] >= 0 || taken[other->second[0]]) {
      continue;
    }
    partner[indices[0]] = static_cast<int>(other->second[0]);
    taken[other->second[0]] = true;
  }
  // Then the n-th unmatched operator of a type with the n-th of B's.
  std::map<std::string, std::vector<std::size_t>> rightOpenByType;
  for (std::size_t j = 0; j < right.size(); ++j) {
    if (!taken[j]) rightOpenByType[right[j].type].push_back(j);
  }
  std::map<std::string, std::size_t> used;
  for (std::size_t i = 0; i < left.size(); ++i) {
    if (partner[i] >= 0) continue;
    auto& open = rightOpenByType[left[i].type];
    std::size_t& next = used[left[i].type];
    if (next < open.size()) {
      partner[i] = static_cast<int>(open[next]);
      taken[open[next]] = true;
      ++next;
    }
  }

  CompilationDiff diff;
  for (std::size_t i = 0; i < left.size(); ++i) {
    OperatorDifference d;
    d.a = left[i];
    if (partner[i] >= 0) {
      d.b = right[static_cast<std::size_t>(partner[i])];
      // A merged pair's MACs, bytes and cycles are of different wholes.
      d.changes = merged[i] ? std::vector<std::string>{"merged"} : changesBetween(*d.a, *d.b);
      if (merged[i] && d.a->target != d.b->target) d.changes.push_back("target");
    }
    diff.operators.push_back(std::move(d));
  }
  for (std::size_t j = 0; j < right.size(); ++j) {
    if (!taken[j]) diff.operators.push_back({std::nullopt, right[j], {}});
  }
  diff.a = totalsOf(a, left);
  diff.b = totalsOf(b, right);
  return diff;
}

void setMeasuredTimes(CompilationDiff& diff, DiffSide side, const std::vector<double>& times,
                      double total, const std::string& unit) {
  diff.timeUnit = unit;
  (side == DiffSide::A ? diff.a : diff.b).measuredTime = total;
  for (OperatorDifference& d : diff.operators) {
    std::optional<ComparedOperator>& op = side == DiffSide::A ? d.a : d.b;
    if (op && op->index >= 0 && static_cast<std::size_t>(op->index) < times.size()) {
      op->measuredTime = times[static_cast<std::size_t>(op->index)];
    }
  }
}

nlohmann::json compilationDiffJson(const CompilationDiff& diff) {
  nlohmann::json operators = nlohmann::json::array();
  for (const OperatorDifference& d : diff.operators) {
    const char* status = d.added()     ? "added"
                         : d.removed() ? "removed"
                         : d.merged()  ? "merged"
                         : d.changed() ? "changed"
                                       : "same";
    operators.push_back({{"status", status},
                         {"a", operatorJson(d.a)},
                         {"b", operatorJson(d.b)},
                         {"changes", d.changes}});
  }
  nlohmann::json json = {{"identical", diff.identical()},
                         {"summary",
                          {{"changed", diff.changedCount()},
                           {"merged", diff.mergedCount()},
                           {"added", diff.addedCount()},
                           {"removed", diff.removedCount()}}},
                         {"totals", {{"a", totalsJson(diff.a)}, {"b", totalsJson(diff.b)}}},
                         {"operators", operators}};
  if (!diff.timeUnit.empty()) {
    json["time_unit"] = diff.timeUnit;
    json["measured_on"] = diff.measuredOn;
  }
  return json;
}

}  // namespace loupe::driver
