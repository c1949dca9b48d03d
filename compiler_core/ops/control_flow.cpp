// IF and WHILE, TFLite's control flow, as TFLite Micro runs them: IF runs its
// then or else subgraph on its other inputs depending on its boolean first
// input; WHILE keeps its operands as loop state (its outputs), runs the cond
// subgraph on the state and, while cond's first output is true, the body
// subgraph, whose outputs become the state. The importer reads the subgraphs
// an operator runs into ir::Operator::subgraphs (recursion is refused there).
//
// The reference runs each subgraph with a store of its own; the C lowering
// places the subgraphs' operators inside the operator's one function
// (ops/subgraph_inlining.h): a C `if` between the two branches, a C `while`
// around the body, the subgraphs' intermediate tensors in the function's
// workspace scratch. Subgraph operators use the portable kernels.
#include <algorithm>

#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/operator_registry.h"
#include "ops/options_reading.h"
#include "ops/subgraph_inlining.h"
#include "reference/reference_interpreter.h"

namespace loupe::ops {

namespace {

// The OptionAttrs keys naming each operator's subgraphs, in the order of
// ir::Operator::subgraphs.
constexpr std::array<const char*, 2> kIfSubgraphs = {"then_subgraph_index", "else_subgraph_index"};
constexpr std::array<const char*, 2> kWhileSubgraphs = {"cond_subgraph_index",
                                                        "body_subgraph_index"};

ir::Attributes readIfOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::IfOptions>(op)) {
    a.set(kIfSubgraphs[0], o->then_subgraph_index());
    a.set(kIfSubgraphs[1], o->else_subgraph_index());
  }
  return a;
}

ir::Attributes readWhileOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::WhileOptions>(op)) {
    a.set(kWhileSubgraphs[0], o->cond_subgraph_index());
    a.set(kWhileSubgraphs[1], o->body_subgraph_index());
  }
  return a;
}

// "the then subgraph (1)".
std::string subgraphLabel(const ir::Operator& op, std::size_t which) {
  const auto& names = op.type == ir::OpType::If ? kIfSubgraphs : kWhileSubgraphs;
  const std::string key = names.at(which);
  const auto* attrs = std::get_if<ir::OptionAttrs>(&op.attributes);
  const std::int64_t index = attrs != nullptr ? attrs->get(key, -1) : -1;
  return "the " + key.substr(0, key.find('_')) + " subgraph (" + std::to_string(index) + ")";
}

// The generated C places every subgraph an operator runs inside its
// function, once per place it runs (WHILE's cond twice), so subgraphs that
// run subgraphs multiply; past this many operators inlined, a model is
// refused rather than compiled into code that would not fit a device.
constexpr std::int64_t kMaxInlinedOperators = 10'000;

// Operators `graph`'s function places inline, counted once per subgraph
// (memoized: subgraphs are shared) and saturating above the limit.
std::int64_t inlinedOperators(const ir::Graph& graph,
                              std::map<const ir::Graph*, std::int64_t>& counted) {
  if (auto it = counted.find(&graph); it != counted.end()) return it->second;
  std::int64_t count = 0;
  for (const ir::Operator& op : graph.operators) {
    count += 1;
    if (op.subgraphs.size() == 2 && op.subgraphs[0] && op.subgraphs[1]) {
      const std::int64_t first = inlinedOperators(*op.subgraphs[0], counted);
      const std::int64_t second = inlinedOperators(*op.subgraphs[1], counted);
      count += op.type == ir::OpType::While ? 2 * first + second : first + second;
    }
    count = std::min(count, kMaxInlinedOperators + 1);
  }
  counted.emplace(&graph, count);
  return count;
}

std::optional<std::string> checkSubgraphsAttached(const ir::Operator& op) {
  if (op.subgraphs.size() != 2 || !op.subgraphs[0] || !op.subgraphs[1]) {
    return std::string("its subgraphs were not imported");
  }
  std::map<const ir::Graph*, std::int64_t> counted;
  ir::Graph self;
  self.operators.push_back(op);
  if (inlinedOperators(self, counted) > kMaxInlinedOperators) {
    return "its subgraphs (and the subgraphs they run) add up to more than " +
           std::to_string(kMaxInlinedOperators) + " operators in one function";
  }
  return std::nullopt;
}

