// Schedules (lowering/schedule.h) and tuning logs (tuning/tuning_log.h): the
// knobs each operator offers, every schedule giving the reference's bytes,
// the unroll factor reaching the TIR and the C, schedules that do not fit
// being refused, and logs read back, resumed and ranked as `loupec tune`
// writes them.
#include <QtTest>

#include <sstream>
#include <string>

#include "codegen_checks.h"
#include "frontend/tflite_importer.h"
#include "lowering/schedule.h"
#include "lowering/simd_lowering.h"
#include "simd_kernel_cases.h"
#include "test_data.h"
#include "test_group.h"
#include "tir/tir_printer.h"
#include "tuning/tuning_log.h"

namespace schedule_test {

using namespace loupe;

namespace {

// Every operator of `graph` gets `schedule` (as far as its knobs go).
lowering::ScheduleTable everyOperator(const ir::Graph& graph, target::CpuIsa isa,
                                      const lowering::Schedule& schedule) {
  lowering::ScheduleTable table;
  for (const ir::Operator& op : graph.operators) {
    const lowering::ScheduleSpace space = lowering::scheduleSpace(graph, op, isa);
    lowering::Schedule fitting;
    for (const lowering::Knob& knob : space.knobs) {
      if (auto it = schedule.find(knob.name); it != schedule.end()) fitting[knob.name] = it->second;
    }
    table[lowering::workloadKey(graph, op, isa)] = fitting;
  }
  return table;
}

std::string allSources(const codegen::CompiledModel& model) {
  std::string text;
  for (const auto& file : model.sources) text += file.text;
  return text;
}

tuning::TuningRecord record(const std::string& workload, const std::string& unroll,
                            std::optional<double> cost, const std::string& error = {}) {
  return {workload, "CONV_2D",      {{"kernel", "simd"}, {"unroll", unroll}},
          cost,     "instructions", "qemu-mps2-an386",
          "0.1.0",  error};
}

}  // namespace

class ScheduleTest : public QObject {
  Q_OBJECT

 private slots:
  void spacesOfferTheKernelWhereOneCoversTheOperator() {
    const ir::Graph graph = test::randomSimdKernelGraph(3, 8);
    for (const ir::Operator& op : graph.operators) {
      const auto dsp = lowering::scheduleSpace(graph, op, target::CpuIsa::Dsp);
      const auto scalar = lowering::scheduleSpace(graph, op, target::CpuIsa::Scalar);
      // The DSP extension has kernels for CONV_2D, FULLY_CONNECTED and
      // DEPTHWISE_CONV_2D (with depth multiplier 1).
      const bool kernel = lowering::hasSimdKernel(graph, op, target::CpuIsa::Dsp);
      QVERIFY(kernel == (op.type == ir::OpType::Conv2D || op.type == ir::OpType::FullyConnected ||
                         (op.type == ir::OpType::DepthwiseConv2D &&
                          std::get<ir::DepthwiseConv2DAttrs>(op.attributes).depthMultiplier == 1)));
      // kernel (2) x unroll (4), and a 3x3 depthwise's window kernel (2).
      const bool window3x3 = kernel && op.type == ir::OpType::DepthwiseConv2D &&
                             graph.input(op, 1)->shape[1] == 3 && graph.input(op, 1)->shape[2] == 3;
      QCOMPARE(dsp.candidates().size(), std::size_t{kernel ? (window3x3 ? 16u : 8u) : 4u});
      QCOMPARE(scalar.candidates().size(), std::size_t{4});
      // The tuner's first round: the default, then each knob's other choices alone.
      QCOMPARE(dsp.oneKnobAtATime().size(), std::size_t{kernel ? (window3x3 ? 6u : 5u) : 4u});
      QCOMPARE(dsp.oneKnobAtATime().front(), dsp.defaults());
      for (const lowering::Schedule& schedule : dsp.oneKnobAtATime()) {
        int changed = 0;
        for (const auto& [knob, choice] : schedule) changed += choice != dsp.defaults().at(knob);
        QVERIFY(changed <= 1);
      }
      // The default comes first, and is the kernel with the compiler's own unrolling.
      QCOMPARE(dsp.candidates().front(), dsp.defaults());
      QCOMPARE(dsp.defaults().at("unroll"), std::string("1"));
      if (kernel) QCOMPARE(dsp.defaults().at("kernel"), std::string("simd"));
      QVERIFY(lowering::workloadKey(graph, op, target::CpuIsa::Dsp) !=
              lowering::workloadKey(graph, op, target::CpuIsa::Mve));
    }
  }

