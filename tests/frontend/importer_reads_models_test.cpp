// The importer on real models: every model the project ships imports, and
// what it reads agrees with the golden manifests written by TFLite Micro.
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "analysis/operator_cost.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "model_editor.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

namespace fs = std::filesystem;
using loupe::frontend::importTfliteFile;

namespace {

// The bias tensor of the model's first DEPTHWISE_CONV_2D, or -1.
int biasOfFirstDepthwise(loupe::test::ModelEditor& editor) {
  for (const auto& op : editor.subgraph().operators) {
    const auto& code = *editor.model().operator_codes.at(op->opcode_index);
    // DEPTHWISE_CONV_2D is builtin 4, in either field of the operator code.
    if (std::max<int>(code.builtin_code, code.deprecated_builtin_code) == 4) {
      return op->inputs.at(2);
    }
  }
  return -1;
}

// Whether the reference interpreter gives `set`'s output0.bin for its
// input0.bin (single-input, single-output models).
bool givesGoldenOutput(const loupe::ir::Graph& graph, const fs::path& set) {
  loupe::reference::ReferenceInterpreter interpreter(graph);
  interpreter.setInput(0, loupe::test::readBytes(set / "input0.bin"));
  interpreter.invoke();
  const auto output = interpreter.output(0);
  return std::vector<std::uint8_t>(output.begin(), output.end()) ==
         loupe::test::readBytes(set / "output0.bin");
}

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void compareTensor(const loupe::ir::Tensor& tensor, const nlohmann::json& expected) {
  QCOMPARE(tensor.index, expected["tensor_index"].get<int>());
  QCOMPARE(std::string(loupe::ir::dtypeName(tensor.dtype)), expected["dtype"].get<std::string>());
  QCOMPARE(tensor.shape, expected["shape"].get<std::vector<std::int32_t>>());
  QCOMPARE(tensor.byteSize(), expected["bytes"].get<std::int64_t>());
  const auto& q = expected["quantization"];
  if (q.is_null()) {
    QVERIFY(!tensor.quantization.isQuantized());
  } else {
    QCOMPARE(tensor.quantization.scale(), q["scale"].get<float>());
    QCOMPARE(tensor.quantization.zeroPoint(), q["zero_point"].get<int>());
  }
}

}  // namespace

class ImporterReadsModels : public QObject {
  Q_OBJECT

 private slots:
  void agreesWithManifests_data() {
    QTest::addColumn<QString>("model");
    for (const auto& entry : fs::directory_iterator(loupe::test::modelsDir())) {
      if (fs::exists(entry.path() / "model.tflite")) {
        QTest::newRow(entry.path().filename().c_str()) << QString::fromStdString(entry.path());
      }
    }
  }

