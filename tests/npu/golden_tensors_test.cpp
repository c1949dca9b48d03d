// Every NPU-eligible operator of the shared models, legalised, encoded and run
// on the software NPU (C runtime) on TFLite Micro's dumped input tensors of
// every golden set that has dumps (seed1 and the real<k> sets),
// gives TFLite Micro's dumped output tensor byte for byte, in each of the four
// MAC configurations (each has its own block configuration, so its own weight
// sub-streams and OFM tiling).
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <map>

#include "npu_test_support.h"
#include "test_data.h"

using namespace loupe;

class NpuGoldenTensorsTest : public QObject {
  Q_OBJECT

 private slots:
  void everyEligibleOperatorMatchesTheDumps() {
    const auto models = test::modelsDir();
    std::map<std::string, int> checkedPerType;
    std::map<std::string, int> notEligible;
    int checked = 0, runs = 0;
    for (const std::string& name : test::npuModelNames()) {
      QVERIFY2(std::filesystem::is_directory(models / name / "golden" / "seed1" / "tensors"),
               name.c_str());
      std::vector<std::filesystem::path> sets;
      for (const auto& entry : std::filesystem::directory_iterator(models / name / "golden")) {
        if (std::filesystem::is_directory(entry.path() / "tensors")) {
          sets.push_back(entry.path() / "tensors");
        }
      }
      std::sort(sets.begin(), sets.end());
      const ir::Graph graph = test::loadModel(name);
      std::map<std::string, int> modelCounts;
      for (const ir::Operator& op : graph.operators) {
        if (!test::isNpuEligible(graph, op)) {
          ++notEligible[op.typeName()];
          continue;
        }
        for (const std::filesystem::path& dumps : sets) {
          const auto dump = [&](int tensor) {
            std::string file = "t";
            file += std::to_string(tensor);
            file += ".bin";
            return test::readBytes(dumps / file);
          };
          // The tensors compileNpuOperator says to bind to the IFM, IFM2 and
          // OFM regions; a constant one (an element-wise operand) comes from
          // the model, not the dump.
          const auto bound = [&](const npu::NpuCompiledOperator& compiled, int region) {
            const int tensor = compiled.regionTensors[region];
            if (tensor == ir::kNoTensor) return std::vector<std::uint8_t>{};
            const ir::Tensor& t = graph.tensor(tensor);
            return t.isConstant ? t.data.bytes() : dump(tensor);
          };
          for (npu::MacConfig config : npu::kAllMacConfigs) {
            const auto compiled = npu::compileNpuOperator(graph, op, config);
            QCOMPARE(compiled.regionTensors[LOUPE_NPU_REGION_OFM], op.outputs[0]);
            const auto expected = bound(compiled, LOUPE_NPU_REGION_OFM);
            const test::NpuRun run =
                test::runOnSoftwareNpu(compiled, bound(compiled, LOUPE_NPU_REGION_IFM),
                                       bound(compiled, LOUPE_NPU_REGION_IFM2), expected.size());
            const std::string where = name + " operator " + std::to_string(op.index) + " (" +
                                      op.typeName() + ") on " + npu::macConfigName(config) + ", " +
                                      dumps.parent_path().filename().string();
            QVERIFY2(run.status == 0, (where + ": status " + std::to_string(run.status)).c_str());
            std::size_t differing = 0;
            for (std::size_t i = 0; i < expected.size(); ++i)
              differing += run.ofm[i] != expected[i];
            QVERIFY2(differing == 0, (where + ": " + std::to_string(differing) + " of " +
                                      std::to_string(expected.size()) + " bytes differ")
                                         .c_str());
            ++runs;
          }
        }
        ++modelCounts[op.typeName()];
        ++checkedPerType[op.typeName()];
        ++checked;
      }
      QString line = QString::fromStdString(name) + ":";
      for (const auto& [type, count] : modelCounts) {
        line += QString(" %1 x%2").arg(QString::fromStdString(type)).arg(count);
      }
      qInfo().noquote() << line << QString("(%1 golden sets)").arg(sets.size());
    }
    QString total = QString("bit-exact on all four MAC configurations: %1 operators:").arg(checked);
    for (const auto& [type, count] : checkedPerType) {
      total += QString(" %1 x%2").arg(QString::fromStdString(type)).arg(count);
    }
    qInfo().noquote() << total << QString("(%1 runs)").arg(runs);
    QString skipped = "not NPU-eligible:";
    for (const auto& [type, count] : notEligible) {
      skipped += QString(" %1 x%2").arg(QString::fromStdString(type)).arg(count);
    }
    qInfo().noquote() << skipped;
    // Every type the shared models hold: convolutions, FC, average pool, ADD.
    for (const char* type :
         {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "AVERAGE_POOL_2D", "ADD"}) {
      QVERIFY2(checkedPerType[type] > 0, type);
    }
  }
};

QTEST_GUILESS_MAIN(NpuGoldenTensorsTest)
#include "golden_tensors_test.moc"
