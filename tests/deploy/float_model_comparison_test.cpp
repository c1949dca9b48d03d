// A quantized model against a float model, layer by layer. hello_world_int8
// and hello_world_float share their tensor names, so every FULLY_CONNECTED
// output is compared. They were trained separately (TFLite Micro's per-tensor
// dumps of the two show the same), so their hidden layers disagree, but both
// outputs approximate sin(x): the int8 model's is within two output steps of
// the float model's at x = 5.
#include <QtTest>

#include <stdexcept>

#include "deploy/float_model_comparison.h"
#include "frontend/tflite_importer.h"
#include "test_data.h"

using namespace loupe;

class FloatModelComparisonTest : public QObject {
  Q_OBJECT

 private slots:
  void everyLayerOfHelloWorldMatchesByName() {
    const ir::Graph quantized =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_int8" / "model.tflite");
    const ir::Graph real =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_float" / "model.tflite");
    // q = 76 is x = 0.0244801156 * (76 + 128) = 4.994.
    const auto input =
        test::readBytes(test::modelsDir() / "hello_world_int8" / "golden" / "real5" / "input0.bin");
    const deploy::FloatModelComparison comparison =
        deploy::compareWithFloatModel(quantized, real, {input});
    QVERIFY(comparison.unmatched.empty());
    QCOMPARE(comparison.layers.size(), std::size_t{3});
    for (std::size_t i = 0; i < 3; ++i) {
      QCOMPARE(comparison.layers[i].operatorIndex, static_cast<int>(i));
      QCOMPARE(comparison.layers[i].operatorType, std::string("FULLY_CONNECTED"));
      QVERIFY(!comparison.layers[i].metrics.differingElements);  // float against int8
    }
    QCOMPARE(comparison.layers[0].metrics.elements, std::int64_t{16});
    const deploy::LayerComparison& last = comparison.layers[2];
    QCOMPARE(last.tensorName, std::string("StatefulPartitionedCall:0"));
    // The int8 output -112 is -0.970 (output scale 0.00829); the float model
    // says -0.958 for this x, 0.012 away.
    QVERIFY2(*last.metrics.maxAbsoluteError > 0 && *last.metrics.maxAbsoluteError < 2 * 0.00829,
             std::to_string(*last.metrics.maxAbsoluteError).c_str());
    QCOMPARE(*last.metrics.cosineSimilarity, 1.0);  // one element, same sign
  }

  void aFloatModelWithOtherInputsIsRefused() {
    const ir::Graph quantized =
        frontend::importTfliteFile(test::modelsDir() / "kws_ref_model" / "model.tflite");
    const ir::Graph real =
        frontend::importTfliteFile(test::modelsDir() / "hello_world_float" / "model.tflite");
    const auto input =
        test::readBytes(test::modelsDir() / "kws_ref_model" / "golden" / "seed1" / "input0.bin");
    try {
      deploy::compareWithFloatModel(quantized, real, {input});
      QFAIL("hello_world_float was taken for the float kws model");
    } catch (const std::invalid_argument& error) {
      QVERIFY2(QString(error.what()).startsWith("the float model's input 0 '"), error.what());
      QVERIFY2(QString(error.what()).endsWith("' has 1 elements, the quantized model's 490"),
               error.what());
    }
  }
};

QTEST_GUILESS_MAIN(FloatModelComparisonTest)
#include "float_model_comparison_test.moc"
