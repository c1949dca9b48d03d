// loupec diff: two compilations side by side - one model with other targets
// or another planner, or two versions of a model - operator by operator
// (driver/compilation_diff.h) and in totals with their ratio.
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/board_run_options.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "deploy/run_on_board.h"
#include "driver/compilation_diff.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"

namespace loupe::cli {

const char* const kDiffUsage =
    "  loupec diff A B [--target T] [--target-b T] [--planner NAME] [--planner-b NAME]\n"
    "                  [--platform NAME] [--json]\n"
    "      compiles two models (or one model twice) and compares them: operators correspond\n"
    "      as merged (one side compiled several of the model's into one, as the Ethos-U\n"
    "      does), by the tensor they write, then by type and order; each pair's changes (type,\n"
    "      target, MACs, weight and output bytes, estimated cycles), operators added and\n"
    "      removed, and the totals (MACs, workspace, constants, functions) of A and B with\n"
    "      B/A. --target and --planner apply to both; --target-b and --planner-b to B only\n"
    "      (compare CPU with NPU: --target-b \"ethos-u, c\"). --platform NAME\n"
    "      also runs both on that platform (host, a QEMU board: loupec platforms) on the\n"
    "      same random inputs (seed 1), checks each against the reference interpreter and\n"
    "      prints every operator's measured time in A and B with B-A and B/A. --json prints\n"
    "      {\"identical\", \"summary\", \"totals\", \"operators\"} (and \"time_unit\",\n"
    "      \"measured_on\" and each side's \"measured_time\" when measured).";

namespace {

deploy::MeasuredCompilation compileSide(const std::string& path, const std::string& targetText,
                                        const std::string& planner, const char* option,
                                        const deploy::Registries& registries,
                                        const std::shared_ptr<const deploy::Platform>& platform,
                                        const char* sideName) {
  target::TargetList targets;
  try {
    targets = target::parseTargetString(targetText, registries.targets);
  } catch (const target::TargetStringError& error) {
    throw UsageError(std::string(option) + ": " + error.what());
  }
  codegen::CompileOptions options;
  options.memory.planner = planner;
  return deploy::compileForComparison(
      {frontend::importTfliteFile(path), targets, std::move(options), {}}, platform, sideName, {},
      [sideName](const std::string& stage, const std::string& detail) {
        std::cerr << "[" << sideName << " " << stage << "] " << detail << "\n";
      });
}

std::string value(const std::optional<std::int64_t>& v) {
  return v ? ir::groupDigits(*v) : std::string("-");
}

std::string ratio(double a, double b) {
  if (a == 0) return b == 0 ? "1.00" : "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", b / a);
  return text;
}

void printOperator(const driver::ComparedOperator& op) {
  std::cout << op.type << " '" << op.name << "' (#" << op.index << ", " << op.target << ", "
            << ir::groupDigits(op.macs) << " MACs)";
}

void printChanges(const driver::OperatorDifference& d) {
  const driver::ComparedOperator& a = *d.a;
  const driver::ComparedOperator& b = *d.b;
  std::cout << "  ~ " << a.type << " '" << a.name << "' (#" << a.index << " -> #" << b.index
            << "):";
  const char* separator = " ";
  auto change = [&](const std::string& what, const std::string& from, const std::string& to) {
    std::cout << separator << what << " " << from << " -> " << to;
    separator = "; ";
  };
  for (const std::string& c : d.changes) {
    if (c == "merged") {
      const driver::ComparedOperator& whole =
          a.modelOperators.size() > b.modelOperators.size() ? a : b;
      std::cout << separator << (&whole == &b ? "compiled into B's #" : "compiled from A's #")
                << whole.index << " " << whole.type << " (with " << whole.modelOperators.size() - 1
                << " other model operator(s))";
      separator = "; ";
    }
    if (c == "type") change("type", a.type, b.type);
    if (c == "target") change("target", a.target, b.target);
    if (c == "macs") change("MACs", ir::groupDigits(a.macs), ir::groupDigits(b.macs));
    if (c == "parameter_bytes") {
      change("weights", ir::groupDigits(a.parameterBytes), ir::groupDigits(b.parameterBytes));
    }
    if (c == "output_bytes") {
      change("output", ir::groupDigits(a.outputBytes), ir::groupDigits(b.outputBytes));
    }
    if (c == "estimated_cycles") {
      change("estimated cycles", value(a.estimatedCycles), value(b.estimatedCycles));
    }
  }
  std::cout << "\n";
}

void printTotals(const driver::CompilationDiff& diff) {
  std::cout << "totals" << std::setw(31) << "A" << std::setw(16) << "B" << std::setw(8) << "B/A"
            << "\n";
  auto row = [](const char* what, const std::optional<std::int64_t>& a,
                const std::optional<std::int64_t>& b) {
    std::cout << "  " << std::left << std::setw(20) << what << std::right << std::setw(15)
              << value(a) << std::setw(16) << value(b) << std::setw(8)
              << (a && b ? ratio(static_cast<double>(*a), static_cast<double>(*b)) : "-") << "\n";
  };
  const auto& a = diff.a;
  const auto& b = diff.b;
  row("operators", a.operators, b.operators);
  row("MACs", a.macs, b.macs);
  row("weight bytes", a.parameterBytes, b.parameterBytes);
  row("workspace bytes", a.workspaceBytes, b.workspaceBytes);
  row("constant bytes", a.constantBytes, b.constantBytes);
  row("state bytes", a.stateBytes, b.stateBytes);
  row("functions", a.functions, b.functions);
  row("estimated cycles", a.estimatedCycles, b.estimatedCycles);
}

std::string timeText(const std::optional<double>& time) {
  return time ? ir::groupDigits(static_cast<std::int64_t>(*time + 0.5)) : std::string("-");
}

// Every operator's measured time, A then B, the difference and the ratio.
void printMeasured(const driver::CompilationDiff& diff) {
  std::cout << "measured on " << diff.measuredOn << " (" << diff.timeUnit << ")\n"
            << "  " << std::left << std::setw(34) << "operator" << std::right << std::setw(14)
            << "A" << std::setw(14) << "B" << std::setw(14) << "B-A" << std::setw(8) << "B/A"
            << "\n";
  auto row = [](const std::string& what, const std::optional<double>& a,
                const std::optional<double>& b) {
    std::string delta = "-";
    if (a && b) {
      const auto d = static_cast<std::int64_t>(*b - *a + (*b >= *a ? 0.5 : -0.5));
      delta = (d > 0 ? "+" : "") + ir::groupDigits(d);
    }
    std::cout << "  " << std::left << std::setw(34) << what.substr(0, 33) << std::right
              << std::setw(14) << timeText(a) << std::setw(14) << timeText(b) << std::setw(14)
              << delta << std::setw(8) << (a && b ? ratio(*a, *b) : "-") << "\n";
  };
  for (const driver::OperatorDifference& d : diff.operators) {
    const driver::ComparedOperator& any = d.a ? *d.a : *d.b;
    const std::string index =
        d.a && d.b ? "#" + std::to_string(d.a->index) + "->#" + std::to_string(d.b->index)
                   : "#" + std::to_string(any.index);
    row(index + " " + any.type, d.a ? d.a->measuredTime : std::nullopt,
        d.b ? d.b->measuredTime : std::nullopt);
  }
  row("whole run", diff.a.measuredTime, diff.b.measuredTime);
}

}  // namespace

