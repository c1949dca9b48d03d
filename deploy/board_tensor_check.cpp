#include "deploy/board_tensor_check.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "deploy/reference_check.h"
#include "deploy/validation_metrics.h"
#include "passes/graph_rewrite.h"
#include "reference/reference_interpreter.h"

namespace loupe::deploy {

namespace {

bool isModelTensor(const ir::Graph& model, const codegen::CompiledModel& compiled, int tensor) {
  if (tensor < 0 || static_cast<std::size_t>(tensor) >= model.tensors.size()) return false;
  if (static_cast<std::size_t>(tensor) >= compiled.graph.tensors.size()) return false;
  return model.tensor(tensor).byteSize() == compiled.graph.tensor(tensor).byteSize();
}

// "3 of 640 elements, max abs difference 0.0078".
std::string differenceText(const TensorAgreement& a) {
  std::string text = std::to_string(a.differingElements) + " of " + std::to_string(a.elements) +
                     (a.elements == 1 ? " element" : " elements");
  if (a.maxAbsoluteError) text += ", max abs difference " + metricText(a.maxAbsoluteError);
  return text;
}

TensorAgreement agreementOf(const ir::Tensor& tensor, const std::vector<std::uint8_t>& board,
                            const std::vector<std::uint8_t>& expected, std::uint32_t floatUlps) {
  TensorAgreement a;
  a.tensor = tensor.index;
  a.elements = tensor.elementCount();
  if (board.size() != expected.size()) {
    a.verdict = TensorVerdict::Differs;
    a.detail = "the board's has " + std::to_string(board.size()) + " bytes, the expected " +
               std::to_string(expected.size());
    return a;
  }
  if (board == expected) {
    a.verdict = TensorVerdict::Exact;
    return a;
  }
  const ValidationMetrics metrics = compareTensorValues(tensor, expected, board);
  a.differingElements = metrics.differingElements.value_or(0);
  a.maxAbsoluteError = metrics.maxAbsoluteError;
  a.verdict = tensor.dtype == ir::DType::Float32 && float32Agree(board, expected, floatUlps)
                  ? TensorVerdict::Within
                  : TensorVerdict::Differs;
  a.detail = differenceText(a);
  return a;
}

}  // namespace

std::string_view verdictName(TensorVerdict verdict) {
  switch (verdict) {
    case TensorVerdict::Exact:
      return "exact";
    case TensorVerdict::Within:
      return "within tolerance";
    case TensorVerdict::Differs:
      return "differs";
    case TensorVerdict::NotOnBoard:
      return "not on the board";
    case TensorVerdict::NoExpected:
      return "nothing to compare";
  }
  return "?";
}

std::string modelOperatorsLabel(const std::vector<int>& operators) {
  std::string text = "#";
  for (std::size_t i = 0; i < operators.size();) {
    std::size_t j = i;
    while (j + 1 < operators.size() && operators[j + 1] == operators[j] + 1) ++j;
    if (i > 0) text += "+";
    text += std::to_string(operators[i]);
    if (j >= i + 2) {
      text += "-" + std::to_string(operators[j]);
    } else if (j == i + 1) {
      text += "+" + std::to_string(operators[j]);
    }
    i = j + 1;
  }
  return text;
}

bool DebugOperatorRow::differs() const {
  return std::any_of(outputs.begin(), outputs.end(),
                     [](const TensorAgreement& a) { return a.verdict == TensorVerdict::Differs; });
}

std::size_t DebugComparison::agreeingTensors() const {
  std::size_t agreeing = 0;
  for (const DebugOperatorRow& row : rows) {
    for (const TensorAgreement& a : row.outputs) {
      agreeing += a.verdict == TensorVerdict::Exact || a.verdict == TensorVerdict::Within;
    }
  }
  return agreeing;
}

TensorBytes referenceTensors(const ir::Graph& model,
                             const std::vector<std::vector<std::uint8_t>>& inputs) {
  reference::ReferenceInterpreter interpreter(model);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  TensorBytes tensors;
  for (const ir::Tensor& tensor : model.tensors) {
    if (tensor.isConstant) continue;
    const auto bytes = interpreter.tensorBytes(tensor.index);
    tensors[tensor.index] = std::vector<std::uint8_t>(bytes.begin(), bytes.end());
  }
  return tensors;
}

TensorBytes goldenTensors(const ir::Graph& model, const std::filesystem::path& dir) {
  const std::filesystem::path indexFile = dir / "index.json";
  std::ifstream in(indexFile);
  if (!in) throw std::runtime_error("cannot read " + indexFile.string());
  nlohmann::json index;
  try {
    index = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(indexFile.string() + " is not JSON: " + e.what());
  }
  if (!index.is_array()) throw std::runtime_error(indexFile.string() + " is not a list");
  TensorBytes tensors;
  for (const auto& entry : index) {
    // TFLite Micro's dumps say tensor_index; Loupe's say both.
    if (!entry.is_object() || !entry.contains("tensor_index") ||
        !entry["tensor_index"].is_number_integer()) {
      throw std::runtime_error(indexFile.string() + ": an entry without a tensor_index");
    }
    const int t = entry["tensor_index"].get<int>();
    if (t < 0 || static_cast<std::size_t>(t) >= model.tensors.size()) {
      throw std::runtime_error(indexFile.string() + ": tensor " + std::to_string(t) +
                               " is not a tensor of " + model.name);
    }
    if (!entry.contains("file") || !entry["file"].is_string()) continue;  // no data (0 bytes)
    const std::filesystem::path file = dir / entry["file"].get<std::string>();
    std::ifstream data(file, std::ios::binary);
    if (!data) throw std::runtime_error("cannot read " + file.string());
    std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(data), {}};
    if (static_cast<std::int64_t>(bytes.size()) != model.tensor(t).byteSize()) {
      throw std::runtime_error(file.string() + " has " + std::to_string(bytes.size()) +
                               " bytes, but tensor " + std::to_string(t) + " of " + model.name +
                               " has " + std::to_string(model.tensor(t).byteSize()));
    }
    tensors[t] = std::move(bytes);
  }
  return tensors;
}