// Why an operator of the subgraph cannot run, if one cannot (the first of
// the interpreter's list).
std::optional<std::string> checkSubgraphOperators(const ir::Operator& op, std::size_t which) {
  const auto problems = reference::findUnsupportedOperators(*op.subgraphs[which]);
  if (problems.empty()) return std::nullopt;
  const reference::OperatorProblem& first = problems.front();
  return subgraphLabel(op, which) + " operator " + std::to_string(first.operatorIndex) + " (" +
         first.operatorType + "): " + first.reason;
}

// Operand `tensor` and the subgraph's tensor it is copied to or from must
// hold the same values: the same element type and count.
std::optional<std::string> checkCopyable(const ir::Tensor& operand, const ir::Tensor& inner,
                                         const std::string& what) {
  if (operand.dtype != inner.dtype || operand.elementCount() != inner.elementCount()) {
    return tensorText(operand) + " and " + what + " " + tensorText(inner) +
           " must have the same element type and count";
  }
  return std::nullopt;
}

std::optional<std::string> checkCounts(std::size_t actual, std::size_t expected,
                                       const std::string& what) {
  if (actual != expected) {
    return what + " has " + std::to_string(actual) + "; " + std::to_string(expected) + " expected";
  }
  return std::nullopt;
}

std::optional<std::string> checkBoolScalar(const ir::Tensor& tensor, const std::string& role) {
  if (tensor.dtype != ir::DType::Bool || tensor.elementCount() != 1) {
    return role + " " + tensorText(tensor) + " must be one bool";
  }
  return std::nullopt;
}

// Runs `subgraph` on copies of `inputs` and returns copies of its outputs.
std::vector<std::vector<std::uint8_t>> runSubgraph(
    const ir::Graph& subgraph, const std::vector<std::span<const std::uint8_t>>& inputs) {
  reference::TensorStore store(subgraph);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto target = store.mutableBytes(subgraph.inputs[i]);
    std::copy(inputs[i].begin(), inputs[i].end(), target.begin());
  }
  for (const ir::Operator& inner : subgraph.operators) {
    definitionOf(inner.type).kernel->eval(subgraph, inner, store);
  }
  std::vector<std::vector<std::uint8_t>> outputs;
  for (int tensor : subgraph.outputs) {
    const auto bytes = store.bytes(tensor);
    outputs.emplace_back(bytes.begin(), bytes.end());
  }
  return outputs;
}

std::int64_t subgraphMacs(const ir::Graph& subgraph) {
  std::int64_t macs = 0;
  for (const ir::Operator& inner : subgraph.operators) {
    if (const MacsRule rule = definitionOf(inner.type).macs) macs += rule(subgraph, inner);
  }
  return macs;
}

tir::Expr isTrue(const tir::Buffer& flag) {
  return tir::ne(tir::cast(tir::ScalarType::Int32, tir::load(flag, tir::intImm(0))),
                 tir::intImm(0));
}

// --- IF(cond, inputs...) -> outputs ----------------------------------------------

std::optional<std::string> checkIf(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkSubgraphsAttached(op)) return problem;
  const ir::Tensor* cond = graph.input(op, 0);
  if (cond == nullptr) return std::string("needs a condition");
  if (auto problem = checkBoolScalar(*cond, "the condition")) return problem;
  for (std::size_t which = 0; which < 2; ++which) {
    const ir::Graph& branch = *op.subgraphs[which];
    const std::string label = subgraphLabel(op, which);
    if (auto problem = checkCounts(branch.inputs.size(), op.inputs.size() - 1, label + " inputs")) {
      return problem;
    }
    if (auto problem = checkCounts(branch.outputs.size(), op.outputs.size(), label + " outputs")) {
      return problem;
    }
    for (std::size_t i = 0; i < branch.inputs.size(); ++i) {
      const ir::Tensor* operand = graph.input(op, i + 1);
      if (operand == nullptr) return "input " + std::to_string(i + 1) + " is missing";
      if (auto problem =
              checkCopyable(*operand, branch.tensor(branch.inputs[i]), label + " input")) {
        return problem;
      }
    }
    for (std::size_t j = 0; j < branch.outputs.size(); ++j) {
      if (auto problem = checkCopyable(graph.output(op, j), branch.tensor(branch.outputs[j]),
                                       label + " output")) {
        return problem;
      }
    }
    if (auto problem = checkSubgraphOperators(op, which)) return problem;
  }
  return std::nullopt;
}