int runDiffCommand(const std::vector<std::string>& args, const deploy::Registries& registries) {
  const auto parsed = parseArguments(args, {{"--target", OptionSpec::Kind::Value},
                                            {"--target-b", OptionSpec::Kind::Value},
                                            {"--planner", OptionSpec::Kind::Value},
                                            {"--planner-b", OptionSpec::Kind::Value},
                                            {"--platform", OptionSpec::Kind::Value},
                                            {"--json", OptionSpec::Kind::Flag}});
  if (parsed.positional.size() != 2) throw UsageError("diff needs two MODEL files, A and B");
  const std::string targetA = parsed.value("--target").value_or("c");
  const std::string targetB = parsed.value("--target-b").value_or(targetA);
  const std::string plannerA = parsed.value("--planner").value_or("branch_and_bound");
  const std::string plannerB = parsed.value("--planner-b").value_or(plannerA);
  std::shared_ptr<const deploy::Platform> platform;
  if (const auto name = parsed.value("--platform")) {
    platform = platformNamed(*name, registries.platforms);
  }
  const deploy::MeasuredCompilation a =
      compileSide(parsed.positional[0], targetA, plannerA, "--target", registries, platform, "A");
  const deploy::MeasuredCompilation b =
      compileSide(parsed.positional[1], targetB, plannerB, "--target-b", registries, platform, "B");
  driver::CompilationDiff diff = driver::diffCompilations(a.compilation, b.compilation);
  if (platform) deploy::addMeasuredTimes(diff, a, b, *platform);
  if (parsed.has("--json")) {
    nlohmann::json json = driver::compilationDiffJson(diff);
    json["a"] = {{"model", parsed.positional[0]}, {"target", targetA}, {"planner", plannerA}};
    json["b"] = {{"model", parsed.positional[1]}, {"target", targetB}, {"planner", plannerB}};
    std::cout << json.dump(2) << "\n";
    return 0;
  }
  std::cout << "A: " << parsed.positional[0] << " (targets " << targetA << ", planner " << plannerA
            << ")\n"
            << "B: " << parsed.positional[1] << " (targets " << targetB << ", planner " << plannerB
            << ")\n";
  if (diff.identical()) {
    std::cout << "no differences: " << diff.a.operators << " operators, the same totals\n";
    if (!diff.timeUnit.empty()) printMeasured(diff);
    return 0;
  }
  std::cout << "operators: " << diff.a.operators << " in A, " << diff.b.operators << " in B; "
            << diff.changedCount() << " changed (" << diff.mergedCount()
            << " merged into one operator), " << diff.addedCount() << " added, "
            << diff.removedCount() << " removed\n";
  for (const driver::OperatorDifference& d : diff.operators) {
    if (d.changed()) printChanges(d);
  }
  for (const driver::OperatorDifference& d : diff.operators) {
    if (!d.removed()) continue;
    std::cout << "  - ";
    printOperator(*d.a);
    std::cout << "\n";
  }
  for (const driver::OperatorDifference& d : diff.operators) {
    if (!d.added()) continue;
    std::cout << "  + ";
    printOperator(*d.b);
    std::cout << "\n";
  }
  printTotals(diff);
  if (!diff.timeUnit.empty()) printMeasured(diff);
  return 0;
}

}  // namespace loupe::cli
