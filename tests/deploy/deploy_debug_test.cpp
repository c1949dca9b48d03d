// The debug run (loupec debug, the GUI's Debug on board): a debug build of
// the model sends every tensor back as its operator writes it, and each is
// compared with TFLite Micro's per-tensor dump of a golden set or with the
// reference interpreter. deploy_debug (the default run): every golden set
// with a dump on the native host; a recurrent model (SVDF state) and a
// corrupted weight byte found at its operator on the host, the Cortex-M3 and
// the Cortex-M55. deploy_debug_on_boards (label boards): every golden set on
// the M3 and the M55, and the two smallest models on the micro:bit (16 KB of
// RAM: the tensors leave the board straight from the workspace).
#include <QtTest>

#include <algorithm>

#include "builtin_registries.h"
#include "control_flow_models.h"
#include "deploy/board_tensor_check.h"
#include "deploy/reference_check.h"
#include "deploy/run_on_board.h"
#include "frontend/tflite_importer.h"
#include "golden_sets.h"
#include "hybrid_lstm_model.h"
#include "hybrid_svdf_model.h"
#include "test_data.h"

using namespace loupe;

namespace {

std::vector<std::uint8_t> readFile(const std::filesystem::path& path) {
  QFile file(QString::fromStdString(path.string()));
  if (!file.open(QIODevice::ReadOnly)) qFatal("cannot read %s", path.string().c_str());
  const QByteArray bytes = file.readAll();
  return {bytes.begin(), bytes.end()};
}

struct DebugRun {
  deploy::BoardRunResult run;
  deploy::DebugComparison comparison;
};

// Runs a debug build of `model` on `platform` and compares its tensors with
// `expected` (the reference interpreter's when empty).
DebugRun debugRun(const std::string& platform, const ir::Graph& model,
                  const std::vector<std::vector<std::uint8_t>>& inputs,
                  std::optional<deploy::TensorBytes> expected, std::optional<int> corrupt = {},
                  bool overlapsAndPatches = false) {
  static const deploy::Registries registries = plugins::builtinRegistries();
  deploy::BoardRunRequest request;
  request.platform = registries.platforms.find(platform);
  request.compile.model = model;
  request.compile.targets = target::parseTargetString("c", registries.targets);
  request.compile.options.debugTensors = true;
  request.compile.fitToMemories = !overlapsAndPatches;
  request.compile.options.memory.overlapOutputs = overlapsAndPatches;
  request.compile.options.memory.patches = overlapsAndPatches;
  request.inputs = inputs;
  request.corruptOperator = corrupt;
  request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
  DebugRun result{deploy::runOnBoard(std::move(request)), {}};
  const bool golden = expected.has_value();
  if (!expected) expected = deploy::referenceTensors(model, inputs);
  result.comparison = deploy::compareBoardTensors(
      model, result.run.compilation.model, result.run.deviceTensors, inputs, *expected,
      result.run.profile, golden ? deploy::kMaxFloatUlps : deploy::kMaxReferenceUlps);
  return result;
}

QString firstDifference(const deploy::DebugComparison& c) {
  if (!c.firstDiffering) return "none";
  const auto& row = c.rows[*c.firstDiffering];
  for (const auto& a : row.outputs) {
    if (a.verdict == deploy::TensorVerdict::Differs) {
      return QString("operator %1 (%2 %3), tensor %4: %5")
          .arg(row.operatorIndex)
          .arg(QString::fromStdString(row.type), QString::fromStdString(row.name))
          .arg(a.tensor)
          .arg(QString::fromStdString(a.detail));
    }
  }
  return "?";
}

std::vector<std::string> debugPlatforms() {
#ifdef LOUPE_DEBUG_ON_BOARDS
  return {"qemu-mps2-an385", "qemu-mps3-an547"};
#else
  return {"host"};
#endif
}

}  // namespace

class DeployDebug : public QObject {
  Q_OBJECT