void evalIf(const ir::Graph&, const ir::Operator& op, reference::TensorStore& store) {
  const bool cond = store.bytes(op.inputs[0])[0] != 0;
  std::vector<std::span<const std::uint8_t>> inputs;
  for (std::size_t i = 1; i < op.inputs.size(); ++i) inputs.push_back(store.bytes(op.inputs[i]));
  const auto outputs = runSubgraph(*op.subgraphs[cond ? 0 : 1], inputs);
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    std::copy(outputs[j].begin(), outputs[j].end(), store.mutableBytes(op.outputs[j]).begin());
  }
}

tir::PrimFunc lowerIf(const ir::Graph& graph, const ir::Operator& op,
                      const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer cond = fb.input(op.inputs[0], "cond");
  std::vector<tir::Buffer> inputs, outputs;
  for (std::size_t i = 1; i < op.inputs.size(); ++i) {
    inputs.push_back(fb.input(op.inputs[i], "in" + std::to_string(i - 1)));
  }
  for (std::size_t j = 0; j < op.outputs.size(); ++j) {
    outputs.push_back(fb.param(op.outputs[j], "out" + std::to_string(j), true));
  }
  tir::PrimFunc func = fb.finish(nullptr);
  tir::Stmt then = inlineSubgraph(*op.subgraphs[0], inputs, outputs, "then_", func);
  tir::Stmt otherwise = inlineSubgraph(*op.subgraphs[1], inputs, outputs, "else_", func);
  func.body = tir::ifThenElse(isTrue(cond), then, otherwise);
  return func;
}

// The larger branch's.
std::int64_t ifMacs(const ir::Graph&, const ir::Operator& op) {
  if (checkSubgraphsAttached(op)) return 0;
  return std::max(subgraphMacs(*op.subgraphs[0]), subgraphMacs(*op.subgraphs[1]));
}

// --- WHILE(state...) -> state... ------------------------------------------------

std::optional<std::string> checkWhile(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkSubgraphsAttached(op)) return problem;
  const std::size_t count = op.inputs.size();
  if (auto problem = checkCounts(op.outputs.size(), count, "the operator's outputs")) {
    return problem;
  }
  const ir::Graph& cond = *op.subgraphs[0];
  const ir::Graph& body = *op.subgraphs[1];
  const std::string condLabel = subgraphLabel(op, 0), bodyLabel = subgraphLabel(op, 1);
  if (auto problem = checkCounts(cond.inputs.size(), count, condLabel + " inputs")) return problem;
  if (auto problem = checkCounts(body.inputs.size(), count, bodyLabel + " inputs")) return problem;
  if (auto problem = checkCounts(body.outputs.size(), count, bodyLabel + " outputs")) {
    return problem;
  }
  if (cond.outputs.empty()) return condLabel + " has no output";
  if (auto problem = checkBoolScalar(cond.tensor(cond.outputs[0]), condLabel + "'s output")) {
    return problem;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const ir::Tensor* operand = graph.input(op, i);
    if (operand == nullptr) return "input " + std::to_string(i) + " is missing";
    for (const auto& [inner, what] :
         {std::pair{&graph.output(op, i), std::string("output")},
          std::pair{&cond.tensor(cond.inputs[i]), condLabel + " input"},
          std::pair{&body.tensor(body.inputs[i]), bodyLabel + " input"},
          std::pair{&body.tensor(body.outputs[i]), bodyLabel + " output"}}) {
      if (auto problem = checkCopyable(*operand, *inner, what)) return problem;
    }
  }
  for (std::size_t which = 0; which < 2; ++which) {
    if (auto problem = checkSubgraphOperators(op, which)) return problem;
  }
  return std::nullopt;
}

