// Every operator case in tests/ops/cases: the test vectors of TFLite Micro's
// kernel tests (shapes, parameters, inputs and expected outputs, kept as
// data). For each operator Loupe defines, every case must give TFLM's
// expected outputs on the reference interpreter (exactly, or within the
// tolerance TFLM's own test allows), the shape rule must derive the
// expected output shapes, and the generated C must give the reference's
// bytes exactly. Cases of dtypes Loupe refuses are listed here with the
// reason the kernel must give. Files of operators Loupe does not define yet
// are counted and named, not run (docs/operators.md lists them).
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "generated_c_harness.h"
#include "graph_builder.h"
#include "ir/tflite_builtin_names.h"
#include "ops/operator_registry.h"

using namespace loupe;
using nlohmann::json;

namespace {

// Cases whose element types Loupe refuses on purpose, with what the refusal
// must say.
struct ExpectedRefusal {
  const char* operatorName;
  const char* caseName;
  const char* reason;
};
constexpr ExpectedRefusal kRefusals[] = {
    {"CAST", "CastUInt32ToInt32", "uint32"},
    {"CAST", "CastInt32ToUInt32", "uint32"},
    {"RSQRT", "RsqrtInt16", "int16"},
};

std::optional<std::string> expectedRefusal(const std::string& op, const std::string& name) {
  for (const auto& r : kRefusals) {
    if (op == r.operatorName && name == r.caseName) return std::string(r.reason);
  }
  return std::nullopt;
}

std::optional<ir::OpType> opTypeNamed(const std::string& name) {
  for (int code = 0; code < 256; ++code) {
    if (ir::tfliteBuiltinName(code) == name) return ir::opTypeFromBuiltinCode(code);
  }
  return std::nullopt;
}

ir::DType dtypeNamed(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::map<std::string, ir::DType> kTypes = {
      {"float32", ir::DType::Float32}, {"int8", ir::DType::Int8},   {"uint8", ir::DType::UInt8},
      {"int16", ir::DType::Int16},     {"int32", ir::DType::Int32}, {"uint32", ir::DType::UInt32},
      {"int64", ir::DType::Int64},     {"bool", ir::DType::Bool},   {"uint16", ir::DType::UInt16},
      {"float16", ir::DType::Float16}};
  const auto it = kTypes.find(name);
  if (it == kTypes.end()) throw std::runtime_error("unknown dtype '" + name + "'");
  return it->second;
}

// TFLite's TensorType value of a dtype name (CAST's and ARG_MAX's options).
std::int64_t tensorTypeValue(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::map<std::string, std::int64_t> kValues = {
      {"float32", 0}, {"float16", 1}, {"int32", 2},   {"uint8", 3},   {"int64", 4},  {"bool", 6},
      {"int16", 7},   {"int8", 9},    {"uint64", 12}, {"uint32", 15}, {"uint16", 16}};
  const auto it = kValues.find(name);
  if (it == kValues.end()) throw std::runtime_error("no TensorType for '" + name + "'");
  return it->second;
}

double numberOf(const json& value) {
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    throw std::runtime_error("not a number: " + text);
  }
  if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
  return value.get<double>();
}

