// The importer's contract for bad input: every class of broken or unsupported
// file is refused with an ImportError that says what is wrong and where
// (operator index and type, tensor index and name), and never crashes.
#include <QtTest>

#include <fstream>
#include <random>

#include "frontend/tflite_importer.h"
#include "model_editor.h"
#include "test_data.h"

using loupe::frontend::ImportError;
using loupe::frontend::importTflite;
using loupe::test::ModelEditor;
using loupe::test::modelsDir;

namespace {

const auto kHelloWorld = [] { return modelsDir() / "hello_world_int8" / "model.tflite"; };
const auto kKws = [] { return modelsDir() / "kws_ref_model" / "model.tflite"; };

// Imports `bytes` and returns the ImportError message, or fails the test.
QString importErrorOf(const std::vector<std::uint8_t>& bytes,
                      loupe::frontend::ImportOptions options = {}) {
  try {
    importTflite(bytes, options);
  } catch (const ImportError& error) {
    return QString::fromStdString(error.what());
  }
  return QStringLiteral("<no error>");
}

#define EXPECT_MESSAGE(message, fragment)                \
  QVERIFY2((message).contains(QStringLiteral(fragment)), \
           qPrintable(QStringLiteral("expected \"%1\" in: %2").arg(fragment, message)))

}  // namespace

class ImporterRejectsBadInput : public QObject {
  Q_OBJECT

 private slots:
  void emptyFile() {
    const QString message = importErrorOf({});
    EXPECT_MESSAGE(message, "the file is empty");
  }

  void tooShortForAHeader() {
    const QString message = importErrorOf({0x18, 0, 0});
    EXPECT_MESSAGE(message, "truncated: 3 bytes");
  }

  void truncatedModel() {
    auto bytes = loupe::test::readBytes(kKws());
    bytes.resize(bytes.size() / 2);
    const QString message = importErrorOf(bytes);
    EXPECT_MESSAGE(message, "corrupt or truncated");
  }

  void wrongFileIdentifier() {
    auto bytes = loupe::test::readBytes(kHelloWorld());
    std::memcpy(bytes.data() + 4, "ONNX", 4);
    const QString message = importErrorOf(bytes);
    EXPECT_MESSAGE(message, "not a TFLite model");
    EXPECT_MESSAGE(message, "'ONNX'");
  }

  void randomBytes() {
    std::mt19937 generator(7);
    for (int round = 0; round < 200; ++round) {
      std::vector<std::uint8_t> bytes(64 + round * 13);
      for (auto& byte : bytes) byte = static_cast<std::uint8_t>(generator());
      const QString message = importErrorOf(bytes);
      QVERIFY2(message.contains("not a TFLite model"), qPrintable(message));
    }
  }

  void randomBytesBehindAValidIdentifier() {
    std::mt19937 generator(11);
    for (int round = 0; round < 200; ++round) {
      std::vector<std::uint8_t> bytes(64 + round * 13);
      for (auto& byte : bytes) byte = static_cast<std::uint8_t>(generator());
      std::memcpy(bytes.data() + 4, "TFL3", 4);
      const QString message = importErrorOf(bytes);
      QVERIFY2(message.contains("corrupt or truncated"), qPrintable(message));
    }
  }

  void corruptedBytesNeverCrash() {
    // Flip bytes of a real model: each result is a model or an ImportError.
    const auto original = loupe::test::readBytes(kHelloWorld());
    std::mt19937 generator(3);
    int refused = 0;
    for (int round = 0; round < 300; ++round) {
      auto bytes = original;
      for (int flip = 0; flip < 4; ++flip) {
        bytes[generator() % bytes.size()] = static_cast<std::uint8_t>(generator());
      }
      try {
        importTflite(bytes);
      } catch (const ImportError&) {
        ++refused;
      }
    }
    QVERIFY(refused > 0);
  }

