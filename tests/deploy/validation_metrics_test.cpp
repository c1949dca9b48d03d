// The numbers of loupec validate, worked out by hand: quantized outputs are
// compared on real values, float outputs on raw ones; identical outputs give
// zero error and cosine 1; a metric without a finite value (an all-zero
// expected output, a NaN) is empty and null in JSON, never NaN.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "deploy/validation_metrics.h"
#include "frontend/tflite_importer.h"
#include "test_data.h"

using namespace loupe;

namespace {

ir::Tensor tensorOf(ir::DType dtype, ir::Shape shape, std::vector<float> scales = {},
                    std::vector<std::int64_t> zeroPoints = {}) {
  ir::Tensor tensor;
  tensor.name = "out";
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  tensor.quantization.scales = std::move(scales);
  tensor.quantization.zeroPoints = std::move(zeroPoints);
  return tensor;
}

std::vector<std::uint8_t> int8Bytes(std::vector<std::int8_t> values) {
  return {values.begin(), values.end()};
}

std::vector<std::uint8_t> floatBytes(const std::vector<float>& values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace

class ValidationMetricsTest : public QObject {
  Q_OBJECT

 private slots:
  void int8IsComparedOnRealValues() {
    // scale 0.5, zero point 10: expected q [10, 12, 14, 6] is [0, 1, 2, -2];
    // actual q [10, 12, 14, 3] is [0, 1, 2, -3.5]. One element off by 3 steps,
    // which is 1.5 in real terms.
    const ir::Tensor tensor = tensorOf(ir::DType::Int8, {1, 4}, {0.5f}, {10});
    const auto m =
        deploy::compareTensorValues(tensor, int8Bytes({10, 12, 14, 6}), int8Bytes({10, 12, 14, 3}));
    QCOMPARE(m.elements, std::int64_t{4});
    QCOMPARE(*m.differingElements, std::int64_t{1});
    QCOMPARE(*m.maxAbsoluteError, 1.5);
    QCOMPARE(*m.meanAbsoluteError, 1.5 / 4);                // 0.375
    QCOMPARE(*m.rootMeanSquareError, std::sqrt(2.25 / 4));  // 0.75
    QCOMPARE(*m.l2RelativeError, 1.5 / 3);                  // ||e|| = sqrt(0+1+4+4) = 3
    // e.a = 0 + 1 + 4 + 7 = 12, ||a|| = sqrt(0 + 1 + 4 + 12.25)
    QCOMPARE(*m.cosineSimilarity, 12 / (3 * std::sqrt(17.25)));
  }

  void perChannelScalesFollowTheQuantizedDimension() {
    // Shape [2, 2] quantized along dimension 1: columns have scales 1 and 0.5.
    ir::Tensor tensor = tensorOf(ir::DType::Int8, {2, 2}, {1.0f, 0.5f}, {0, 0});
    tensor.quantization.quantizedDimension = 1;
    // Element 1 (column 1) is 2 steps off: 1.0 in real terms.
    const auto m =
        deploy::compareTensorValues(tensor, int8Bytes({2, 2, 2, 2}), int8Bytes({2, 4, 2, 2}));
    QCOMPARE(*m.maxAbsoluteError, 1.0);
    QCOMPARE(*m.meanAbsoluteError, 0.25);
  }

  void float32IsComparedOnRawValues() {
    // expected [3, 4] (norm 5), actual [3, 4.5]: one error of 0.5.
    const ir::Tensor tensor = tensorOf(ir::DType::Float32, {2});
    const auto m = deploy::compareTensorValues(tensor, floatBytes({3, 4}), floatBytes({3, 4.5f}));
    QCOMPARE(*m.differingElements, std::int64_t{1});
    QCOMPARE(*m.maxAbsoluteError, 0.5);
    QCOMPARE(*m.meanAbsoluteError, 0.25);
    QCOMPARE(*m.rootMeanSquareError, std::sqrt(0.125));
    QCOMPARE(*m.l2RelativeError, 0.1);
    QCOMPARE(*m.cosineSimilarity, 27 / (5 * std::sqrt(29.25)));  // (9 + 18) / (5 ||a||)
  }

  void identicalOutputsHaveNoErrorAndCosineOne() {
    // kws_ref_model's output as the graph declares it (scale 1/256, zero
    // point -128) against itself.
    const auto dir = test::modelsDir() / "kws_ref_model";
    const ir::Graph graph = frontend::importTfliteFile(dir / "model.tflite");
    const auto golden = test::readBytes(dir / "golden" / "real1" / "output0.bin");
    const auto m = deploy::compareTensorValues(graph.tensor(graph.outputs[0]), golden, golden);
    QCOMPARE(m.elements, std::int64_t{12});
    QCOMPARE(*m.differingElements, std::int64_t{0});
    QCOMPARE(*m.maxAbsoluteError, 0.0);
    QCOMPARE(*m.meanAbsoluteError, 0.0);
    QCOMPARE(*m.rootMeanSquareError, 0.0);
    QCOMPARE(*m.l2RelativeError, 0.0);
    QCOMPARE(*m.cosineSimilarity, 1.0);
  }

  void anAllZeroExpectedOutputHasNoRelativeMetrics() {
    const ir::Tensor tensor = tensorOf(ir::DType::Float32, {3});
    const auto m =
        deploy::compareTensorValues(tensor, floatBytes({0, 0, 0}), floatBytes({0, 1, 0}));
    QCOMPARE(*m.maxAbsoluteError, 1.0);
    QCOMPARE(*m.meanAbsoluteError, 1.0 / 3);
    QCOMPARE(*m.rootMeanSquareError, std::sqrt(1.0 / 3));
    QVERIFY(!m.l2RelativeError);   // divides by ||expected|| = 0
    QVERIFY(!m.cosineSimilarity);  // no direction to compare with
    const nlohmann::json json = deploy::validationMetricsJson(m);
    QVERIFY(json["l2_relative_error"].is_null());
    QVERIFY(json["cosine_similarity"].is_null());
    QCOMPARE(json["max_absolute_error"].get<double>(), 1.0);
    QCOMPARE(json["differing_elements"].get<int>(), 1);

    // Both all zero: no error, and still no relative metric.
    const auto zeros =
        deploy::compareTensorValues(tensor, floatBytes({0, 0, 0}), floatBytes({0, 0, 0}));
    QCOMPARE(*zeros.maxAbsoluteError, 0.0);
    QVERIFY(!zeros.l2RelativeError);
    QVERIFY(!zeros.cosineSimilarity);
  }

  void aNaNLeavesEveryMetricEmpty() {
    const ir::Tensor tensor = tensorOf(ir::DType::Float32, {2});
    const auto m = deploy::compareTensorValues(
        tensor, floatBytes({1, 2}), floatBytes({1, std::numeric_limits<float>::quiet_NaN()}));
    QCOMPARE(*m.differingElements, std::int64_t{1});
    QVERIFY(!m.maxAbsoluteError && !m.meanAbsoluteError && !m.rootMeanSquareError);
    QVERIFY(!m.l2RelativeError && !m.cosineSimilarity);
    const std::string json = deploy::validationMetricsJson(m).dump();
    QVERIFY2(json.find("NaN") == std::string::npos && json.find("nan") == std::string::npos,
             json.c_str());
  }

  void aFloatLayerAgainstAQuantizedOneComparesValuesOnly() {
    // The float model's layer [0.5, -1] against the int8 model's q [11, 8]
    // at scale 0.5, zero point 10: [0.5, -1], the same values stored
    // differently, so no count of differing bytes.
    const ir::Tensor quantized = tensorOf(ir::DType::Int8, {2}, {0.5f}, {10});
    const ir::Tensor real = tensorOf(ir::DType::Float32, {2});
    const std::vector<double> values = deploy::tensorValues(quantized, int8Bytes({11, 8}));
    QCOMPARE(values, (std::vector<double>{0.5, -1}));
    const auto m =
        deploy::compareValues(deploy::tensorValues(real, floatBytes({0.5f, -1})), values);
    QVERIFY(!m.differingElements);
    QVERIFY(deploy::validationMetricsJson(m)["differing_elements"].is_null());
    QCOMPARE(*m.maxAbsoluteError, 0.0);
    QCOMPARE(*m.cosineSimilarity, 1.0);
  }

  void otherTypesAreReadAsStored() {
    // float16 1.0 (0x3c00), -2.0 (0xc000) and the smallest subnormal (0x0001).
    const ir::Tensor half = tensorOf(ir::DType::Float16, {3});
    QCOMPARE(
        deploy::tensorValues(half, std::vector<std::uint8_t>{0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00}),
        (std::vector<double>{1.0, -2.0, std::ldexp(1.0, -24)}));
    // An int32 tensor without quantisation (an ARG_MAX index) is its integers.
    const ir::Tensor indices = tensorOf(ir::DType::Int32, {1});
    QCOMPARE(deploy::tensorValues(indices, std::vector<std::uint8_t>{0xfe, 0xff, 0xff, 0xff}),
             (std::vector<double>{-2.0}));
  }

  void buffersOfTheWrongSizeAreRefused() {
    const ir::Tensor tensor = tensorOf(ir::DType::Float32, {2});
    try {
      deploy::compareTensorValues(tensor, floatBytes({1, 2}), floatBytes({1}));
      QFAIL("a 4-byte buffer for an 8-byte tensor was accepted");
    } catch (const std::invalid_argument& error) {
      QCOMPARE(QString(error.what()),
               QString("the actual values of 'out' have 4 bytes, the tensor needs 8"));
    }
  }
};

QTEST_GUILESS_MAIN(ValidationMetricsTest)
#include "validation_metrics_test.moc"