template <typename T>
void append(test::Bytes& bytes, T value) {
  const auto at = bytes.size();
  bytes.resize(at + sizeof(T));
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

test::Bytes bytesOf(const json& tensor, ir::DType dtype) {
  test::Bytes bytes;
  for (const json& v : tensor.at("data")) {
    const double x = numberOf(v);
    switch (dtype) {
      case ir::DType::Float32:
        append(bytes, static_cast<float>(x));
        break;
      case ir::DType::Int8:
        append(bytes, static_cast<std::int8_t>(x));
        break;
      case ir::DType::UInt8:
      case ir::DType::Bool:
        append(bytes, static_cast<std::uint8_t>(x));
        break;
      case ir::DType::Int16:
        append(bytes, static_cast<std::int16_t>(x));
        break;
      case ir::DType::Int32:
        append(bytes, static_cast<std::int32_t>(x));
        break;
      case ir::DType::UInt32:
        append(bytes, static_cast<std::uint32_t>(x));
        break;
      case ir::DType::Int64:
        append(bytes, static_cast<std::int64_t>(v.get<std::int64_t>()));
        break;
      default:
        throw std::runtime_error("no test data conversion for this dtype");
    }
  }
  return bytes;
}

ir::Quantization quantizationOf(const json& tensor) {
  if (!tensor.contains("scale")) return {};
  return test::perTensor(tensor.at("scale").get<float>(),
                         tensor.at("zero_point").get<std::int64_t>());
}

ir::Shape shapeOf(const json& tensor) {
  return tensor.at("shape").get<ir::Shape>();
}

// A string option: an enumerator of TFLite's schema (MirrorPadMode,
// ActivationFunctionType, Padding), else a dtype name for a TensorType.
std::int64_t enumeratorValue(const std::string& text) {
  static const std::map<std::string, std::int64_t> kEnumerators = {
      {"REFLECT", 0}, {"SYMMETRIC", 1}, {"NONE", 0},     {"RELU", 1}, {"RELU_N1_TO_1", 2},
      {"RELU6", 3},   {"TANH", 4},      {"SIGN_BIT", 5}, {"SAME", 0}, {"VALID", 1}};
  const auto it = kEnumerators.find(text);
  return it != kEnumerators.end() ? it->second : tensorTypeValue(text);
}

ir::OptionAttrs optionAttrsOf(const json& options) {
  ir::OptionAttrs attrs;
  for (const auto& [name, value] : options.items()) {
    if (value.is_string()) {
      attrs.set(name, enumeratorValue(value.get<std::string>()));
    } else if (value.is_boolean()) {
      attrs.set(name, value.get<bool>() ? 1 : 0);
    } else {
      attrs.set(name, value.get<std::int64_t>());
    }
  }
  return attrs;
}

// The operators Loupe had before the registry keep typed attributes; the
// cases give TFLite's option names, read here as their importer reads them.
ir::Attributes attributesOf(ir::OpType type, const json& options) {
  const ir::OptionAttrs named = optionAttrsOf(options);
  const auto activation = [&] {
    return static_cast<ir::Activation>(named.get("fused_activation_function", 0));
  };
  switch (type) {
    case ir::OpType::Add:
    case ir::OpType::Sub:
    case ir::OpType::Mul: {
      ir::ElementwiseAttrs a;
      a.activation = activation();
      a.potScaleInt16 = named.get("pot_scale_int16", 1) != 0;
      return a;
    }
    case ir::OpType::L2Pool2D: {
      ir::Pool2DAttrs a;
      a.padding = named.get("padding") == 1 ? ir::Padding::Valid : ir::Padding::Same;
      a.strideW = static_cast<int>(named.get("stride_w", 1));
      a.strideH = static_cast<int>(named.get("stride_h", 1));
      a.filterW = static_cast<int>(named.get("filter_width", 1));
      a.filterH = static_cast<int>(named.get("filter_height", 1));
      a.activation = activation();
      return a;
    }
    default:
      return named;
  }
}

struct BuiltCase {
  ir::Graph graph;
  std::vector<test::Bytes> inputs;  // the graph's inputs, in order
};

BuiltCase buildCase(ir::OpType type, const json& c) {
  test::GraphBuilder g;
  BuiltCase built;
  std::vector<int> operands, graphInputs, outputs;
  int slot = 0;
  for (const json& input : c.at("inputs")) {
    const ir::DType dtype = dtypeNamed(input.at("dtype"));
    const std::string name = "input" + std::to_string(slot++);
    const test::Bytes bytes = bytesOf(input, dtype);
    if (input.value("constant", false)) {
      operands.push_back(g.constant(name, dtype, shapeOf(input), bytes, quantizationOf(input)));
    } else {
      operands.push_back(g.tensor(name, dtype, shapeOf(input), quantizationOf(input)));
      graphInputs.push_back(operands.back());
      built.inputs.push_back(bytes);
    }
  }
  slot = 0;
  for (const json& output : c.at("outputs")) {
    outputs.push_back(g.tensor("output" + std::to_string(slot++), dtypeNamed(output.at("dtype")),
                               shapeOf(output), quantizationOf(output)));
  }
  g.op(type, operands, outputs, attributesOf(type, c.value("options", json::object())));
  built.graph = g.inputs(graphInputs).outputs(outputs).build();
  return built;
}

double elementAt(const test::Bytes& bytes, ir::DType dtype, std::size_t i) {
  auto read = [&]<typename T>(T) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    return static_cast<double>(value);
  };
  switch (dtype) {
    case ir::DType::Float32:
      return read(float{});
    case ir::DType::Int8:
      return read(std::int8_t{});
    case ir::DType::UInt8:
    case ir::DType::Bool:
      return read(std::uint8_t{});
    case ir::DType::Int16:
      return read(std::int16_t{});
    case ir::DType::Int32:
      return read(std::int32_t{});
    case ir::DType::Int64:
      return read(std::int64_t{});
    default:
      return read(std::uint32_t{});
  }
}

