// A model compiled by Arm's Vela imports for compilation: its CUSTOM
// "ethos-u" operator becomes an EthosU operator whose attributes say the
// NPU the payload was compiled for (OPTIMIZER_CONFIG), the scratch sizes and
// where each feature map lies in the scratch arena (the model's metadata
// OfflineMemoryAllocation); the scratch tensors are no operands. A
// malformed payload or allocation is refused with the reason.
#include <QtTest>

#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "model_editor.h"

using loupe::frontend::ImportError;
using loupe::frontend::importTflite;
using loupe::frontend::importTfliteFile;
using namespace loupe::test::ethosu;

namespace {

// The import error of `bytes`, or "" when it imports.
std::string importErrorOf(const std::vector<std::uint8_t>& bytes) {
  try {
    importTflite(bytes);
  } catch (const ImportError& error) {
    return error.what();
  }
  return "";
}

// The buffer of the ethos-u operator's input `slot` in an edited model.
std::vector<std::uint8_t>& operandBuffer(loupe::test::ModelEditor& editor, std::size_t slot) {
  const int tensor = editor.op(0).inputs.at(slot);
  return editor.model().buffers.at(editor.tensor(static_cast<std::size_t>(tensor)).buffer)->data;
}

std::vector<std::int32_t>& offlineAllocation(loupe::test::ModelEditor& editor,
                                             std::vector<std::uint8_t>** bytes) {
  static std::vector<std::int32_t> words;
  for (const auto& entry : editor.model().metadata) {
    if (entry->name != "OfflineMemoryAllocation") continue;
    *bytes = &editor.model().buffers.at(entry->buffer)->data;
    words.resize((*bytes)->size() / 4);
    std::memcpy(words.data(), (*bytes)->data(), (*bytes)->size());
  }
  return words;
}

}  // namespace

class VelaImportTest : public QObject {
  Q_OBJECT