  void everyScheduleGivesTheReferenceBytes_data() {
    QTest::addColumn<int>("isa");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QString>("unroll");
    for (auto isa : {target::CpuIsa::Thumb, target::CpuIsa::Dsp, target::CpuIsa::Mve}) {
      const QString name = QString::fromStdString(std::string(target::cpuIsaName(isa)));
      QTest::newRow(qPrintable(name + " loops unroll 2"))
          << static_cast<int>(isa) << QString("loops") << QString("2");
      QTest::newRow(qPrintable(name + " kernel unroll 8"))
          << static_cast<int>(isa) << QString("simd") << QString("8");
    }
  }

  void everyScheduleGivesTheReferenceBytes() {
    QFETCH(int, isa);
    QFETCH(QString, kernel);
    QFETCH(QString, unroll);
    const ir::Graph graph = test::randomSimdKernelGraph(5, 10);
    codegen::CompileOptions options;
    options.isa = static_cast<target::CpuIsa>(isa);
    options.schedules = everyOperator(
        graph, options.isa, {{"kernel", kernel.toStdString()}, {"unroll", unroll.toStdString()}});
    try {
      const auto inputs = test::randomInputs(graph, 4);
      const auto expected = test::runReference(graph, inputs);
      const auto actual = test::runGeneratedC(graph, inputs, options);
      QCOMPARE(actual.size(), expected.size());
      for (std::size_t i = 0; i < actual.size(); ++i) {
        const std::string difference = test::firstDifference(actual[i], expected[i]);
        QVERIFY2(
            difference.empty(),
            qPrintable(QString("operator %1: %2").arg(i).arg(QString::fromStdString(difference))));
      }
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // kws has every kernel variant a knob chooses: 1x1 stride-1 and 10x4
  // convolutions whose pixels MVE groups (the 1x1 ones four channels per
  // step), and 3x3 depthwise convolutions of
  // 64 channels (sixteen per MVE vector, pairs of windows on Thumb).
  void everyKernelVariantOfKwsGivesTheGoldenBytes_data() {
    QTest::addColumn<int>("isa");
    QTest::addColumn<QStringList>("knobs");
    QTest::newRow("thumb") << static_cast<int>(target::CpuIsa::Thumb) << QStringList{"window"};
    QTest::newRow("dsp") << static_cast<int>(target::CpuIsa::Dsp) << QStringList{"window"};
    QTest::newRow("mve") << static_cast<int>(target::CpuIsa::Mve)
                         << QStringList{"channels", "pixels", "window"};
  }

  void everyKernelVariantOfKwsGivesTheGoldenBytes() {
    QFETCH(int, isa);
    QFETCH(QStringList, knobs);
    const auto modelDir = test::modelsDir() / "kws_ref_model";
    const ir::Graph graph = frontend::importTfliteFile(modelDir / "model.tflite");
    const auto input = test::readBytes(modelDir / "golden" / "seed1" / "input0.bin");
    const auto expected = test::readBytes(modelDir / "golden" / "seed1" / "output0.bin");
    codegen::CompileOptions options;
    options.isa = static_cast<target::CpuIsa>(isa);
    // Every choice of the kernel knobs other than the default, one at a
    // time, each given to every operator that has the knob.
    std::map<std::string, std::vector<std::string>> offered;
    for (const ir::Operator& op : graph.operators) {
      for (const lowering::Knob& knob : lowering::scheduleSpace(graph, op, options.isa).knobs) {
        if (knobs.contains(QString::fromStdString(knob.name))) offered[knob.name] = knob.choices;
      }
    }
    QCOMPARE(static_cast<int>(offered.size()), knobs.size());
    for (const auto& [knob, choices] : offered) {
      QVERIFY2(choices.size() >= 2, knob.c_str());
      for (std::size_t c = 1; c < choices.size(); ++c) {
        options.schedules = everyOperator(graph, options.isa, {{knob, choices[c]}});
        const std::string label = knob + "=" + choices[c];
        try {
          const auto sources = allSources(codegen::compileToC(graph, options));
          // The variant reached the C: the grouped or sixteen-lane or paired
          // kernel is gone, or (window=any) every 3x3 kernel is.
          if (knob == "pixels") QVERIFY(sources.find("conv_pixels_s8") == std::string::npos);
          if (knob == "channels") QVERIFY(sources.find("conv_pixels_4ch") == std::string::npos);
          if (choices[c] == "3x3") QVERIFY(sources.find("dw_3x3_s8") != std::string::npos);
          if (choices[c] == "any") QVERIFY(sources.find("dw_3x3") == std::string::npos);
          const auto actual = test::runGeneratedC(graph, {input}, options);
          QVERIFY2(actual.size() == 1 && actual[0] == expected, label.c_str());
        } catch (const std::exception& e) {
          QFAIL((label + ": " + e.what()).c_str());
        }
      }
    }
    // The defaults call the widest kernels.
    options.schedules.clear();
    const auto defaults = allSources(codegen::compileToC(graph, options));
    if (options.isa == target::CpuIsa::Mve) {
      QVERIFY(defaults.find("loupe_conv_pixels_s8_mve") != std::string::npos);
      QVERIFY(defaults.find("loupe_conv_pixels_4ch_s8_mve") != std::string::npos);
      QVERIFY(defaults.find("loupe_dw_3x3_x16_s8_mve") != std::string::npos);
    }
    if (options.isa == target::CpuIsa::Thumb) {
      QVERIFY(defaults.find("loupe_dw_3x3_x2_s8_thumb") != std::string::npos);
    }
  }

  void theScheduleShowsInTheTirAndTheC() {
    const ir::Graph graph = test::randomSimdKernelGraph(5, 4);
    codegen::CompileOptions options;
    options.isa = target::CpuIsa::Dsp;
    const auto untuned = codegen::compileToC(graph, options);
    QVERIFY(allSources(untuned).find("#pragma GCC unroll") == std::string::npos);
    QVERIFY(allSources(untuned).find("loupe_conv_pixel_s8_dsp") != std::string::npos);

    options.schedules = everyOperator(graph, options.isa, {{"kernel", "loops"}, {"unroll", "4"}});
    const auto tuned = codegen::compileToC(graph, options);
    QVERIFY(allSources(tuned).find("#pragma GCC unroll 4") != std::string::npos);
    // kernel=loops: no operator calls the DSP kernel any more.
    QVERIFY(allSources(tuned).find("loupe_conv_pixel_s8_dsp") == std::string::npos);
    for (const auto& function : tuned.functions) {
      const std::string tir = tir::printPrimFunc(function);
      QVERIFY2(tir.find("\"pragma_unroll\": 4") != std::string::npos, tir.c_str());
      QVERIFY(function.attrs.at("schedule").find("unroll=4") != std::string::npos);
    }
  }

  void aScheduleThatDoesNotFitIsRefused() {
    const ir::Graph graph = test::randomSimdKernelGraph(5, 2);
    const ir::Operator& op = graph.operators.front();
    for (const lowering::Schedule& bad :
         {lowering::Schedule{{"unroll", "3"}}, lowering::Schedule{{"tile", "2"}}}) {
      codegen::CompileOptions options;
      options.isa = target::CpuIsa::Dsp;
      options.schedules[lowering::workloadKey(graph, op, options.isa)] = bad;
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, codegen::compileToC(graph, options));
    }
  }

  void aLogIsReadBackAndRanked() {
    const std::vector<tuning::TuningRecord> written = {
        record("A", "1", 100),  record("A", "2", 90),  record("A", "4", {}, "build failed"),
        record("B", "1", 50),   record("B", "8", 50),  record("A", "8", 95),
        record("C", "1", 1000), record("C", "8", 985), record("C", "4", 968)};
    std::stringstream log;
    for (const auto& r : written) log << tuning::tuningRecordLine(r) << "\n";
    const auto read = tuning::readTuningLog(log, "log");
    QCOMPARE(read.size(), written.size());
    QCOMPARE(read[2].error, std::string("build failed"));
    QVERIFY(!read[2].cost);
    QCOMPARE(read[1].knobs, written[1].knobs);
    QCOMPARE(*read[5].cost, 95.0);

    const auto table = tuning::bestSchedules(read);
    QCOMPARE(table.size(), std::size_t{3});
    QCOMPARE(table.at("A").at("unroll"), std::string("2"));  // least cost; the failed never wins
    QCOMPARE(table.at("B").at("unroll"), std::string("1"));  // a tie keeps the first
    // Within 2% of the least is a tie too: 985 ties 968, 1000 does not.
    QCOMPARE(table.at("C").at("unroll"), std::string("8"));
  }

  void anInterruptedLogLosesOnlyItsLastPartialLine() {
    std::stringstream cut;
    cut << tuning::tuningRecordLine(record("A", "1", 100)) << "\n"
        << tuning::tuningRecordLine(record("A", "2", 90)).substr(0, 30);
    QCOMPARE(tuning::readTuningLog(cut, "log").size(), std::size_t{1});

    std::stringstream broken;
    broken << tuning::tuningRecordLine(record("A", "1", 100)) << "\n{\"workload\": 3}\n"
           << tuning::tuningRecordLine(record("A", "2", 90)) << "\n";
    try {
      tuning::readTuningLog(broken, "my.log");
      QFAIL("a bad line in the middle was accepted");
    } catch (const tuning::TuningLogError& error) {
      QVERIFY2(std::string(error.what()).find("my.log:2") != std::string::npos, error.what());
    }
  }
};

LOUPE_TEST_GUILESS_MAIN(ScheduleTest)

}  // namespace schedule_test

#include "schedule_test.moc"
