// Every operator of the project's models whose lowering lives beside this
// test (pooling, ADD/SUB/MUL, SOFTMAX, PAD, the shape copies), cut out as a
// one-operator graph, through generated C against the reference interpreter.
// Real models bring the quantisations and shapes hand-built graphs miss.
#include <QtTest>

#include <algorithm>
#include <filesystem>

#include "codegen_checks.h"
#include "test_data.h"
#include "test_group.h"

namespace model_operators_test {

using namespace loupe;

namespace {

constexpr ir::OpType kLoweredHere[] = {
    ir::OpType::AveragePool2D, ir::OpType::MaxPool2D, ir::OpType::Add,       ir::OpType::Sub,
    ir::OpType::Mul,           ir::OpType::Softmax,   ir::OpType::Pad,       ir::OpType::PadV2,
    ir::OpType::Reshape,       ir::OpType::Squeeze,   ir::OpType::ExpandDims};

std::vector<std::filesystem::path> modelFiles() {
  std::vector<std::filesystem::path> models;
  for (const auto& entry : std::filesystem::directory_iterator(test::modelsDir())) {
    if (std::filesystem::exists(entry.path() / "model.tflite")) {
      models.push_back(entry.path() / "model.tflite");
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

}  // namespace

class ModelOperatorsCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("op");
    int rows = 0;
    for (const auto& path : modelFiles()) {
      const ir::Graph graph = frontend::importTfliteFile(path);
      for (const ir::Operator& op : graph.operators) {
        if (std::find(std::begin(kLoweredHere), std::end(kLoweredHere), op.type) ==
            std::end(kLoweredHere)) {
          continue;
        }
        const std::string name = path.parent_path().filename().string() + " #" +
                                 std::to_string(op.index) + " " + op.typeName();
        QTest::newRow(name.c_str()) << QString::fromStdString(path.string()) << op.index;
        ++rows;
      }
    }
    QVERIFY(rows >= 10);
  }

  void matchesReference() {
    QFETCH(QString, model);
    QFETCH(int, op);
    const ir::Graph graph = frontend::importTfliteFile(model.toStdString());
    const std::string difference =
        test::differenceFromReference(test::oneOperatorGraph(graph, op), {7, 8});
    QVERIFY2(difference.empty(), difference.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(ModelOperatorsCodegen)

}  // namespace model_operators_test

#include "model_operators_test.moc"
