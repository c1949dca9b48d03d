// A compilation target: where an operator can run (the CPU through the C code
// generator, an NPU). Targets are plugins (plugins/targets) behind this
// interface; the core asks each, in the priority order of the target string,
// whether it accepts an operator, and a refusal comes with its reasons in
// words, so the CLI and the GUI can say why an operator stays on the CPU.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/model_compiler.h"
#include "ir/graph.h"
#include "target/operator_estimate.h"

namespace loupe::target {

// The CPU target: the C code generator. Operators on it stay in main; every
// other target's operators are grouped into regions (external functions).
inline constexpr std::string_view kCpuTargetName = "c";
// The CPU target's option naming the CPU the C is lowered for (-mcpu=
// cortex-m55, target/cpu_isa.h) or "generic" for portable C. Unset (empty),
// the CPU of the board the model is deployed to decides, and portable C
// where there is none (an MLF, the host).
inline constexpr std::string_view kCpuOption = "mcpu";
inline constexpr std::string_view kGenericCpu = "generic";

struct TargetVerdict {
  bool accepted = false;
  std::vector<std::string> reasons;  // empty when accepted

  static TargetVerdict accept() { return {true, {}}; }
  static TargetVerdict reject(std::vector<std::string> reasons) {
    return {false, std::move(reasons)};
  }
};

// Option key (without the dash) -> value, with every option's default filled in.
using TargetOptions = std::map<std::string, std::string>;

class Target {
 public:
  Target(std::string name, TargetOptions options)
      : name_(std::move(name)), options_(std::move(options)) {}
  virtual ~Target() = default;

  const std::string& name() const { return name_; }
  const TargetOptions& options() const { return options_; }
  // "ethos-u -accelerator_config=ethos-u55-128": the name and every option that is set (an empty
  // value is an option left to its context), as a target string.
  std::string toString() const;
  // How a person is shown the target: "Ethos-U ethos-u55-128".
  virtual std::string displayName() const = 0;
  virtual TargetVerdict accepts(const ir::Graph& graph, const ir::Operator& op) const = 0;
  // How code generation compiles the regions placed on this target: none
  // for the CPU (the C lowering, per operator), else the target's own
  // lowering of a whole region to one function and the device it runs on.
  virtual std::optional<codegen::ExternalLowering> externalLowering() const { return std::nullopt; }
  // A target whose regions become one operator of the graph before
  // partitioning (the Ethos-U: one ethos-u operator holding the region's
  // command stream, which the CPU's code runs through the driver): the graph
  // with its operators first..last (execution order) replaced by it. None
  // for targets whose regions are lowered as external functions.
  using RegionOperatorCompiler =
      std::function<ir::Graph(const ir::Graph& graph, int first, int last)>;
  virtual std::optional<RegionOperatorCompiler> regionOperatorCompiler() const {
    return std::nullopt;
  }
  // What an operator this target accepted costs on it, from the target's
  // performance model; none for a target without one (the CPU).
  virtual std::optional<OperatorEstimate> estimate(const ir::Graph& /*graph*/,
                                                   const ir::Operator& /*op*/) const {
    return std::nullopt;
  }

 private:
  std::string name_;
  TargetOptions options_;
};

}  // namespace loupe::target