  void constantBufferSizeDisagreesWithShape() {
    ModelEditor editor(kHelloWorld());
    // Tensor 6 holds the first layer's int8[16,1] weights: 16 bytes.
    const auto buffer = editor.tensor(6).buffer;
    editor.model().buffers.at(buffer)->data.resize(15);
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "tensor 6 'sequential/dense/MatMul'");
    EXPECT_MESSAGE(message, "needs 16 bytes of data but buffer");
    EXPECT_MESSAGE(message, "holds 15");
  }

  void inconsistentShapes() {
    ModelEditor editor(kKws());
    // CONV_2D 0 writes int8[1,25,5,64]; claim 32 output channels instead.
    const auto output = editor.op(0).outputs.at(0);
    editor.tensor(output).shape = {1, 25, 5, 32};
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (CONV_2D)");
    EXPECT_MESSAGE(message, "expected 64 (output channels of the filter)");
  }

  void inconsistentSpatialShape() {
    ModelEditor editor(kKws());
    const auto output = editor.op(0).outputs.at(0);
    editor.tensor(output).shape = {1, 49, 5, 64};  // stride 2 gives 25 rows, not 49
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (CONV_2D)");
    EXPECT_MESSAGE(message, "expected 25 (output height for SAME padding");
  }

  void fullyConnectedDepthMismatch() {
    ModelEditor editor(kHelloWorld());
    editor.tensor(7).shape = {1, 15};  // layer 1 reads 16 features per row
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "FULLY_CONNECTED");
  }

  void tensorIndexOutOfRange() {
    ModelEditor editor(kHelloWorld());
    editor.op(1).inputs[0] = 99;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 1 (FULLY_CONNECTED): input 0 refers to tensor 99");
    EXPECT_MESSAGE(message, "the subgraph has 10 tensors");
  }

  void modelOutputIndexOutOfRange() {
    ModelEditor editor(kHelloWorld());
    editor.subgraph().outputs = {42};
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "model output refers to tensor 42");
  }

  void opcodeIndexOutOfRange() {
    ModelEditor editor(kHelloWorld());
    editor.op(2).opcode_index = 7;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 2 uses opcode 7 but the model defines 1 opcodes");
  }

  void bufferIndexOutOfRange() {
    ModelEditor editor(kHelloWorld());
    editor.tensor(4).buffer = 500;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "tensor 4 'sequential/dense_1/MatMul' refers to buffer 500");
  }

  void unsupportedBuiltinOperator() {
    ModelEditor editor(kHelloWorld());
    editor.op(1).opcode_index = editor.addOpcode(69);  // TILE, which TFLite Micro lacks too
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 1 is the builtin operator TILE (code 69)");
    EXPECT_MESSAGE(message, "does not support");
  }

  void unsupportedOperatorVersion() {
    ModelEditor editor(kHelloWorld());
    editor.op(0).opcode_index = editor.addOpcode(9, 99);  // FULLY_CONNECTED v99
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (FULLY_CONNECTED) has version 99");
    EXPECT_MESSAGE(message, "supports versions 1 to 12");
  }

  void customOperator() {
    ModelEditor editor(kHelloWorld());
    editor.op(2).opcode_index = editor.addOpcode(32, 1, "my_vendor_op");
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 2 is the custom operator 'my_vendor_op'");
  }

  void customOperatorIsKeptForInspection() {
    ModelEditor editor(kHelloWorld());
    editor.op(2).opcode_index = editor.addOpcode(32, 1, "my_vendor_op");
    loupe::frontend::ImportOptions inspect;
    inspect.keepUnsupportedOperators = true;
    const auto graph = importTflite(editor.bytes(), inspect);
    QCOMPARE(graph.operators.size(), std::size_t{3});
    QCOMPARE(graph.operators[2].typeName(), std::string("CUSTOM(my_vendor_op)"));
  }

  void optionsOfAnotherOperator() {
    ModelEditor editor(kKws());
    tflite::Pool2DOptionsT pool;
    pool.filter_width = pool.filter_height = pool.stride_w = pool.stride_h = 1;
    editor.op(0).builtin_options.Set(pool);
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (CONV_2D) carries Pool2DOptions");
    EXPECT_MESSAGE(message, "expected Conv2DOptions");
  }

  void missingRequiredOptions() {
    ModelEditor editor(kKws());
    editor.op(0).builtin_options.Reset();
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (CONV_2D) has no Conv2DOptions");
  }

  void invalidOptionValue() {
    ModelEditor editor(kKws());
    editor.op(0).builtin_options.AsConv2DOptions()->stride_w = 0;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (CONV_2D): stride_w is 0; it must be at least 1");
  }

  void wrongInputCount() {
    ModelEditor editor(kHelloWorld());
    editor.op(0).inputs = {0};
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 0 (FULLY_CONNECTED) has 1 inputs; expected 2 to 3");
  }

  void unsupportedTensorType() {
    ModelEditor editor(kHelloWorld());
    editor.tensor(8).type = tflite::TensorType::STRING;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "tensor 8");
    EXPECT_MESSAGE(message, "has type STRING");
  }

  void dynamicShape() {
    ModelEditor editor(kHelloWorld());
    editor.tensor(0).shape = {-1, 1};
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "tensor 0 'serving_default_dense_input:0' has shape [-1,1]");
    EXPECT_MESSAGE(message, "static shapes");
  }

  void perChannelScaleCountMismatch() {
    ModelEditor editor(kKws());
    // The first convolution's weights tensor (17) has 64 per-channel scales.
    auto& quantization = *editor.tensor(17).quantization;
    quantization.scale.resize(63);
    quantization.zero_point.resize(63);
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "tensor 17 'functional_1/conv2d/Conv2D' has 63 per-channel scales");
    EXPECT_MESSAGE(message, "dimension 0 has 64 channels");
  }

  void perChannelDimensionPastTheRank() {
    ModelEditor editor(kKws());
    // Tensor 17's 64 per-channel scales along dimension 4 of a rank-4 tensor:
    // with more than one scale the dimension matters and must exist.
    editor.tensor(17).quantization->quantized_dimension = 4;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "tensor 17 'functional_1/conv2d/Conv2D' is quantized per channel");
    EXPECT_MESSAGE(message, "along dimension 4, outside its rank 4");
  }

  void tensorReadBeforeWritten() {
    ModelEditor editor(kHelloWorld());
    // Operator 1 reads its own output (same shape as its real input).
    editor.op(1).inputs[0] = 8;
    const QString message = importErrorOf(editor.bytes());
    EXPECT_MESSAGE(message, "operator 1 (FULLY_CONNECTED) reads tensor 8");
    EXPECT_MESSAGE(message, "neither a model input, a constant nor written by an earlier");
  }

  void fuzzerFindingsStayFixed() {
    // Inputs that once crashed the importer under the fuzzer (see fuzz/):
    // each must now import or be refused with an ImportError.
    const auto dir = loupe::test::modelsDir().parent_path() / "importer_regressions";
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      const auto bytes = loupe::test::readBytes(entry.path());
      for (bool keep : {false, true}) {
        loupe::frontend::ImportOptions options;
        options.keepUnsupportedOperators = keep;
        try {
          importTflite(bytes, options);
        } catch (const ImportError&) {
        }
      }
      ++count;
    }
    QVERIFY(count > 0);
  }

  void fileErrorsNameTheFile() {
    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "broken.tflite";
    std::ofstream(path) << "definitely not a model";
    try {
      loupe::frontend::importTfliteFile(path);
      QFAIL("a broken file was imported");
    } catch (const ImportError& error) {
      const QString message = error.what();
      EXPECT_MESSAGE(message, "broken.tflite: not a TFLite model");
    }
    try {
      loupe::frontend::importTfliteFile(path.parent_path() / "missing.tflite");
      QFAIL("a missing file was imported");
    } catch (const ImportError& error) {
      const QString message = error.what();
      EXPECT_MESSAGE(message, "cannot open");
    }
  }
};

QTEST_APPLESS_MAIN(ImporterRejectsBadInput)
#include "importer_rejects_bad_input_test.moc"
