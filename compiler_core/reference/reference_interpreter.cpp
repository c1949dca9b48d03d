#include "reference/reference_interpreter.h"

#include "reference/kernel.h"

namespace loupe::reference {

std::vector<OperatorProblem> findUnsupportedOperators(const ir::Graph& graph) {
  std::vector<OperatorProblem> problems;
  for (const auto& op : graph.operators) {
    const Kernel* kernel = findKernel(op.type);
    if (kernel == nullptr) {
      problems.push_back({op.index, op.typeName(),
                          op.type == ir::OpType::Opaque
                              ? "Loupe cannot run this operator (opaque to the compiler)"
                              : "no reference kernel for this operator"});
      continue;
    }
    if (auto reason = kernel->check(graph, op)) {
      problems.push_back({op.index, op.typeName(), *reason});
    }
  }
  return problems;
}

namespace {
std::string describe(const std::vector<OperatorProblem>& problems) {
  std::string text = "the model uses operators the reference interpreter cannot run:";
  for (const auto& problem : problems) {
    text += "\n  operator " + std::to_string(problem.operatorIndex) + " (" + problem.operatorType +
            "): " + problem.reason;
  }
  return text;
}
}  // namespace

ReferenceInterpreter::ReferenceInterpreter(const ir::Graph& graph) : graph_(graph), store_(graph) {
  if (auto problems = findUnsupportedOperators(graph); !problems.empty()) {
    throw UnsupportedModelError(describe(problems));
  }
}

void ReferenceInterpreter::setInput(std::size_t inputIndex, std::span<const std::uint8_t> bytes) {
  if (inputIndex >= graph_.inputs.size()) {
    throw std::invalid_argument("the model has " + std::to_string(graph_.inputs.size()) +
                                " input(s); there is no input " + std::to_string(inputIndex));
  }
  const int tensorIndex = graph_.inputs[inputIndex];
  auto target = store_.mutableBytes(tensorIndex);
  if (bytes.size() != target.size()) {
    const auto& tensor = graph_.tensor(tensorIndex);
    throw std::invalid_argument("input " + std::to_string(inputIndex) + " ('" + tensor.name +
                                "') needs " + std::to_string(target.size()) + " bytes, got " +
                                std::to_string(bytes.size()));
  }
  std::copy(bytes.begin(), bytes.end(), target.begin());
}

void ReferenceInterpreter::invoke() {
  for (const auto& op : graph_.operators) {
    findKernel(op.type)->eval(graph_, op, store_);
  }
}

std::span<const std::uint8_t> ReferenceInterpreter::output(std::size_t outputIndex) const {
  return store_.bytes(graph_.outputs.at(outputIndex));
}

std::span<const std::uint8_t> ReferenceInterpreter::tensorBytes(int tensorIndex) const {
  return store_.bytes(tensorIndex);
}

}  // namespace loupe::reference