  void agreesWithManifests() {
    QFETCH(QString, model);
    const fs::path dir = model.toStdString();
    const auto graph = importTfliteFile(dir / "model.tflite");
    const auto manifest = readJson(dir / "golden" / "seed1" / "manifest.json");
    QCOMPARE(graph.inputs.size(), manifest["inputs"].size());
    QCOMPARE(graph.outputs.size(), manifest["outputs"].size());
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      compareTensor(graph.tensor(graph.inputs[i]), manifest["inputs"][i]);
    }
    for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
      compareTensor(graph.tensor(graph.outputs[i]), manifest["outputs"][i]);
    }
  }

  void kwsHasThirteenOperatorsInOrder() {
    const auto graph =
        importTfliteFile(loupe::test::modelsDir() / "kws_ref_model" / "model.tflite");
    const std::vector<std::string> expected = {
        "CONV_2D", "DEPTHWISE_CONV_2D", "CONV_2D", "DEPTHWISE_CONV_2D",
        "CONV_2D", "DEPTHWISE_CONV_2D", "CONV_2D", "DEPTHWISE_CONV_2D",
        "CONV_2D", "AVERAGE_POOL_2D",   "RESHAPE", "FULLY_CONNECTED",
        "SOFTMAX"};
    QCOMPARE(graph.operators.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QCOMPARE(graph.operators[i].typeName(), expected[i]);
    }
    // First layer: 10x4 filter, 64 channels, stride 2 over 49x10 -> 25x5x64 outputs.
    QCOMPARE(loupe::analysis::operatorCost(graph, graph.operators[0]).macs,
             std::int64_t{25 * 5 * 64 * 10 * 4});
    const auto& conv = std::get<loupe::ir::Conv2DAttrs>(graph.operators[0].attributes);
    QCOMPARE(conv.strideH, 2);
    QCOMPARE(conv.activation, loupe::ir::Activation::Relu);
    const auto& weights = graph.tensor(graph.operators[0].inputs[1]);
    QVERIFY(weights.isConstant);
    QCOMPARE(weights.quantization.scales.size(), std::size_t{64});
  }

  void seanetCasesImport() {
    int count = 0;
    for (const char* op : {"add", "conv", "pad"}) {
      for (const auto& entry :
           fs::directory_iterator(loupe::test::modelsDir() / "tflm_seanet" / op)) {
        if (entry.path().extension() != ".tflite") continue;
        const auto graph = importTfliteFile(entry.path());
        QCOMPARE(graph.operators.size(), std::size_t{1});
        QCOMPARE(graph.tensor(graph.outputs[0]).dtype, loupe::ir::DType::Int16);
        ++count;
      }
    }
    QCOMPARE(count, 17 + 22 + 19);
  }

  void velaModelImportsAsAnEthosUOperator() {
    // frontend_vela_import checks every Vela file and what it holds.
    const auto path = loupe::test::modelsDir() / "vela" / "person_detect_vela.tflite";
    const auto graph = importTfliteFile(path);
    QCOMPARE(graph.operators.size(), std::size_t{1});
    QCOMPARE(graph.operators[0].typeName(), std::string("CUSTOM(ethos-u)"));
    QVERIFY(graph.operators[0].type == loupe::ir::OpType::EthosU);
  }

  void perTensorBiasQuantizedAlongADimensionPastItsRankImports() {
    // A 1-D bias with one scale and a quantized_dimension of 3: with one
    // scale the dimension means nothing, and TFLite Micro never reads a
    // bias's. hello_world_int8's first bias (tensor 5, int32[16]) made so
    // imports and still gives the golden output.
    const auto dir = loupe::test::modelsDir() / "hello_world_int8";
    loupe::test::ModelEditor editor(dir / "model.tflite");
    QCOMPARE(editor.tensor(5).quantization->scale.size(), std::size_t{1});
    editor.tensor(5).quantization->quantized_dimension = 3;
    const auto graph = loupe::frontend::importTflite(editor.bytes());
    QCOMPARE(graph.tensors.at(5).shape, (loupe::ir::Shape{16}));
    QVERIFY(givesGoldenOutput(graph, dir / "golden" / "seed1"));
  }

  void perChannelBiasQuantizedAlongDimensionThreeImports() {
    // TOCO wrote the depthwise filter's quantized_dimension 3 into the rank-1
    // per-channel biases (TFLite Micro's person_detect example has 14 such
    // tensors); TFLite Micro ignores it and runs the model. kws's first
    // depthwise bias (int32[64], 64 scales) made so imports, is read as
    // quantised along its only dimension, and still gives the golden output.
    const auto dir = loupe::test::modelsDir() / "kws_ref_model";
    loupe::test::ModelEditor editor(dir / "model.tflite");
    const int bias = biasOfFirstDepthwise(editor);
    QVERIFY(bias >= 0);
    QCOMPARE(editor.tensor(bias).shape.size(), std::size_t{1});
    QCOMPARE(editor.tensor(bias).quantization->scale.size(),
             static_cast<std::size_t>(editor.tensor(bias).shape[0]));
    editor.tensor(bias).quantization->quantized_dimension = 3;
    const auto graph = loupe::frontend::importTflite(editor.bytes());
    QCOMPARE(graph.tensors.at(static_cast<std::size_t>(bias)).quantization.quantizedDimension, 0);
    QVERIFY(givesGoldenOutput(graph, dir / "golden" / "seed1"));
  }

  void printerIsDeterministic() {
    const auto path = loupe::test::modelsDir() / "ic_resnet8_int8" / "model.tflite";
    const auto first = loupe::ir::printGraph(importTfliteFile(path));
    const auto second = loupe::ir::printGraph(importTfliteFile(path));
    QCOMPARE(first, second);
    QVERIFY(first.find("= ADD(") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(ImporterReadsModels)
#include "importer_reads_models_test.moc"