// "" when `actual` is what TFLM's test accepts for `expected`.
std::string compareOutput(const test::Bytes& actual, const json& expected, const json& c) {
  const ir::DType dtype = dtypeNamed(expected.at("dtype"));
  const std::size_t count = expected.at("data").size();
  if (actual.size() != count * ir::dtypeSize(dtype)) {
    return "output has " + std::to_string(actual.size()) + " bytes for " + std::to_string(count) +
           " elements";
  }
  const double tolerance = c.value("tolerance", 0.0);
  const bool dequantized = c.value("tolerance_space", std::string()) == "dequantized";
  for (std::size_t i = 0; i < count; ++i) {
    const double got = elementAt(actual, dtype, i);
    double want = numberOf(expected.at("data")[i]);
    double value = got;
    if (dequantized) {
      value = (got - expected.at("zero_point").get<double>()) * expected.at("scale").get<double>();
      want = numberOf(expected.at("expected_dequantized")[i]);
    } else if (dtype == ir::DType::Float32) {
      want = static_cast<float>(want);
    }
    const bool same = value == want || (std::isnan(value) && std::isnan(want)) ||
                      std::abs(value - want) <= tolerance;
    if (!same) {
      return "element " + std::to_string(i) + " is " + std::to_string(value) + ", expected " +
             std::to_string(want) + (tolerance > 0 ? " within " + std::to_string(tolerance) : "");
    }
  }
  return {};
}

std::vector<std::filesystem::path> caseFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(LOUPE_OPERATOR_CASES_DIR)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

json readJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

class OperatorCasesTest : public QObject {
  Q_OBJECT

 private slots:
  void cases_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("index");
    int defined = 0, pending = 0;
    QStringList pendingNames;
    for (const auto& path : caseFiles()) {
      const json file = readJson(path);
      const std::string name = file.at("operator");
      const auto type = opTypeNamed(name);
      if (!type || ops::definitionOf(*type).kernel == nullptr) {
        ++pending;
        pendingNames << QString::fromStdString(name);
        continue;
      }
      ++defined;
      const json& cases = file.at("cases");
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string row = name + "/" + cases[i].at("name").get<std::string>();
        QTest::newRow(row.c_str()) << QString::fromStdString(path.string()) << static_cast<int>(i);
      }
    }
    qInfo("%d operators with cases run; %d case files of operators Loupe does not define yet: %s",
          defined, pending, qPrintable(pendingNames.join(", ")));
    QVERIFY(defined > 0);
  }

  void cases() {
    QFETCH(QString, file);
    QFETCH(int, index);
    const json document = readJson(file.toStdString());
    const std::string opName = document.at("operator");
    const json& c = document.at("cases")[static_cast<std::size_t>(index)];
    const ir::OpType type = *opTypeNamed(opName);
    const BuiltCase built = buildCase(type, c);
    const ir::Operator& op = built.graph.operators.front();
    const ops::OperatorDefinition& definition = ops::definitionOf(type);

    const auto problem = definition.kernel->check(built.graph, op);
    if (const auto refusal = expectedRefusal(opName, c.at("name"))) {
      QVERIFY2(problem.has_value(), "Loupe is expected to refuse this case");
      QVERIFY2(problem->find(*refusal) != std::string::npos, problem->c_str());
      return;
    }
    QVERIFY2(!problem, problem ? problem->c_str() : "");

    // The shape rule derives the outputs TFLM's test expects.
    if (definition.shape != nullptr) {
      const auto inferred = definition.shape(built.graph, op);
      if (inferred) {
        QVERIFY2(inferred->problem.empty(), inferred->problem.c_str());
        QCOMPARE(inferred->shape, built.graph.tensor(op.outputs[0]).shape);
        for (std::size_t k = 1; k < op.outputs.size() && k <= inferred->moreShapes.size(); ++k) {
          QCOMPARE(inferred->moreShapes[k - 1], built.graph.tensor(op.outputs[k]).shape);
        }
      }
    }

    const auto reference = test::runReference(built.graph, built.inputs);
    QCOMPARE(reference.size(), c.at("outputs").size());
    for (std::size_t k = 0; k < reference.size(); ++k) {
      const std::string difference = compareOutput(reference[k], c.at("outputs")[k], c);
      QVERIFY2(difference.empty(),
               ("reference output " + std::to_string(k) + ": " + difference).c_str());
    }

    const auto generated = test::runGeneratedC(built.graph, built.inputs);
    QCOMPARE(generated.size(), reference.size());
    for (std::size_t k = 0; k < generated.size(); ++k) {
      const std::string difference = test::firstDifference(generated[k], reference[k]);
      QVERIFY2(difference.empty(),
               ("generated C output " + std::to_string(k) + ": " + difference).c_str());
    }
  }
};

QTEST_GUILESS_MAIN(OperatorCasesTest)
#include "operator_cases_test.moc"