TensorBytes boardTensors(const ir::Graph& model, const codegen::CompiledModel& compiled,
                         const std::map<std::uint32_t, host::StreamedTensor>& device,
                         const std::vector<std::vector<std::uint8_t>>& inputs) {
  TensorBytes tensors;
  for (std::size_t i = 0; i < inputs.size() && i < model.inputs.size(); ++i) {
    tensors[model.inputs[i]] = inputs[i];
  }
  for (const auto& [index, streamed] : device) {
    const int t = static_cast<int>(index);
    if (isModelTensor(model, compiled, t)) tensors[t] = streamed.bytes;
  }
  return tensors;
}

std::string whereNotOnBoard(const ir::Graph& model, const codegen::CompiledModel& compiled,
                            const std::map<std::uint32_t, host::StreamedTensor>& device,
                            int tensor) {
  if (device.contains(static_cast<std::uint32_t>(tensor)) &&
      isModelTensor(model, compiled, tensor)) {
    return {};
  }
  if (std::find(model.inputs.begin(), model.inputs.end(), tensor) != model.inputs.end()) return {};
  // The model operator that wrote it, and the compiled operator standing for that one.
  const std::vector<int> producers = passes::tensorProducers(model);
  const int producer = producers.at(static_cast<std::size_t>(tensor));
  if (producer < 0) return "no operator of the compiled model writes it";
  for (const ir::Operator& op : compiled.graph.operators) {
    const std::vector<int> sources = op.modelOperators();
    if (std::find(sources.begin(), sources.end(), producer) == sources.end()) continue;
    const std::string label = op.typeName() + " " + modelOperatorsLabel(sources);
    if (compiled.patches && compiled.patches->stripOf(op.index) >= 0) {
      return "computed strip by strip in the patch stage (" + label + ")";
    }
    return "inside " + label;
  }
  return "its operator (#" + std::to_string(producer) + ") is not in the compiled model";
}

DebugComparison compareBoardTensors(const ir::Graph& model, const codegen::CompiledModel& compiled,
                                    const std::map<std::uint32_t, host::StreamedTensor>& device,
                                    const std::vector<std::vector<std::uint8_t>>& inputs,
                                    const TensorBytes& expected, const RunProfile& profile,
                                    std::uint32_t floatUlps) {
  DebugComparison result;
  result.unit = profile.unit;
  result.total = profile.operatorSum();
  const TensorBytes board = boardTensors(model, compiled, device, inputs);
  const auto agreement = [&](int t) {
    const auto b = board.find(t);
    const auto e = expected.find(t);
    TensorAgreement a;
    a.tensor = t;
    a.elements = model.tensor(t).elementCount();
    if (b == board.end()) {
      a.verdict = TensorVerdict::NotOnBoard;
      a.detail = whereNotOnBoard(model, compiled, device, t);
      return a;
    }
    if (e == expected.end()) {
      a.verdict = TensorVerdict::NoExpected;
      return a;
    }
    return agreementOf(model.tensor(t), b->second, e->second, floatUlps);
  };

  // The operators in the order their tensors arrived, each with the
  // tensors it sent.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> arrivals;  // (arrival, tensor)
  for (const auto& [index, streamed] : device) arrivals.push_back({streamed.arrival, index});
  std::sort(arrivals.begin(), arrivals.end());
  std::map<int, std::size_t> rowOf;
  for (const auto& [arrival, index] : arrivals) {
    const host::StreamedTensor& streamed = device.at(index);
    const int op = static_cast<int>(streamed.operatorIndex);
    if (op < 0 || static_cast<std::size_t>(op) >= compiled.graph.operators.size()) continue;
    auto [at, added] = rowOf.try_emplace(op, result.rows.size());
    if (added) {
      const ir::Operator& o = compiled.graph.operators[static_cast<std::size_t>(op)];
      DebugOperatorRow row;
      row.operatorIndex = op;
      row.modelOperators = o.modelOperators();
      row.name = modelOperatorsLabel(row.modelOperators);
      row.type = o.typeName();
      if (!o.outputs.empty()) row.shape = compiled.graph.tensor(o.outputs.front()).shape;
      result.rows.push_back(std::move(row));
    }
    const int t = static_cast<int>(index);
    if (isModelTensor(model, compiled, t)) result.rows[at->second].outputs.push_back(agreement(t));
  }
  for (const OperatorTime& call : profile.operators) {
    if (const auto at = rowOf.find(call.operatorIndex); at != rowOf.end()) {
      result.rows[at->second].time = call.time;
    }
  }
  for (std::size_t r = 0; r < result.rows.size(); ++r) {
    if (!result.rows[r].differs()) continue;
    result.firstDiffering = r;
    const ir::Operator& op =
        compiled.graph.operators[static_cast<std::size_t>(result.rows[r].operatorIndex)];
    for (int input : op.inputs) {
      if (input == ir::kNoTensor || compiled.graph.tensor(input).isConstant ||
          !isModelTensor(model, compiled, input)) {
        continue;
      }
      result.firstDifferingInputs.push_back(agreement(input));
    }
    break;
  }
  for (const ir::Tensor& tensor : model.tensors) {
    if (tensor.isConstant || tensor.byteSize() == 0) continue;
    if (!board.contains(tensor.index)) result.notOnBoard.push_back(agreement(tensor.index));
  }
  return result;
}

}  // namespace loupe::deploy