void evalWhile(const ir::Graph&, const ir::Operator& op, reference::TensorStore& store) {
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const auto source = store.bytes(op.inputs[i]);
    std::copy(source.begin(), source.end(), store.mutableBytes(op.outputs[i]).begin());
  }
  auto state = [&] {
    std::vector<std::span<const std::uint8_t>> values;
    for (int tensor : op.outputs) values.push_back(store.bytes(tensor));
    return values;
  };
  while (runSubgraph(*op.subgraphs[0], state()).front().front() != 0) {
    const auto next = runSubgraph(*op.subgraphs[1], state());
    for (std::size_t i = 0; i < next.size(); ++i) {
      std::copy(next[i].begin(), next[i].end(), store.mutableBytes(op.outputs[i]).begin());
    }
  }
}

tir::PrimFunc lowerWhile(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  std::vector<tir::Buffer> inputs, state, bodyInputs;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    inputs.push_back(fb.input(op.inputs[i], "in" + std::to_string(i)));
  }
  for (std::size_t i = 0; i < op.outputs.size(); ++i) {
    state.push_back(fb.param(op.outputs[i], "state" + std::to_string(i), true));
    // The body reads the state of the last iteration while it writes the next.
    bodyInputs.push_back(
        fb.local("body_in" + std::to_string(i), state.back()->type, state.back()->elementCount()));
  }
  const ir::Graph& cond = *op.subgraphs[0];
  const ir::Graph& body = *op.subgraphs[1];
  // cond's first output decides; any others are computed and dropped.
  std::vector<tir::Buffer> condOutputs;
  for (std::size_t j = 0; j < cond.outputs.size(); ++j) {
    const ir::Tensor& output = cond.tensor(cond.outputs[j]);
    condOutputs.push_back(fb.local(j == 0 ? "keep_going" : "cond_out" + std::to_string(j),
                                   lowering::bufferType(output.dtype), output.elementCount()));
  }
  tir::PrimFunc func = fb.finish(nullptr);
  const tir::Buffer& flag = condOutputs.front();
  std::vector<tir::Stmt> loop;
  for (std::size_t i = 0; i < state.size(); ++i) {
    loop.push_back(copyElements(bodyInputs[i], state[i]));
  }
  loop.push_back(inlineSubgraph(body, bodyInputs, state, "body_", func));
  loop.push_back(inlineSubgraph(cond, state, condOutputs, "cond_again_", func));
  std::vector<tir::Stmt> steps;
  for (std::size_t i = 0; i < state.size(); ++i) steps.push_back(copyElements(state[i], inputs[i]));
  steps.push_back(inlineSubgraph(cond, state, condOutputs, "cond_", func));
  steps.push_back(tir::whileLoop(isTrue(flag), tir::seq(std::move(loop))));
  tir::Stmt result = tir::seq(std::move(steps));
  for (const auto* locals : {&bodyInputs, &condOutputs}) {
    for (auto it = locals->rbegin(); it != locals->rend(); ++it)
      result = tir::allocate(*it, result);
  }
  func.body = result;
  return func;
}

// One iteration: cond and body once.
std::int64_t whileMacs(const ir::Graph&, const ir::Operator& op) {
  if (checkSubgraphsAttached(op)) return 0;
  return subgraphMacs(*op.subgraphs[0]) + subgraphMacs(*op.subgraphs[1]);
}

const reference::Kernel kIfKernel{ir::OpType::If, checkIf, evalIf};
const reference::Kernel kWhileKernel{ir::OpType::While, checkWhile, evalWhile};

constexpr std::string_view kAnyType = "any (bool condition; operands copied to the subgraphs)";

}  // namespace

extern const OperatorDefinition kIfDefinition{
    .type = ir::OpType::If,
    .dtypes = kAnyType,
    .import = {.minInputs = 1,
               .maxInputs = -1,
               .outputs = -1,
               .optionsType = optionsTypeOf<tflite::IfOptions>(),
               .optionsRequired = true,
               .readOptions = readIfOptions},
    .kernel = &kIfKernel,
    .lower = lowerIf,
    .macs = ifMacs,
};

extern const OperatorDefinition kWhileDefinition{
    .type = ir::OpType::While,
    .dtypes = kAnyType,
    .import = {.minInputs = 1,
               .maxInputs = -1,
               .outputs = -1,
               .optionsType = optionsTypeOf<tflite::WhileOptions>(),
               .optionsRequired = true,
               .readOptions = readWhileOptions},
    .kernel = &kWhileKernel,
    .lower = lowerWhile,
    .macs = whileMacs,
};

}  // namespace loupe::ops