 private slots:
  void everyVelaFileImportsAsAnEthosUOperator_data() {
    QTest::addColumn<int>("file");
    const auto files = velaFiles();
    for (std::size_t i = 0; i < files.size(); ++i) {
      QTest::newRow(files[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void everyVelaFileImportsAsAnEthosUOperator() {
    QFETCH(int, file);
    const VelaFile vela = velaFiles().at(static_cast<std::size_t>(file));
    const auto graph = importTfliteFile(vela.path);
    QCOMPARE(graph.operators.size(), std::size_t{1});
    const auto& op = graph.operators[0];
    QVERIFY(op.type == loupe::ir::OpType::EthosU);
    QCOMPARE(op.typeName(), std::string("CUSTOM(ethos-u)"));
    const auto& attrs = std::get<loupe::ir::EthosUAttrs>(op.attributes);
    QCOMPARE(attrs.accelerator, vela.accelerator);
    QVERIFY(attrs.npuOperations > 0);
    QVERIFY(attrs.macs > 0);
    QVERIFY(attrs.workspaceValues > 0);

    // What the file says, read with flatbuffers' generic access.
    const EthosuOperator e = loadEthosuOperator(vela.path);
    QCOMPARE(attrs.scratchBytes, static_cast<std::int64_t>(e.scratchSize));
    QCOMPARE(attrs.fastScratchBytes, static_cast<std::int64_t>(e.fastScratchSize));
    const std::int32_t scratchStart = e.arenaOffsets.at(e.op->inputs()->Get(2));
    // Operands: the payload, the flash, then the feature maps; no scratch.
    QCOMPARE(op.inputs.size(), std::size_t{e.op->inputs()->size() - 2});
    QCOMPARE(op.inputs[0], e.op->inputs()->Get(0));
    QVERIFY(graph.tensor(op.inputs[0]).isConstant);
    QCOMPARE(op.inputs[1], e.op->inputs()->Get(1));
    QCOMPARE(attrs.inputOffsets.size(), std::size_t{e.op->inputs()->size() - 4});
    for (std::size_t i = 0; i < attrs.inputOffsets.size(); ++i) {
      const int tensor = e.op->inputs()->Get(static_cast<flatbuffers::uoffset_t>(4 + i));
      QCOMPARE(op.inputs[2 + i], tensor);
      QCOMPARE(attrs.inputOffsets[i],
               std::int64_t{e.arenaOffsets.at(static_cast<std::size_t>(tensor))} - scratchStart);
    }
    QCOMPARE(attrs.outputOffsets.size(), std::size_t{e.op->outputs()->size()});
    for (std::size_t i = 0; i < attrs.outputOffsets.size(); ++i) {
      const int tensor = e.op->outputs()->Get(static_cast<flatbuffers::uoffset_t>(i));
      QCOMPARE(attrs.outputOffsets[i],
               std::int64_t{e.arenaOffsets.at(static_cast<std::size_t>(tensor))} - scratchStart);
    }
  }

  void corruptCommandStreamIsRefusedWithTheDecodersMessage() {
    loupe::test::ModelEditor editor(velaFiles().front().path);
    auto& payload = operandBuffer(editor, 0);
    // The stream's first command becomes an opcode no Ethos-U has.
    const std::uint8_t* stream = nullptr;
    std::uint32_t words = 0;
    QCOMPARE(loupe_ethosu_payload_parse(payload.data(), payload.size(), nullptr, &stream, &words,
                                        nullptr),
             0);
    const std::size_t first = static_cast<std::size_t>(stream - payload.data());
    const std::uint8_t unknown[4] = {0xff, 0x03, 0x00, 0x00};  // cmd0 opcode 0x3ff
    std::memcpy(payload.data() + first, unknown, 4);
    const std::string error = importErrorOf(editor.bytes());
    QVERIFY2(error.starts_with("operator 0 (CUSTOM(ethos-u)): malformed Ethos-U payload: "
                               "command stream: unknown command"),
             error.c_str());
  }

  void payloadWithoutFourccIsRefused() {
    loupe::test::ModelEditor editor(velaFiles().front().path);
    operandBuffer(editor, 0)[0] = 'X';
    const std::string error = importErrorOf(editor.bytes());
    QVERIFY2(error.starts_with("operator 0 (CUSTOM(ethos-u)): malformed Ethos-U payload: "
                               "payload: fourcc"),
             error.c_str());
  }

  void modelWithoutOfflineAllocationIsRefused() {
    loupe::test::ModelEditor editor(velaFiles().front().path);
    editor.model().metadata.clear();
    const std::string error = importErrorOf(editor.bytes());
    QVERIFY2(error.find("no metadata OfflineMemoryAllocation") != std::string::npos, error.c_str());
  }

  void offlineAllocationOfTheWrongSizeIsRefused() {
    loupe::test::ModelEditor editor(velaFiles().front().path);
    std::vector<std::uint8_t>* bytes = nullptr;
    auto words = offlineAllocation(editor, &bytes);
    QVERIFY(bytes != nullptr);
    words[2] += 1;
    std::memcpy(bytes->data(), words.data(), 12);
    const std::string error = importErrorOf(editor.bytes());
    QVERIFY2(error.find("metadata OfflineMemoryAllocation gives") != std::string::npos &&
                 error.find("tensors") != std::string::npos,
             error.c_str());
  }

  void featureMapOutsideTheScratchAreaIsRefused() {
    const VelaFile vela = velaFiles().front();
    const EthosuOperator e = loadEthosuOperator(vela.path);
    loupe::test::ModelEditor editor(vela.path);
    std::vector<std::uint8_t>* bytes = nullptr;
    auto words = offlineAllocation(editor, &bytes);
    const int output = e.outputTensor();
    words.at(3 + static_cast<std::size_t>(output)) = static_cast<std::int32_t>(e.scratchSize);
    std::memcpy(bytes->data(), words.data(), bytes->size());
    const std::string error = importErrorOf(editor.bytes());
    QVERIFY2(error.find("output tensor " + std::to_string(output)) != std::string::npos &&
                 error.find("lies outside the scratch area") != std::string::npos,
             error.c_str());
  }

  void inspectionImportsItTheSameWay() {
    loupe::frontend::ImportOptions inspect;
    inspect.keepUnsupportedOperators = true;
    const auto graph = importTfliteFile(velaFiles().back().path, inspect);
    QVERIFY(graph.operators.at(0).type == loupe::ir::OpType::EthosU);
  }
};

QTEST_APPLESS_MAIN(VelaImportTest)
#include "vela_import_test.moc"
