// Whole NPU regions compiled to one Ethos-U operator (compiler_core/ethosu/
// region_compiler): for each shared int8 model, its longest run of
// operators the NPU takes becomes one command stream with its flash and a
// planned scratch, the rest stays on the CPU, and the model then gives
// TFLite Micro's bytes on every golden set (the reference interpreter runs
// the operator through the driver call and the functional model, as it runs
// a Vela file's). Every configuration of one core is tried on the first
// set, the two Vela's files use on all of them.
#include <QtTest>

#include "ethosu/convolution_lowering.h"
#include "ethosu/region_compiler.h"
#include "ethosu_test_model.h"
#include "frontend/ethosu_payload_reader.h"
#include "frontend/tflite_importer.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using namespace loupe;
using namespace loupe::ethosu;

namespace {

// The first and last operator of the longest run the NPU takes.
std::pair<int, int> longestNpuRun(const ir::Graph& graph) {
  std::pair<int, int> best{0, -1};
  int start = -1;
  for (int i = 0; i <= static_cast<int>(graph.operators.size()); ++i) {
    const bool takes = i < static_cast<int>(graph.operators.size()) &&
                       npuRegionTakes(graph, graph.operators[static_cast<std::size_t>(i)]);
    if (takes && start < 0) start = i;
    if (!takes && start >= 0) {
      if (i - 1 - start > best.second - best.first) best = {start, i - 1};
      start = -1;
    }
  }
  return best;
}

}  // namespace

class EthosuRegionCompilerTest : public QObject {
  Q_OBJECT

 private slots:
  void modelsWithTheirNpuRegionGiveTfliteMicrosBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("accelerator");
    QTest::addColumn<bool>("everySet");
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized"}) {
      for (const NpuArchitecture& arch : npuArchitectures()) {
        if (arch.cores != 1) continue;
        const bool velas =
            arch.accelerator == LOUPE_ETHOSU_U55_128 || arch.accelerator == LOUPE_ETHOSU_U55_256;
        QTest::newRow((std::string(model) + " " + std::string(arch.name)).c_str())
            << model << arch.accelerator << velas;
      }
    }
  }

  void modelsWithTheirNpuRegionGiveTfliteMicrosBytes() {
    QFETCH(QString, model);
    QFETCH(int, accelerator);
    QFETCH(bool, everySet);
    const auto dir = test::modelsDir() / model.toStdString();
    const ir::Graph graph = frontend::importTfliteFile((dir / "model.tflite").string());
    const auto [first, last] = longestNpuRun(graph);
    QVERIFY(last >= first);
    const ir::Graph compiled = withNpuRegion(graph, first, last, *findNpuArchitecture(accelerator));
    QCOMPARE(compiled.operators.size(), graph.operators.size() - std::size_t(last - first));
    const ir::Operator& npu = compiled.operators.at(std::size_t(first));
    QCOMPARE(npu.type, ir::OpType::EthosU);
    const auto& attrs = std::get<ir::EthosUAttrs>(npu.attributes);
    QCOMPARE(attrs.accelerator, accelerator);
    QVERIFY(attrs.npuOperations > 0 && attrs.macs > 0);
    // The payload is one a Vela file could have held: the importer's reader
    // takes it.
    const auto payload = frontend::readEthosUPayload(compiled.tensor(npu.inputs[0]).data);
    QCOMPARE(payload.accelerator, accelerator);

    auto sets = test::ethosu::goldenSets(model.toStdString());
    if (!everySet) sets.resize(1);
    for (const auto& set : sets) {
      reference::ReferenceInterpreter interpreter(compiled);
      for (std::size_t i = 0; i < compiled.inputs.size(); ++i) {
        interpreter.setInput(i, test::readBytes(set / ("input" + std::to_string(i) + ".bin")));
      }
      interpreter.invoke();
      for (std::size_t i = 0; i < compiled.outputs.size(); ++i) {
        const auto golden = test::readBytes(set / ("output" + std::to_string(i) + ".bin"));
        const auto output = interpreter.output(i);
        QVERIFY2(std::equal(golden.begin(), golden.end(), output.begin(), output.end()),
                 qPrintable(QString("%1: output %2 differs from TFLite Micro's (NPU region "
                                    "operators %3..%4)")
                                .arg(QString::fromStdString(set.filename().string()))
                                .arg(i)
                                .arg(first)
                                .arg(last)));
      }
    }
  }

  void anOperatorTheNpuDoesNotTakeIsNamed() {
    const ir::Graph graph =
        frontend::importTfliteFile((test::modelsDir() / "kws_ref_model" / "model.tflite").string());
    const int softmax = static_cast<int>(graph.operators.size()) - 1;
    QCOMPARE(graph.operators.back().type, ir::OpType::Softmax);
    try {
      withNpuRegion(graph, 0, softmax, *findNpuArchitecture("ethos-u55-128"));
      QFAIL("a region with SOFTMAX was compiled");
    } catch (const NpuLoweringError& error) {
      QVERIFY2(QString(error.what()).contains("SOFTMAX"), error.what());
    }
  }
};

QTEST_GUILESS_MAIN(EthosuRegionCompilerTest)
#include "region_compiler_test.moc"