 private slots:
  void everyTensorEqualsTflmsDump_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<int>("set");
    const auto sets = test::goldenSets();
    for (const std::string& platform : debugPlatforms()) {
      for (std::size_t i = 0; i < sets.size(); ++i) {
        if (!sets[i].tensorDumps) continue;
        QTest::newRow((platform + " " + sets[i].name).c_str())
            << QString::fromStdString(platform) << static_cast<int>(i);
      }
    }
#ifdef LOUPE_DEBUG_ON_BOARDS
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (!sets[i].tensorDumps) continue;
      if (sets[i].name.starts_with("hello_world") || sets[i].name.starts_with("micro_speech")) {
        QTest::newRow(("qemu-microbit " + sets[i].name).c_str())
            << QString("qemu-microbit") << static_cast<int>(i);
      }
    }
#endif
  }

  void everyTensorEqualsTflmsDump() {
    QFETCH(QString, platform);
    QFETCH(int, set);
    const test::GoldenSet golden = test::goldenSets().at(static_cast<std::size_t>(set));
    const ir::Graph model = frontend::importTfliteFile(golden.model.string());
    std::vector<std::vector<std::uint8_t>> inputs;
    for (const auto& input : golden.inputs) inputs.push_back(readFile(input));
    const deploy::TensorBytes dump = deploy::goldenTensors(model, *golden.tensorDumps);
    const DebugRun debug = debugRun(platform.toStdString(), model, inputs, dump);
    const deploy::DebugComparison& c = debug.comparison;
    QVERIFY2(!c.anyDiffers(), qPrintable(firstDifference(c)));
    // Compiled for the CPU alone, the board holds every tensor of the dump
    // whole at some point and sends it: none is missing, none unmatched.
    QVERIFY2(c.notOnBoard.empty(), c.notOnBoard.empty() ? "" : c.notOnBoard.front().detail.c_str());
    std::size_t compared = 0;
    for (const auto& row : c.rows) {
      for (const auto& a : row.outputs) {
        QVERIFY(a.verdict == deploy::TensorVerdict::Exact ||
                a.verdict == deploy::TensorVerdict::Within);
        ++compared;
      }
    }
    std::size_t dumped = 0;
    for (const auto& [tensor, bytes] : dump) {
      dumped += std::find(model.inputs.begin(), model.inputs.end(), tensor) == model.inputs.end();
    }
    QCOMPARE(compared, dumped);
    // Every operator that ran has its time, and sending was not charged to it.
    for (const auto& row : c.rows) {
      if (row.time) QVERIFY(*row.time > 0);
    }
    QVERIFY(c.total > 0);
  }

  void theCorruptedOperatorIsTheFirstDifference_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("op");
    QTest::addColumn<QString>("type");
    for (const char* platform : {"host", "qemu-mps2-an385", "qemu-mps3-an547"}) {
      for (const auto& [op, type] : std::vector<std::pair<int, const char*>>{
               {0, "CONV_2D"}, {1, "DEPTHWISE_CONV_2D"}, {11, "FULLY_CONNECTED"}}) {
        QTest::newRow((std::string(platform) + " kws " + type).c_str())
            << platform << "kws_ref_model" << op << type;
      }
      QTest::newRow((std::string(platform) + " svdf SVDF").c_str())
          << platform << "svdf" << 0 << "SVDF";
    }
  }

  void theCorruptedOperatorIsTheFirstDifference() {
    QFETCH(QString, platform);
    QFETCH(QString, model);
    QFETCH(int, op);
    QFETCH(QString, type);
    ir::Graph graph;
    std::vector<std::vector<std::uint8_t>> inputs;
    if (model == "svdf") {
      using namespace test::hybrid_svdf;
      graph = svdfModel(1, kFeatureRank1, kTimeRank1, false);
      inputs = {test::bytesOf(std::vector<float>(kSvdfInput.begin(), kSvdfInput.begin() + 6))};
    } else {
      graph = frontend::importTfliteFile(
          (test::modelsDir() / model.toStdString() / "model.tflite").string());
      inputs = {
          readFile(test::modelsDir() / model.toStdString() / "golden" / "real1" / "input0.bin")};
    }
    QCOMPARE(QString::fromStdString(graph.operators.at(static_cast<std::size_t>(op)).typeName()),
             type);
    const DebugRun clean = debugRun(platform.toStdString(), graph, inputs, {});
    QVERIFY2(!clean.comparison.anyDiffers(), qPrintable(firstDifference(clean.comparison)));
    const DebugRun faulty = debugRun(platform.toStdString(), graph, inputs, {}, op);
    QVERIFY(faulty.run.fault.has_value());
    const deploy::DebugComparison& c = faulty.comparison;
    QVERIFY2(c.firstDiffering.has_value(), "the corrupted weight changed no tensor");
    const auto& first = c.rows[*c.firstDiffering];
    QVERIFY2(std::find(first.modelOperators.begin(), first.modelOperators.end(), op) !=
                 first.modelOperators.end(),
             qPrintable(firstDifference(c)));
    // Its inputs are still right: the fault is in the operator itself.
    for (const auto& input : c.firstDifferingInputs) {
      QVERIFY(input.verdict == deploy::TensorVerdict::Exact ||
              input.verdict == deploy::TensorVerdict::Within);
    }
  }

  void overlappedOutputsAndPatchesKeepEveryTensorThatExists() {
    // vww with outputs over their dying inputs and its first operators run
    // strip by strip: every tensor the board holds whole agrees with TFLite
    // Micro's dump; those of the patch stage exist only a strip at a time
    // and are named as such.
    const test::GoldenSet golden = [] {
      for (const auto& set : test::goldenSets()) {
        if (set.name == "vww_96_int8/real1") return set;
      }
      return test::GoldenSet{};
    }();
    QVERIFY(golden.tensorDumps);
    const ir::Graph model = frontend::importTfliteFile(golden.model.string());
    const std::vector<std::vector<std::uint8_t>> inputs = {readFile(golden.inputs.front())};
    const DebugRun debug = debugRun("host", model, inputs,
                                    deploy::goldenTensors(model, *golden.tensorDumps), {}, true);
    QVERIFY(debug.run.compilation.model.patches.has_value());
    QVERIFY2(!debug.comparison.anyDiffers(), qPrintable(firstDifference(debug.comparison)));
    QVERIFY(!debug.comparison.notOnBoard.empty());
    for (const auto& a : debug.comparison.notOnBoard) {
      QVERIFY2(a.detail.starts_with("computed strip by strip in the patch stage"),
               a.detail.c_str());
    }
    QVERIFY(debug.comparison.rows.size() > 20);
  }

  void controlFlowOutputsComeBack() {
    using namespace test::control_flow;
    const std::vector<float> acc = {1, 2, 3, 4, -1, -2, -3, -4};
    const DebugRun debug =
        debugRun("host", countingLoopModel(),
                 {test::bytesOf(std::vector<std::int32_t>{0}), test::bytesOf(acc)}, {});
    QVERIFY2(!debug.comparison.anyDiffers(), qPrintable(firstDifference(debug.comparison)));
    QVERIFY(!debug.comparison.rows.empty());
  }

  void stateAndItsUpdateComeBackFromTheBoard_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("svdf") << "svdf";
    QTest::newRow("lstm") << "lstm";
  }

  void stateAndItsUpdateComeBackFromTheBoard() {
    // SVDF's activation state and the LSTM's cell and output state are
    // updated in place: the board sends them after the update, and they
    // equal the reference interpreter's after its run.
    QFETCH(QString, model);
    ir::Graph graph;
    std::vector<std::uint8_t> input;
    if (model == "svdf") {
      using namespace test::hybrid_svdf;
      graph = svdfModel(2, kFeatureRank2, kTimeRank2, true);
      input = test::bytesOf(std::vector<float>(kSvdfInput.begin(), kSvdfInput.begin() + 6));
    } else {
      graph = test::hybrid_lstm::lstmModel(true);
      input = test::bytesOf(test::hybrid_lstm::kSequence);
    }
    const DebugRun debug = debugRun("host", graph, {input}, {});
    QVERIFY2(!debug.comparison.anyDiffers(), qPrintable(firstDifference(debug.comparison)));
    std::size_t states = 0, sent = 0;
    for (const ir::Tensor& tensor : graph.tensors) {
      if (!tensor.isVariable) continue;
      ++states;
      for (const auto& row : debug.comparison.rows) {
        for (const auto& a : row.outputs) sent += a.tensor == tensor.index;
      }
    }
    QVERIFY(states > 0);
    QCOMPARE(sent, states);
  }
};

QTEST_APPLESS_MAIN(DeployDebug)
#include "deploy_debug_test.moc"
