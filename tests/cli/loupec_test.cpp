// loupec as a user runs it: exit codes, what it prints, the files it writes.
#include <QtTest>

#include <QDirIterator>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "control_flow_models.h"
#include "ir/graph_printer.h"
#include "loupe/ethosu/ethosu_execute.h"
#include "loupe/ethosu/ethosu_payload.h"
#include "loupe_version.h"
#include "loupec_process.h"
#include "test_data.h"

namespace {

struct Result {
  int exitCode;
  QByteArray out;
  QString err;
};

Result loupec(const QStringList& arguments, int timeoutMs = 60000) {
  const loupe::test::LoupecRun run = loupe::test::runLoupec(arguments, timeoutMs);
  return {run.exitCode, run.out, QString::fromUtf8(run.err)};
}

QString model(const char* name) {
  return QString::fromStdString((loupe::test::modelsDir() / name / "model.tflite").string());
}

QString golden(const char* name, const char* set, const char* file) {
  return QString::fromStdString((loupe::test::modelsDir() / name / "golden" / set / file).string());
}

bool writeAll(const QString& path, const std::vector<std::uint8_t>& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) &&
         file.write(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<qint64>(bytes.size())) == static_cast<qint64>(bytes.size());
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

}  // namespace

class Loupec : public QObject {
  Q_OBJECT

 private slots:
  void infoListsKwsOperatorsWithMacs() {
    const auto result = loupec({"info", model("kws_ref_model"), "--json"});
    QCOMPARE(result.exitCode, 0);
    const auto report = nlohmann::json::parse(result.out.toStdString());
    for (const char* key : {"operators", "inputs", "outputs"}) QVERIFY(report[key].is_array());
    QCOMPARE(report["operators"].size(), std::size_t{13});
    std::int64_t sum = 0;
    for (const auto& op : report["operators"]) {
      QVERIFY(op.contains("macs"));
      sum += op["macs"].get<std::int64_t>();
    }
    QCOMPARE(report["totals"]["macs"].get<std::int64_t>(), sum);
    QCOMPARE(report["operators"][0]["type"].get<std::string>(), std::string("CONV_2D"));
    QCOMPARE(report["operators"][0]["macs"].get<std::int64_t>(), std::int64_t{320000});
    const auto& input = report["inputs"][0];
    QCOMPARE(input["name"].get<std::string>(), std::string("input_1"));
    QCOMPARE(input["dtype"].get<std::string>(), std::string("int8"));
    QCOMPARE(input["shape"].get<std::vector<int>>(), (std::vector<int>{1, 49, 10, 1}));
    QCOMPARE(input["quantization"]["zero_point"].get<int>(), 83);
    QCOMPARE(input["quantization"]["scale"].get<double>(), 0.584702909);
  }

  void infoTextNamesEveryOperator() {
    const auto result = loupec({"info", model("kws_ref_model")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY(result.out.contains("operators (13, execution order)"));
    QVERIFY(result.out.contains("AVERAGE_POOL_2D"));
    QVERIFY(result.out.contains("MACs"));
  }

  void infoShowsACustomOperatorAsUnsupported() {
    // The Vela model with its custom code renamed (same length, so the
    // flatbuffer stays valid): a custom operator Loupe knows nothing of.
    QFile vela(QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "person_detect_vela.tflite").string()));
    QVERIFY(vela.open(QIODevice::ReadOnly));
    const QByteArray bytes = vela.readAll().replace("ethos-u", "ethos-x");
    QTemporaryDir dir;
    const QString path = dir.filePath("custom.tflite");
    QFile custom(path);
    QVERIFY(custom.open(QIODevice::WriteOnly) && custom.write(bytes) == bytes.size());
    custom.close();
    const auto result = loupec({"info", path, "--json"});
    QCOMPARE(result.exitCode, 0);
    const auto report = nlohmann::json::parse(result.out.toStdString());
    QCOMPARE(report["operators"][0]["type"].get<std::string>(), std::string("CUSTOM(ethos-x)"));
    QCOMPARE(report["operators"][0]["supported"].get<bool>(), false);
    QVERIFY(!report["operators"][0]["reasons"].empty());
  }

  void infoJsonGivesEveryOperatorATargetAndReasons() {
    const auto result =
        loupec({"info", model("kws_ref_model"), "--json", "--target", "ethos-u, c"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto report = nlohmann::json::parse(result.out.toStdString());
    QCOMPARE(report["target"].get<std::string>(),
             std::string("ethos-u -accelerator_config=ethos-u55-128, c"));
    for (const auto& op : report["operators"]) {
      QVERIFY(op.contains("target") && op.contains("reasons"));
      const std::string type = op["type"].get<std::string>();
      const std::string target = op["target"].get<std::string>();
      if (type == "CONV_2D" || type == "DEPTHWISE_CONV_2D") {
        QCOMPARE(target, std::string("ethos-u"));
        QVERIFY(op["region"].is_string());
      }
      if (target == "c") {
        // Every operator the Ethos-U refuses says why, prefixed by the target.
        QVERIFY(!op["reasons"].empty());
        for (const auto& reason : op["reasons"]) {
          QVERIFY(reason.get<std::string>().rfind("ethos-u: ", 0) == 0);
        }
      }
    }
    const auto& softmax = report["operators"].back();
    QCOMPARE(softmax["type"].get<std::string>(), std::string("SOFTMAX"));
    QCOMPARE(softmax["target"].get<std::string>(), std::string("ethos-u"));
    QVERIFY(softmax["reasons"].empty());
    // A float model's operators the Ethos-U refuses, each with its reason.
    const auto floats =
        loupec({"info", model("hello_world_float"), "--json", "--target", "ethos-u, c"});
    QVERIFY2(floats.exitCode == 0, qPrintable(floats.err));
    for (const auto& op : nlohmann::json::parse(floats.out.toStdString())["operators"]) {
      QCOMPARE(op["target"].get<std::string>(), std::string("c"));
      QVERIFY2(op["reasons"][0].get<std::string>().find("ethos-u: ") == 0 &&
                   op["reasons"][0].get<std::string>().find("is not an int8 tensor") !=
                       std::string::npos,
               op["reasons"].dump().c_str());
    }
    QVERIFY(report["device_mapping"]["regions"].is_array());
    QCOMPARE(report["device_mapping"]["regions"][0]["name"].get<std::string>(),
             std::string("ethos-u_0"));
  }

  void infoTextShowsTargetsAndTheirSummary() {
    const auto result = loupec({"info", model("kws_ref_model"), "--target",
                                "ethos-u -accelerator_config=ethos-u55-64, c"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(!result.out.contains("not on ethos-u"), result.out.constData());
    QVERIFY2(result.out.contains("targets (ethos-u -accelerator_config=ethos-u55-64, c): Ethos-U "
                                 "ethos-u55-64: 13 of 13 operators in 1 region; c: 0\n"),
             result.out.constData());
    const auto floats = loupec({"info", model("hello_world_float"), "--target",
                                "ethos-u -accelerator_config=ethos-u55-64, c"});
    QVERIFY2(floats.out.contains("not on ethos-u: input 'serving_default_dense_input:0' (float32 "
                                 "[1,1]) is not an int8 tensor quantised per tensor"),
             floats.out.constData());
    QVERIFY2(floats.out.contains("ethos-u55-64: 0 of 3 operators in 0 regions; c: 3\n"),
             floats.out.constData());
    // Without --target everything is on the CPU.
    const auto plain = loupec({"info", model("kws_ref_model")});
    QVERIFY2(plain.out.contains("targets (c): c: 13"), plain.out.constData());
  }

  void aWrongTargetIsAUsageError() {
    const QStringList verbArguments[] = {{"info"},
                                         {"compile", "-o", "unused.tar"},
                                         {"run", "--inputs", "in.bin", "--output-dir", "unused"}};
    for (QStringList arguments : verbArguments) {
      arguments << model("kws_ref_model") << "--target"
                << "ethos-u -accelerator_config=ethos-u55-100, c";
      const auto result = loupec(arguments);
      QCOMPARE(result.exitCode, 2);
      QVERIFY2(result.err.contains("--target: target 'ethos-u': -accelerator_config=ethos-u55-100 "
                                   "is not one of ethos-u55-32, ethos-u55-64, ethos-u55-128, "
                                   "ethos-u55-256, ethos-u65-256, ethos-u65-512"),
               qPrintable(result.err));
    }
  }

  void compilePrintsEachDeviceAndWithReportEveryOperatorsEstimate() {
    QTemporaryDir dir;
    const auto result =
        loupec({"compile", model("kws_ref_model"), "-o", dir.filePath("kws.tar"), "--target",
                "ethos-u -accelerator_config=ethos-u55-128, c", "--report"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QString out = QString::fromUtf8(result.out);
    QVERIFY2(out.contains("targets (ethos-u -accelerator_config=ethos-u55-128, c): Ethos-U "
                          "ethos-u55-128: 13 of 13 operators in 1 region; c: 0\n"),
             qPrintable(out));
    // The per-device totals are the ones metadata.json records.
    QProcess tar;
    tar.start("tar", {"-xOf", dir.filePath("kws.tar"), "metadata.json"});
    QVERIFY(tar.waitForFinished());
    const auto metadata = nlohmann::json::parse(tar.readAllStandardOutput().toStdString());
    const nlohmann::json& devices = metadata["modules"]["default"]["device_mapping"]["devices"];
    QCOMPARE(devices.size(), std::size_t{2});
    const auto group = [](std::int64_t value) {
      return QString::fromStdString(loupe::ir::groupDigits(value));
    };
    const QRegularExpression npuLine(
        "\\n  ethos-u +Ethos-U ethos-u55-128 +(\\d+) operator\\(s\\) +([\\d,]+) MACs  "
        "([\\d,]+) estimated cycles\\n");
    const auto npu = npuLine.match(out);
    QVERIFY2(npu.hasMatch(), qPrintable(out));
    QCOMPARE(npu.captured(1).toInt(), devices[0]["operators"].get<int>());
    QCOMPARE(npu.captured(2), group(devices[0]["macs"].get<std::int64_t>()));
    QCOMPARE(npu.captured(3), group(devices[0]["estimated_cycles"].get<std::int64_t>()));
    QVERIFY2(out.contains(QRegularExpression(
                 "\\n  host +CPU \\(C\\) +0 operator\\(s\\) .* no cycle model\\n")),
             qPrintable(out));
    // --report: one row per operator, its estimate or '-' on the CPU.
    const nlohmann::json& operators = metadata["modules"]["default"]["device_mapping"]["operators"];
    for (const nlohmann::json& op : operators) {
      const QString cycles = op["estimate"].is_null()
                                 ? QStringLiteral("-")
                                 : group(op["estimate"]["estimated_cycles"].get<std::int64_t>());
      const QRegularExpression row(
          QString("\\n +%1  %2 +%3 +[\\d,]+ +[-\\d,]+ +[-\\d,]+ +%4 ")
              .arg(op["index"].get<int>())
              .arg(
                  QRegularExpression::escape(QString::fromStdString(op["type"].get<std::string>())),
                  QString::fromStdString(op["device"].get<std::string>()), cycles));
      QVERIFY2(out.contains(row), qPrintable(row.pattern() + "\n" + out));
    }
    // And each configuration's column, whose total falls from the U55 with 32
    // MACs to the one with 256 (the two U65s last).
    const QRegularExpression totals(
        "\\n +total +([\\d,]+) +([\\d,]+) +([\\d,]+) +([\\d,]+) +([\\d,]+) +([\\d,]+)\\n");
    const auto total = totals.match(out);
    QVERIFY2(total.hasMatch(), qPrintable(out));
    QCOMPARE(total.captured(3), group(devices[0]["estimated_cycles"].get<std::int64_t>()));
    for (int c = 2; c <= 4; ++c) {
      QVERIFY(QString(total.captured(c)).remove(',').toLongLong() <
              QString(total.captured(c - 1)).remove(',').toLongLong());
    }
  }

  void velaOperatorShowsItsNpuOperations() {
    const auto path = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "person_detect_vela.tflite").string());
    const auto info = loupec({"info", path});
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains("Ethos-U command stream for ethos-u55-256: 8,168 bytes, "),
             info.out.constData());
    QVERIFY2(info.out.contains("support: every operator can run on the reference interpreter"),
             info.out.constData());
    // One line per NPU operation: kind, IFM -> OFM, kernel, weights, block.
    const QRegularExpression conv(
        "\\n +npu +2  CONV  96x48x2 -> 48x48x8  kernel 3x2 stride 2x1  weights [\\d,]+ B  "
        "block \\d+x\\d+x\\d+\\n");
    QVERIFY2(QString::fromUtf8(info.out).contains(conv), info.out.constData());

    const auto json = nlohmann::json::parse(loupec({"info", path, "--json"}).out.toStdString());
    const auto& ethosu = json["operators"][0]["ethos_u"];
    QCOMPARE(ethosu["accelerator"].get<std::string>(), std::string("ethos-u55-256"));
    QCOMPARE(ethosu["payload_bytes"].get<int>(), 8168);
    QVERIFY(json["operators"][0]["supported"].get<bool>());
    const auto& operations = ethosu["npu_operations"];
    QVERIFY(operations.size() > 10);
    QCOMPARE(operations[0]["kind"].get<std::string>(), std::string("DMA"));
    QCOMPARE(operations[2]["kind"].get<std::string>(), std::string("CONV"));
    QCOMPARE(operations[2]["ofm"], (nlohmann::json{48, 48, 8}));
    QCOMPARE(operations[2]["kernel"], (nlohmann::json{3, 2}));
    QVERIFY(operations[2]["weight_bytes"].get<int>() > 0);
    QVERIFY(json["operators"][0]["macs"].get<std::int64_t>() > 0);
  }

  void velaModelRunsOnTheReferenceInterpreter() {
    QTemporaryDir dir;
    const auto path = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite")
            .string());
    const auto result = loupec({"run", path, "--platform", "reference", "--inputs",
                                golden("kws_ref_model", "real2", "input0.bin"), "--output-dir",
                                dir.filePath("out"), "--dump-tensors", dir.filePath("tensors")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QByteArray expected = readAll(golden("kws_ref_model", "real2", "output0.bin"));
    QCOMPARE(readAll(dir.filePath("out/output0.bin")), expected);
    // The ethos-u operator's output among the dumped tensors.
    const auto index = nlohmann::json::parse(readAll(dir.filePath("tensors/index.json")));
    bool dumped = false;
    for (const auto& entry : index) {
      const QString file = dir.filePath("tensors/" + QString::fromStdString(entry["file"]));
      dumped = dumped || readAll(file) == expected;
    }
    QVERIFY(dumped);
  }

  void velaModelRunsOnHostInGeneratedC() {
    QTemporaryDir dir;
    const auto path = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite")
            .string());
    const auto result = loupec({"run", path, "--platform", "host", "--inputs",
                                golden("kws_ref_model", "real2", "input0.bin"), "--output-dir",
                                dir.filePath("out")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(readAll(dir.filePath("out/output0.bin")),
             readAll(golden("kws_ref_model", "real2", "output0.bin")));
    QVERIFY2(result.out.contains("bit-exact"), result.out.constData());
  }

  void npuStreamListsEveryCommandWord() {
    const auto path = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite")
            .string());
    const auto text = loupec({"npu-stream", path});
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY2(text.out.contains("OPTIMIZER_CONFIG ethos-u55-128"), text.out.constData());
    QVERIFY2(text.out.contains("\noperation 2: CONV  "), text.out.constData());
    // A cmd0 with its enumerated fields named, a cmd1 with its payload word.
    const QRegularExpression precision(
        "\\n +\\d+  0x[0-9a-f]{8} {13}NPU_SET_IFM_PRECISION  activation_type=SIGNED "
        "activation_precision=B8 activation_format=NHWC scale_mode=OPA_OPB_16 "
        "round_mode=(TFL|TRUNCATE|NATURAL)\\n");
    QVERIFY2(QString::fromUtf8(text.out).contains(precision), text.out.constData());
    const QRegularExpression base(
        "\\n +\\d+  0x[0-9a-f]{8} 0x[0-9a-f]{8}  NPU_SET_WEIGHT_BASE  addr_hi=0x0 addr=0x");
    QVERIFY2(QString::fromUtf8(text.out).contains(base), text.out.constData());
    QVERIFY2(text.out.contains("NPU_OP_STOP"), text.out.constData());
    // The DMA wait before the first CONV is listed among the CONV's register
    // writes, marked with its own operation number, under no heading.
    QVERIFY2(text.out.contains("NPU_OP_DMA_WAIT  k=0  (operation 1)\n"), text.out.constData());
    QVERIFY2(!text.out.contains("\noperation 1:"), text.out.constData());

    // Every word of the stream is listed once, in order, grouped under the
    // operation it sets up: a group starts right after the previous group's
    // NPU_OP_* command and ends with its operation's, any waits inside it.
    const auto json =
        nlohmann::json::parse(loupec({"npu-stream", path, "--json"}).out.toStdString());
    const auto& stream = json["operators"][0]["streams"][0];
    std::size_t next = 0;
    int groups = 0, waits = 0;
    for (const auto& op : stream["operations"]) {
      if (op.contains("listed_with")) {
        // A wait: its one word, inside the group of the operation it precedes.
        QVERIFY(op["commands"].empty());
        QCOMPARE(op["words"][1].get<std::size_t>(), op["words"][0].get<std::size_t>() + 1);
        QVERIFY(op["listed_with"].get<int>() > op["index"].get<int>());
        ++waits;
        continue;
      }
      QCOMPARE(op["words"][0].get<std::size_t>(), next);
      const auto& commands = op["commands"];
      QVERIFY(!commands.empty());
      for (std::size_t c = 0; c < commands.size(); ++c) {
        const auto name = commands[c]["command"].get<std::string>();
        QCOMPARE(commands[c]["offset"].get<std::size_t>(), next);
        next += commands[c]["words"].size();
        if (c + 1 < commands.size()) {
          // Before the last, only waits among the NPU_OP_* commands.
          QVERIFY2(!name.starts_with("NPU_OP_") || name.ends_with("_WAIT"), name.c_str());
        } else {
          QVERIFY2(name.starts_with("NPU_OP_") && !name.ends_with("_WAIT"), name.c_str());
        }
      }
      QCOMPARE(op["words"][1].get<std::size_t>(), next);
      ++groups;
    }
    QCOMPARE(next, stream["words"].get<std::size_t>());
    QVERIFY(groups > 10);
    QVERIFY(waits > 0);

    const auto none = loupec({"npu-stream", model("kws_ref_model")});
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains("has no Vela operator"), qPrintable(none.err));
  }

  void npuStreamRegionsSayWhatLiesWhere() {
    const auto path = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite")
            .string());
    const auto regions = loupec({"npu-stream", path, "--regions"});
    QVERIFY2(regions.exitCode == 0, qPrintable(regions.err));
    // The flash's streams, each with the operation that reads it, and the
    // scratch's feature maps with their lifetimes.
    QVERIFY2(regions.out.contains("region 0 (flash): 36,832 bytes"), regions.out.constData());
    const QRegularExpression weights(
        "\\n  \\[0x[0-9a-f]{6}, 0x[0-9a-f]{6}\\) +[0-9,]+ B  weights  npu 2 CONV\\n");
    QVERIFY2(QString::fromUtf8(regions.out).contains(weights), regions.out.constData());
    QVERIFY2(regions.out.contains("lookup table  npu 39 DMA"), regions.out.constData());
    QVERIFY2(regions.out.contains("region 1 (scratch)"), regions.out.constData());
    const auto both = loupec({"npu-stream", path, "--regions", "--json"});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("--regions prints text only"), qPrintable(both.err));
  }

  void npuStreamShowsSignedFieldsSigned() {
    // kws's int8 feature maps have zero points of -128, its clip boundaries
    // are int8's range: the listing shows them as numbers, not as the 16
    // bits they are written in.
    const auto path = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite")
            .string());
    const auto text = loupec({"npu-stream", path});
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY2(text.out.contains("NPU_SET_OFM_ZERO_POINT  zero_point=-128\n"), text.out.constData());
    QVERIFY2(text.out.contains("NPU_SET_IFM_ZERO_POINT  zero_point=-128\n"), text.out.constData());
    QVERIFY2(text.out.contains("NPU_SET_ACTIVATION_MIN  clip_boundary=-128\n"),
             text.out.constData());
    QVERIFY2(text.out.contains("NPU_SET_IFM_ZERO_POINT  zero_point=83\n"), text.out.constData());

    // In JSON too: every zero point within int8, every clip boundary within
    // int16 (an operation with a wider OFM clips wider), one negative zero
    // point at least (the model's -128).
    const auto json =
        nlohmann::json::parse(loupec({"npu-stream", path, "--json"}).out.toStdString());
    int negativeZeroPoints = 0, signedValues = 0;
    for (const auto& op : json["operators"][0]["streams"][0]["operations"]) {
      for (const auto& command : op["commands"]) {
        for (const auto& field : command["fields"]) {
          const auto name = field["name"].get<std::string>();
          if (name != "zero_point" && name != "clip_boundary") continue;
          const auto value = field["value"].get<std::int64_t>();
          const std::int64_t limit = name == "zero_point" ? 128 : 32768;
          QVERIFY2(value >= -limit && value < limit, command.dump().c_str());
          negativeZeroPoints += name == "zero_point" && value < 0 ? 1 : 0;
          ++signedValues;
        }
      }
    }
    QVERIFY(signedValues > 10);
    QVERIFY(negativeZeroPoints > 0);
  }

  void velaKernelTooWideForAnyWorkspaceIsRefusedAtImport() {
    // Found by cli_loupec_mutants: ad01's first CONV with a kernel 32,768
    // wide asks for 2.7 G workspace values (one OFM block of 128 channels
    // of 32,768 x 640 weights); run allocated 5 GB before its weights ran
    // out. The importer refuses it instead, saying why.
    QFile vela(QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "ad01_int8_vela.tflite").string()));
    QVERIFY(vela.open(QIODevice::ReadOnly));
    QByteArray bytes = vela.readAll();
    const qsizetype payload = bytes.indexOf("COP1");
    QVERIFY(payload > 4);
    std::uint32_t payloadSize = 0;
    std::memcpy(&payloadSize, bytes.constData() + payload - 4, 4);
    const std::uint8_t* stream = nullptr;
    std::uint32_t words = 0;
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.constData());
    QCOMPARE(
        loupe_ethosu_payload_parse(data + payload, payloadSize, nullptr, &stream, &words, nullptr),
        0);
    bool widened = false;
    for (std::uint32_t w = 0; w < words && !widened;) {
      const std::uint32_t word = loupe_le_u32(stream + 4 * w);
      const auto* info = loupe_ethosu_find_command(word);
      QVERIFY(info != nullptr);
      if (info->code == LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1) {
        const std::uint32_t wide = (word & 0xFFFFu) | (32767u << 16);
        std::memcpy(bytes.data() + (stream - data) + 4 * w, &wide, 4);
        widened = true;
      }
      w += info->words;
    }
    QVERIFY(widened);
    QTemporaryDir dir;
    const QString path = dir.filePath("wide.tflite");
    QFile wide(path);
    QVERIFY(wide.open(QIODevice::WriteOnly) && wide.write(bytes) == bytes.size());
    wide.close();
    const auto result = loupec({"info", path});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("operation 0 (CONV) needs 2684354560 workspace values") &&
                 result.err.contains(QString::number(LOUPE_ETHOSU_MAX_WORKSPACE_VALUES)),
             qPrintable(result.err));
  }

  void corruptModelFailsWithItsReason() {
    QTemporaryDir dir;
    const QString path = dir.filePath("corrupt.tflite");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a flatbuffer at all, just text");
    file.close();
    const auto result = loupec({"info", path});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("corrupt.tflite: not a TFLite model"), qPrintable(result.err));
  }

  void runWritesGoldenOutputsAndTensors() {
    QTemporaryDir dir;
    const auto result =
        loupec({"run", model("kws_ref_model"), "--platform", "reference", "--inputs",
                golden("kws_ref_model", "real2", "input0.bin"), "--output-dir", dir.filePath("out"),
                "--dump-tensors", dir.filePath("tensors")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(readAll(dir.filePath("out/output0.bin")),
             readAll(golden("kws_ref_model", "real2", "output0.bin")));
    // The model input is dumped as its own tensor, byte for byte.
    QCOMPARE(readAll(dir.filePath("tensors/t0.bin")),
             readAll(golden("kws_ref_model", "real2", "input0.bin")));
    QVERIFY(QFile::exists(dir.filePath("tensors/index.json")));
  }

  void runOnHostDumpsWhatTheBoardComputed() {
    // A debug build on the host sends every tensor back: each equals
    // TFLite Micro's dump of the same golden set.
    QTemporaryDir dir;
    QVERIFY(qputenv("XDG_CACHE_HOME", dir.filePath("cache").toUtf8()));
    const auto result = loupec({"run", model("kws_ref_model"), "--platform", "host", "--inputs",
                                golden("kws_ref_model", "real1", "input0.bin"), "--output-dir",
                                dir.filePath("out"), "--dump-tensors", dir.filePath("tensors")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("tensors: 14 written to"), result.out.constData());
    const auto index = nlohmann::json::parse(readAll(dir.filePath("tensors/index.json")));
    QCOMPARE(index.size(), std::size_t{14});
    for (const auto& entry : index) {
      const std::string file = entry["file"];
      QCOMPARE(entry["tensor_index"], entry["index"]);
      QCOMPARE(readAll(dir.filePath(QString::fromStdString("tensors/" + file))),
               readAll(golden("kws_ref_model", "real1", ("tensors/" + file).c_str())));
    }
  }

  void debugOnHostFindsTheCorruptedOperator() {
    QTemporaryDir dir;
    QVERIFY(qputenv("XDG_CACHE_HOME", dir.filePath("cache").toUtf8()));
    const QString set = golden("kws_ref_model", "real1", "");
    auto result = loupec({"debug", model("kws_ref_model"), "--platform", "host", "--golden", set});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err + result.out));
    QVERIFY2(result.out.contains("every tensor agrees: 13 compared with TFLite Micro's dump"),
             result.out.constData());
    QVERIFY2(QString::fromUtf8(result.out)
                 .contains(QRegularExpression("\\n2 #2 +CONV_2D +[0-9,]+ +[0-9.]+  "
                                              "1x25x5x64 +exact\\n")),
             result.out.constData());
    result = loupec({"debug", model("kws_ref_model"), "--platform", "host", "--golden", set,
                     "--corrupt-operator", "4"});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.out.contains("first difference: operator 4 CONV_2D (model operator #4): "
                                 "differs: "),
             result.out.constData());
    QVERIFY2(result.out.contains("fault: byte "), result.out.constData());
    // Wrong command lines.
    QCOMPARE(loupec({"debug", model("kws_ref_model"), "--golden", set}).exitCode, 2);
    result =
        loupec({"debug", model("kws_ref_model"), "--platform", "host", "--golden", dir.path()});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("no per-tensor dump there"), qPrintable(result.err));
    result = loupec({"debug", model("kws_ref_model"), "--platform", "host", "--golden", set,
                     "--corrupt-operator", "99"});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("the model has no operator 99 (it has 13)"),
             qPrintable(result.err));
  }

  void runOnHostMatchesGolden() {
    // The generated C, built natively and run as a child process over the RPC
    // session, gives the golden bytes; the second run reuses the cached build.
    QTemporaryDir dir;
    QVERIFY(qputenv("XDG_CACHE_HOME", dir.filePath("cache").toUtf8()));
    const QStringList args = {"run",          model("hello_world_int8"),
                              "--platform",   "host",
                              "--inputs",     golden("hello_world_int8", "seed2", "input0.bin"),
                              "--output-dir", dir.filePath("out")};
    auto result = loupec(args);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("[build] built "), qPrintable(result.out));
    QVERIFY2(result.out.contains("outputs agree with the reference interpreter (bit-exact)"),
             qPrintable(result.out));
    QCOMPARE(readAll(dir.filePath("out/output0.bin")),
             readAll(golden("hello_world_int8", "seed2", "output0.bin")));
    result = loupec(args);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("[build] reused the cached build"), qPrintable(result.out));
    qunsetenv("XDG_CACHE_HOME");
  }

  void tuneWritesALogThatCompileRunAndGenerateApply() {
    // hello_world_int8 (three FULLY_CONNECTED layers) tuned on the host, two
    // schedules per workload; then the log applied, and the usage errors.
    QTemporaryDir dir;
    const QString log = dir.filePath("tuning.json");
    auto result = loupec(
        {"tune", model("hello_world_int8"), "--platform", "host", "-o", log, "--trials", "2"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("| workload | calls | default | best |"), qPrintable(result.out));
    const QList<QByteArray> lines = readAll(log).trimmed().split('\n');
    QVERIFY2(lines.size() >= 2, readAll(log).constData());
    for (const QByteArray& line : lines) {
      const auto record = nlohmann::json::parse(line.toStdString());
      QCOMPARE(record.at("board").get<std::string>(), std::string("host"));
      QVERIFY(record.contains("cost") && record.at("knobs").contains("unroll"));
    }
    // A second tune resumes: nothing is measured twice.
    result = loupec(
        {"tune", model("hello_world_int8"), "--platform", "host", "-o", log, "--trials", "2"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("0 trial(s) run, 0 record(s) appended"), qPrintable(result.out));
    QCOMPARE(readAll(log).trimmed().split('\n').size(), lines.size());

    result = loupec({"compile", model("hello_world_int8"), "-o", dir.filePath("m.tar"),
                     "--tuning-log", log, "--target", "c -mcpu=generic"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("tuning log " + log.toUtf8() + ": "), qPrintable(result.out));
    result = loupec({"run", model("hello_world_int8"), "--platform", "host", "--inputs",
                     golden("hello_world_int8", "seed2", "input0.bin"), "--output-dir",
                     dir.filePath("out"), "--tuning-log", log});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains(" workloads tuned; 0 keep their default schedule"),
             qPrintable(result.out));
    QCOMPARE(readAll(dir.filePath("out/output0.bin")),
             readAll(golden("hello_world_int8", "seed2", "output0.bin")));

    QFile broken(dir.filePath("broken.json"));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"workload\": 1}\n" + lines.front() + "\n");
    broken.close();
    result = loupec({"compile", model("hello_world_int8"), "-o", dir.filePath("n.tar"),
                     "--tuning-log", broken.fileName()});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("broken.json:1: not a tuning record"), qPrintable(result.err));
    QCOMPARE(loupec({"tune", model("hello_world_int8"), "--platform", "host"}).exitCode, 2);
    QCOMPARE(loupec({"tune", model("hello_world_int8"), "--platform", "host", "-o", log, "--trials",
                     "0"})
                 .exitCode,
             2);
  }

  // Compiled for a board, the bundled tuning logs tune the workloads they
  // measured on that board, with no option; --tuning-log replaces them and
  // --no-tuning-log turns them off. LOUPE_TUNING_DIR points at a folder
  // made here from the bundled kws log (so the counts are this test's):
  // AVERAGE_POOL_2D and SOFTMAX (loop nests only, so an unroll factor shows
  // in the C as a pragma) tuned on the M55, a CONV_2D record with a choice
  // no knob offers (left out, not an error), and a cheaper AVERAGE_POOL_2D
  // measured on another board (ignored).
  void bundledTuningLogsApplyOnABoardUnlessReplacedOrTurnedOff() {
    QTemporaryDir dir;
    std::map<std::string, nlohmann::json> byOperator;  // the first record of each operator type
    std::set<std::string> workloads;
    QFile bundled(LOUPE_SOURCE_TUNING_DIR "/kws_ref_model.qemu-mps3-an547.jsonl");
    QVERIFY(bundled.open(QIODevice::ReadOnly));
    for (const QByteArray& line : bundled.readAll().trimmed().split('\n')) {
      const auto record = nlohmann::json::parse(line.toStdString());
      workloads.insert(record.at("workload").get<std::string>());
      byOperator.try_emplace(record.at("operator").get<std::string>(), record);
    }
    for (const char* op : {"AVERAGE_POOL_2D", "SOFTMAX", "CONV_2D"}) QVERIFY(byOperator.count(op));
    auto with = [&](const char* op, const char* unroll, double cost, const char* board) {
      nlohmann::json record = byOperator.at(op);
      record["knobs"] = {{"unroll", unroll}};
      record["cost"] = cost;
      record["board"] = board;
      return QByteArray::fromStdString(record.dump()) + "\n";
    };
    const QString logs = dir.filePath("logs");
    QVERIFY(QDir().mkpath(logs));
    QFile log(logs + "/kws_ref_model.qemu-mps3-an547.jsonl");
    QVERIFY(log.open(QIODevice::WriteOnly));
    log.write(with("AVERAGE_POOL_2D", "2", 100, "qemu-mps3-an547") +
              with("SOFTMAX", "8", 100, "qemu-mps3-an547") +
              with("CONV_2D", "3", 1, "qemu-mps3-an547") +
              with("AVERAGE_POOL_2D", "4", 1, "qemu-mps2-an386"));
    log.close();
    QVERIFY(qputenv("LOUPE_TUNING_DIR", logs.toUtf8()));

    // The generated sources of `generate --platform qemu-mps3-an547` with `extra`.
    int projects = 0;
    auto generate = [&](const QStringList& extra, Result& result) {
      const QString out = dir.filePath(QString("project%1").arg(projects++));
      result = loupec(QStringList{"generate", model("kws_ref_model"), "--platform",
                                  "qemu-mps3-an547", "--output", out} +
                      extra);
      QByteArray sources;
      QDirIterator files(out, {"*.c"}, QDir::Files, QDirIterator::Subdirectories);
      while (files.hasNext()) sources += readAll(files.next());
      return sources;
    };
    const QString total = QString::number(workloads.size());
    Result result;
    QByteArray sources = generate({}, result);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains(QString("bundled tuning logs (qemu-mps3-an547): 2 of %1 workloads "
                                         "tuned; %2 keep their default schedule")
                                     .arg(total)
                                     .arg(workloads.size() - 2)
                                     .toUtf8()),
             result.out.constData());
    QVERIFY(sources.contains("#pragma GCC unroll 2"));
    QVERIFY(sources.contains("#pragma GCC unroll 8"));
    QVERIFY(!sources.contains("#pragma GCC unroll 4"));  // the other board's record
    QVERIFY(!sources.contains("#pragma GCC unroll 3"));  // the stale one

    sources = generate({"--no-tuning-log"}, result);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(!result.out.contains("tuning log"), result.out.constData());
    QVERIFY(!sources.contains("#pragma GCC unroll"));

    const QString own = dir.filePath("own.json");
    QFile ownLog(own);
    QVERIFY(ownLog.open(QIODevice::WriteOnly));
    ownLog.write(with("SOFTMAX", "4", 100, "qemu-mps3-an547"));
    ownLog.close();
    sources = generate({"--tuning-log", own}, result);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains(
                 QString("tuning log %1: 1 of %2 workloads tuned").arg(own, total).toUtf8()),
             result.out.constData());
    QVERIFY2(!result.out.contains("bundled"), result.out.constData());
    QVERIFY(sources.contains("#pragma GCC unroll 4"));
    QVERIFY(!sources.contains("#pragma GCC unroll 2") && !sources.contains("#pragma GCC unroll 8"));

    // Both at once is a usage error; without a board, default schedules.
    generate({"--tuning-log", own, "--no-tuning-log"}, result);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("give one of them"), qPrintable(result.err));
    result = loupec({"compile", model("kws_ref_model"), "-o", dir.filePath("k.tar")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(!result.out.contains("tuning log"), result.out.constData());
    // A board none of the logs measured says so.
    result = loupec({"run", model("hello_world_int8"), "--platform", "host", "--inputs",
                     golden("hello_world_int8", "seed2", "input0.bin"), "--output-dir",
                     dir.filePath("out")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("bundled tuning logs (host): none measured on this board; "
                                 "default schedules"),
             result.out.constData());
    qunsetenv("LOUPE_TUNING_DIR");
  }

  void runRefusesWrongInputs() {
    QTemporaryDir dir;
    auto result =
        loupec({"run", model("hello_world_int8"), "--inputs", "--output-dir", dir.filePath("out")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--inputs needs at least one value"), qPrintable(result.err));

    // hello_world_int8 takes one byte; give it the 490-byte kws input.
    result = loupec({"run", model("hello_world_int8"), "--inputs",
                     golden("kws_ref_model", "seed1", "input0.bin"), "--output-dir",
                     dir.filePath("out")});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("490 bytes, but input 0"), qPrintable(result.err));
    QVERIFY2(result.err.contains("needs 1"), qPrintable(result.err));

    result = loupec({"run", model("hello_world_int8"), "--platform", "mars", "--inputs",
                     golden("hello_world_int8", "seed1", "input0.bin"), "--output-dir",
                     dir.filePath("out")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("unknown platform 'mars'"), qPrintable(result.err));
  }

  // validate prints how far the outputs are from the expected ones; the
  // reference interpreter reproduces TFLite's integer outputs exactly.
  void validateOnAGoldenSetOfAnIntegerModelIsExact() {
    const QString set = golden("kws_ref_model", "seed1", "");
    auto result = loupec({"validate", model("kws_ref_model"), "--golden", set});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(
        result.out.startsWith("validated " + model("kws_ref_model").toUtf8() +
                              " on reference against golden set seed1 (" + set.toUtf8() + ")\n"),
        result.out.constData());
    QVERIFY2(result.out.contains("int8[1,12] q(0.00390625, -128), on real values:\n"
                                 "  elements             12\n"
                                 "  differing elements   0\n"
                                 "  max absolute error   0\n"
                                 "  mean absolute error  0\n"
                                 "  RMSE                 0\n"
                                 "  L2 relative error    0\n"
                                 "  cosine similarity    1\n"),
             result.out.constData());

    result = loupec({"validate", model("kws_ref_model"), "--golden", set, "--json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto json = nlohmann::json::parse(result.out.toStdString());
    QCOMPARE(json["platform"].get<std::string>(), std::string("reference"));
    QCOMPARE(json["expected"]["source"].get<std::string>(), std::string("golden"));
    QCOMPARE(json["expected"]["set"].get<std::string>(), std::string("seed1"));
    const auto& output = json["outputs"][0];
    QCOMPARE(output["tensor"]["dtype"].get<std::string>(), std::string("int8"));
    QCOMPARE(output["metrics"]["elements"].get<int>(), 12);
    QCOMPARE(output["metrics"]["differing_elements"].get<int>(), 0);
    QCOMPARE(output["compared_on"].get<std::string>(), std::string("real values"));
    QCOMPARE(output["metrics"]["max_absolute_error"].get<double>(), 0.0);
    QCOMPARE(output["metrics"]["cosine_similarity"].get<double>(), 1.0);
  }

  void validateAFloatModelOnRawValues() {
    QTemporaryDir dir;
    auto result = loupec({"validate", model("hello_world_float"), "--golden",
                          golden("hello_world_float", "real2", ""), "--json", "--output-dir",
                          dir.filePath("out")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto output = nlohmann::json::parse(result.out.toStdString())["outputs"][0];
    QCOMPARE(output["compared_on"].get<std::string>(), std::string("raw values"));
    const auto& metrics = output["metrics"];
    QCOMPARE(metrics["elements"].get<int>(), 1);
    // float32 may differ from TFLite's in the last bits (the summation
    // order), no more: 0.863044 within a few ulp.
    QVERIFY2(metrics["max_absolute_error"].get<double>() < 1e-6, result.out.constData());
    QVERIFY(QFile::exists(dir.filePath("out/output0.bin")));

    // Without a golden set the reference is compared with itself, and says so.
    result = loupec({"validate", model("hello_world_float"), "--inputs",
                     golden("hello_world_float", "real2", "input0.bin")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("against the reference interpreter\nnote: the reference "
                                 "interpreter is compared with itself"),
             result.out.constData());
    QVERIFY2(result.out.contains("float32[1,1], on raw values:\n"), result.out.constData());
    QVERIFY2(result.out.contains("  max absolute error   0\n"), result.out.constData());
  }

  void validateComparesLayersWithTheFloatModel() {
    const QStringList args = {"validate", model("hello_world_int8"),
                              "--golden", golden("hello_world_int8", "real5", ""),
                              "--float",  model("hello_world_float")};
    auto result = loupec(args);
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("(3 of 3 operator outputs match by name), on real values:\n"),
             result.out.constData());
    QVERIFY2(result.out.contains("  StatefulPartitionedCall:0\n"), result.out.constData());

    result = loupec(args + QStringList{"--json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto layers = nlohmann::json::parse(result.out.toStdString())["float_model"]["layers"];
    QCOMPARE(layers.size(), std::size_t{3});
    QCOMPARE(layers[2]["type"].get<std::string>(), std::string("FULLY_CONNECTED"));
    QVERIFY(layers[2]["metrics"]["differing_elements"].is_null());
    QVERIFY(layers[2]["metrics"]["max_absolute_error"].get<double>() > 0);
  }

  void validateOnHostKeepsStdoutForTheJson() {
    // The host build's progress goes to stderr under --json.
    const auto result = loupec({"validate", model("hello_world_int8"), "--platform", "host",
                                "--golden", golden("hello_world_int8", "seed2", ""), "--json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.err.contains("[build] "), qPrintable(result.err));
    const auto json = nlohmann::json::parse(result.out.toStdString());
    QCOMPARE(json["platform"].get<std::string>(), std::string("host"));
    QCOMPARE(json["outputs"][0]["metrics"]["max_absolute_error"].get<double>(), 0.0);
    QCOMPARE(json["outputs"][0]["metrics"]["differing_elements"].get<int>(), 0);
  }

  void validateRefusesWhatItCannotCompare() {
    auto result = loupec({"validate", model("hello_world_int8")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("validate needs --golden DIR or --inputs"),
             qPrintable(result.err));

    const QString set = golden("hello_world_int8", "seed1", "");
    result = loupec({"validate", model("hello_world_int8"), "--golden", set, "--inputs",
                     golden("hello_world_int8", "seed1", "input0.bin")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--golden and --inputs exclude each other"),
             qPrintable(result.err));

    // kws_ref_model's set has a 490-byte input; hello_world_int8 takes one byte.
    result = loupec(
        {"validate", model("hello_world_int8"), "--golden", golden("kws_ref_model", "seed1", "")});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("does not fit the model: input0.bin has 490 bytes, input 0"),
             qPrintable(result.err));

    result = loupec({"validate", model("hello_world_int8"), "--golden", set + "/nowhere"});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("nowhere does not exist"), qPrintable(result.err));

    result = loupec({"validate", model("hello_world_int8"), "--golden", set, "--platform", "mars"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("unknown platform 'mars'"), qPrintable(result.err));
  }

  void memplanComparesEveryPlannerAsJson() {
    const auto result = loupec({"memplan", model("ic_resnet8_int8"), "--planner", "all", "--json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto json = nlohmann::json::parse(result.out.toStdString());
    QCOMPARE(json["plans"].size(), std::size_t{4});
    for (const auto& plan : json["plans"]) {
      for (const char* key : {"planner", "total_bytes", "lower_bound", "pools", "buffers"}) {
        QVERIFY2(plan.contains(key), key);
      }
      QVERIFY(plan["total_bytes"].get<std::int64_t>() >= plan["lower_bound"].get<std::int64_t>());
      QCOMPARE(plan["pools"][0]["name"].get<std::string>(), std::string("workspace"));
      int aliases = 0;
      for (const auto& b : plan["buffers"]) {
        for (const char* key :
             {"tensor", "size", "first_step", "last_step", "pool", "offset", "alias_of"}) {
          QVERIFY2(b.contains(key), key);
        }
        if (!b["alias_of"].is_null()) ++aliases;
      }
      QVERIFY(aliases > 0);  // ResNet-8's skip-connection ADDs write in place
    }
    QCOMPARE(json["plans"][3]["planner"].get<std::string>(), std::string("branch_and_bound"));
    QVERIFY(json["overlap_lower_bound"].get<std::int64_t>() <
            json["plans"][0]["lower_bound"].get<std::int64_t>());
    QVERIFY(!json["overlaps"].empty());
    for (const auto& overlap : json["overlaps"]) {
      QVERIFY(overlap["lag_bytes"].get<std::int64_t>() >= 0);
      QVERIFY(overlap["shared_bytes"].get<std::int64_t>() >= 0);
      QVERIFY(overlap["lead_bytes"].is_null() || overlap["lead_bytes"].get<std::int64_t>() >= 0);
    }
    // ResNet-8's first tensor feeds a skip connection: no patches.
    QVERIFY(json.contains("patch_lower_bound") && json["patch_lower_bound"].is_null());
  }

  // vww's bound with its first operators in strips, in words; with
  // --patches the planners plan the rewritten graph down to that bound.
  void memplanSaysTheBoundWithPatches() {
    auto result = loupec({"memplan", model("vww_96_int8")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("with patches (--patches): lower bound 19,360 bytes (0.35x") &&
                 result.out.contains("running #0 CONV_2D, #1 DEPTHWISE_CONV_2D, #2 CONV_2D, #3 "
                                     "DEPTHWISE_CONV_2D in 8 strips: 17,280 bytes while they run"),
             result.out.constData());
    result = loupec({"memplan", model("vww_96_int8"), "--overlap-outputs", "--patches", "--json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto json = nlohmann::json::parse(result.out.toStdString());
    QVERIFY(json["patches_applied"].get<bool>());
    QCOMPARE(json["patch_lower_bound"]["strips"].get<int>(), 8);
    const std::int64_t bound = json["patch_lower_bound"]["bytes"].get<std::int64_t>();
    QCOMPARE(json["plans"][0]["total_bytes"].get<std::int64_t>(), bound);
    // kws gains nothing from patches: the plan is the one without.
    result = loupec({"memplan", model("kws_ref_model"), "--patches", "--json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const auto kws = nlohmann::json::parse(result.out.toStdString());
    QVERIFY(!kws["patches_applied"].get<bool>());
    QCOMPARE(kws["plans"][0]["total_bytes"].get<std::int64_t>(), std::int64_t{16256});
  }

  void memplanTableAndPoolErrors() {
    auto result = loupec({"memplan", model("kws_ref_model")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("lower bound 16,256 bytes"), result.out.constData());
    QVERIFY2(result.out.contains("branch_and_bound"), result.out.constData());
    // The depthwise convolutions' accumulator rows are planned too.
    QVERIFY2(result.out.contains("(9 operator scratch)"), result.out.constData());
    // Beside it, the bound if outputs may start inside their dying inputs.
    QVERIFY2(result.out.contains("with overlapping outputs: lower bound 8,640 bytes (0.53x"),
             result.out.constData());
    result = loupec({"memplan", model("kws_ref_model"), "--overlaps"});
    QVERIFY2(result.out.contains("DEPTHWISE_CONV_2D: output starts 384 bytes before its input"),
             result.out.constData());

    result = loupec({"memplan", model("kws_ref_model"), "--pools", "sram:size=8K"});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("pool sram (8,192 bytes)"), qPrintable(result.err));
    QVERIFY2(result.err.contains("needs 16,256 bytes"), qPrintable(result.err));

    result = loupec({"memplan", model("kws_ref_model"), "--pools", "sram:size=lots"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--pools: pool \"sram\" size"), qPrintable(result.err));

    result = loupec({"memplan", model("kws_ref_model"), "--planner", "magic"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("unknown planner 'magic'"), qPrintable(result.err));
  }

  void compileWithPoolsThatDoNotFitSaysByHowMuch() {
    QTemporaryDir dir;
    const auto result = loupec({"compile", model("kws_ref_model"), "-o", dir.filePath("k.tar"),
                                "--pools", "dtcm:size=4K;sram:size=8K"});
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.contains("pools dtcm (4,096 bytes) + sram (8,192 bytes)"),
             qPrintable(result.err));
    QVERIFY2(result.err.contains("3,968 bytes short of what the pools hold"),
             qPrintable(result.err));
    QVERIFY(!QFile::exists(dir.filePath("k.tar")));
  }

  // --platform builds the board's firmware and says what its flash holds:
  // kws's weights are the model constants (at least its 24,376 parameter
  // bytes), the rest adds up to the image.
  void compileForABoardMeasuresItsFlash() {
    QTemporaryDir dir;
    auto result = loupec({"compile", model("kws_ref_model"), "-o", dir.filePath("k.tar"),
                          "--platform", "qemu-mps2-an385"},
                         300000);
    QCOMPARE(result.exitCode, 0);
    const QString out = QString::fromUtf8(result.out);
    static const QRegularExpression line(
        "flash on qemu-mps2-an385: CODE_SRAM: ([0-9,]+) of ([0-9,]+) bytes loaded \\(model code "
        "([0-9,]+) · model constants ([0-9,]+) · runtime ([0-9,]+) · board support ([0-9,]+) · "
        "C library ([0-9,]+) · padding ([0-9,]+)\\)");
    const QRegularExpressionMatch match = line.match(out);
    QVERIFY2(match.hasMatch(), qPrintable(out));
    auto number = [&](int i) { return match.captured(i).remove(',').toLongLong(); };
    QVERIFY(number(4) >= 24376);
    QVERIFY(number(3) > 1000);
    qint64 parts = 0;
    for (int i = 3; i <= 8; ++i) parts += number(i);
    QCOMPARE(parts, number(1));
    QVERIFY(number(1) < number(2));
    QVERIFY(QFile::exists(dir.filePath("k.tar")));
    // The host builds no board image: a usage error before compiling.
    result = loupec(
        {"compile", model("kws_ref_model"), "-o", dir.filePath("h.tar"), "--platform", "host"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("host builds no board image"), qPrintable(result.err));
    QVERIFY(!QFile::exists(dir.filePath("h.tar")));
  }

  void unknownCommandAndHelp() {
    QCOMPARE(loupec({"frobnicate"}).exitCode, 2);
    const auto help = loupec({"--help"});
    QCOMPARE(help.exitCode, 0);
    // Every verb main() dispatches is documented.
    for (const char* usage :
         {"loupec info MODEL", "loupec compile MODEL", "loupec run MODEL", "loupec validate MODEL",
          "loupec memplan MODEL", "loupec diff A B", "loupec generate MODEL", "loupec tune MODEL",
          "loupec platforms", "loupec --version"}) {
      QVERIFY2(help.out.contains(usage), usage);
    }
    const auto version = loupec({"--version"});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out, QStringLiteral("loupec " LOUPE_VERSION "\n"));
  }

  // The man page is written by hand: every command --help lists must be in it.
  void theManPageHasEveryCommandOfHelp() {
    QFile page(LOUPEC_MAN_PAGE);
    QVERIFY(page.open(QIODevice::ReadOnly | QIODevice::Text));
    const QString man = QString::fromUtf8(page.readAll());
    static const QRegularExpression command(QStringLiteral("^  loupec ([a-z]+)"),
                                            QRegularExpression::MultilineOption);
    int commands = 0;
    for (const auto& match : command.globalMatch(loupec({"--help"}).out)) {
      const QString entry = QStringLiteral(".B loupec ") + match.captured(1);
      QVERIFY2(man.contains(entry), qPrintable(entry));
      ++commands;
    }
    QCOMPARE(commands, 12);
  }

  // A model with control flow (a WHILE whose body holds an IF): info shows
  // the subgraphs each operator runs, run on the host agrees with the
  // reference and with TFLite Micro's values.
  void controlFlowModelsRunOnTheHost() {
    using namespace loupe::test::control_flow;
    QTemporaryDir dir;
    const QString path = dir.filePath("loop.tflite");
    const std::vector<float> acc = {1, 2, 3, 4, -1, -2, -3, -4};
    QVERIFY(writeAll(path, countingLoopWriter().bytes()));
    QVERIFY(writeAll(dir.filePath("i.bin"), loupe::test::bytesOf(std::vector<std::int32_t>{0})));
    QVERIFY(writeAll(dir.filePath("acc.bin"), loupe::test::bytesOf(acc)));
    auto result = loupec({"info", path});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("cond: subgraph 1 \"count_cond\", 1 operator: LESS"),
             result.out.constData());
    QVERIFY2(result.out.contains("body: subgraph 2 \"count_body\", 3 operators: ADD, LESS, IF"),
             result.out.constData());
    result = loupec({"run", path, "--platform", "host", "--inputs", dir.filePath("i.bin"),
                     dir.filePath("acc.bin"), "--output-dir", dir.filePath("out")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains("outputs agree with the reference interpreter (bit-exact)"),
             qPrintable(result.out));
    const QByteArray expected = readAll(dir.filePath("out/output1.bin"));
    QCOMPARE(loupe::test::valuesOf<float>({expected.begin(), expected.end()}),
             countingLoopExpected(0, acc));
  }

  // loupec operators prints the operator table: what runs, what does not.
  void operatorsPrintsTheOperatorTable() {
    const auto table = loupec({"operators"});
    QCOMPARE(table.exitCode, 0);
    QVERIFY2(table.out.contains("| GATHER | 36 | yes | yes | yes | - |"), table.out.constData());
    QVERIFY2(table.out.contains("| WHILE | 119 | yes | yes | yes | - |"), table.out.constData());
    QCOMPARE(loupec({"operators", "extra"}).exitCode, 2);
  }

  // loupec diff: every shared model against itself has no difference.
  void diffOfAModelWithItselfShowsNoDifference_data() {
    QTest::addColumn<QString>("name");
    for (const char* name :
         {"ad01_int8", "hello_world_float", "hello_world_int8", "ic_resnet8_int8", "kws_ref_model",
          "micro_speech_quantized", "vww_96_int8"}) {
      QTest::newRow(name) << name;
    }
  }
  void diffOfAModelWithItselfShowsNoDifference() {
    QFETCH(QString, name);
    const QString path = model(name.toUtf8().constData());
    const auto text = loupec({"diff", path, path});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("no differences: "), text.out.constData());
    const auto json = loupec({"diff", path, path, "--json"});
    QCOMPARE(json.exitCode, 0);
    const auto diff = nlohmann::json::parse(json.out.toStdString());
    QVERIFY(diff["identical"].get<bool>());
    for (const auto& op : diff["operators"]) QCOMPARE(op["status"].get<std::string>(), "same");
    QCOMPARE(diff["totals"]["a"], diff["totals"]["b"]);
  }

  // kws on the CPU against kws on the Ethos-U: every operator the Ethos-U
  // takes is paired with the one Ethos-U operator it was compiled into,
  // nothing is added or removed, and the totals differ.
  void diffOfCpuAndEthosUMarksTheMergedOperators() {
    const QString kws = model("kws_ref_model");
    const QString ethosU = "ethos-u -accelerator_config=ethos-u55-128, c";
    const auto json = loupec({"diff", kws, kws, "--target-b", ethosU, "--json"});
    QCOMPARE(json.exitCode, 0);
    const auto diff = nlohmann::json::parse(json.out.toStdString());
    QVERIFY(!diff["identical"].get<bool>());
    QCOMPARE(diff["summary"]["added"].get<int>(), 0);
    QCOMPARE(diff["summary"]["removed"].get<int>(), 0);
    QCOMPARE(diff["summary"]["merged"].get<int>(), 13);
    int merged = 0;
    for (const auto& op : diff["operators"]) {
      QCOMPARE(op["a"]["target"].get<std::string>(), "c");
      const bool onEthosU = op["b"]["target"].get<std::string>() == "ethos-u";
      QCOMPARE(op["status"].get<std::string>(), std::string(onEthosU ? "merged" : "same"));
      if (onEthosU) {
        ++merged;
        QCOMPARE(op["b"]["type"].get<std::string>(), "CUSTOM(ethos-u)");
        QCOMPARE(op["changes"], nlohmann::json({"merged", "target"}));
      }
    }
    QCOMPARE(merged, 13);
    QCOMPARE(diff["totals"]["a"]["macs"], diff["totals"]["b"]["macs"]);
    const auto text = loupec({"diff", kws, kws, "--target-b", ethosU});
    QVERIFY2(text.out.contains("13 changed (13 merged into one operator), 0 added, 0 removed"),
             text.out.constData());
    QVERIFY2(text.out.contains("compiled into B's #0 CUSTOM(ethos-u) (with 12 other model "
                               "operator(s)); target c -> ethos-u"),
             text.out.constData());
    QVERIFY2(text.out.contains("functions"), text.out.constData());
  }

  // --platform: both run (host: wall-clock ns), every operator of each side
  // has a measured time, and the operators' times fit in the whole run.
  void diffMeasuresBothSidesOnTheHost() {
    const QString kws = model("kws_ref_model");
    const auto json =
        loupec({"diff", kws, kws, "--target-b", "ethos-u -accelerator_config=ethos-u55-128, c",
                "--platform", "host", "--json"});
    QCOMPARE(json.exitCode, 0);
    const auto diff = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(diff["time_unit"].get<std::string>(), "ns");
    QVERIFY(diff["measured_on"].get<std::string>().starts_with("host"));
    for (const char* side : {"a", "b"}) {
      const double total = diff["totals"][side]["measured_time"].get<double>();
      double sum = 0;
      std::set<int> counted;  // B's Ethos-U operator stands in 12 pairs: once
      for (const auto& op : diff["operators"]) {
        QVERIFY2(op[side]["measured_time"].is_number(), op.dump().c_str());
        if (!counted.insert(op[side]["index"].get<int>()).second) continue;
        sum += op[side]["measured_time"].get<double>();
        if (op[side]["type"] == "CONV_2D") QVERIFY(op[side]["measured_time"].get<double>() > 0);
      }
      QVERIFY2(sum > 0 && sum <= total,
               (std::to_string(sum) + " of " + std::to_string(total)).c_str());
    }
    // Measured times never make an operator "changed".
    const auto same = loupec({"diff", kws, kws, "--platform", "host"});
    QCOMPARE(same.exitCode, 0);
    QVERIFY2(same.out.contains("no differences"), same.out.constData());
    QVERIFY2(same.out.contains("measured on host"), same.out.constData());
    QVERIFY2(same.out.contains("whole run"), same.out.constData());
  }

  // On QEMU the profile counts instructions: one model against itself
  // measures the same count for every operator, within the odd instruction
  // the profiler's timer reads land on (seen: 1,290.6 against 1,291.6).
  void diffOnQemuMeasuresEqualInstructionCounts() {
    const QString path = model("hello_world_int8");
    const auto json =
        loupec({"diff", path, path, "--platform", "qemu-mps2-an385", "--json"}, 600000);
    QCOMPARE(json.exitCode, 0);
    const auto diff = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(diff["time_unit"].get<std::string>(), "instructions");
    auto near = [](const nlohmann::json& a, const nlohmann::json& b) {
      const double x = a.get<double>();
      const double y = b.get<double>();
      return x > 0 && std::abs(x - y) <= 2 + 0.01 * x;
    };
    for (const auto& op : diff["operators"]) {
      QVERIFY2(near(op["a"]["measured_time"], op["b"]["measured_time"]), op.dump().c_str());
    }
    QVERIFY(near(diff["totals"]["a"]["measured_time"], diff["totals"]["b"]["measured_time"]));
    const auto unknown = loupec({"diff", path, path, "--platform", "mars"});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("mars"), qPrintable(unknown.err));
  }

  // Two planners: the same operators, another workspace.
  void diffOfTwoPlannersChangesOnlyTheWorkspace() {
    const QString ad01 = model("ad01_int8");
    const auto json = loupec({"diff", ad01, ad01, "--planner", "greedy_by_size", "--planner-b",
                              "branch_and_bound", "--json"});
    QCOMPARE(json.exitCode, 0);
    const auto diff = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(diff["summary"]["changed"].get<int>(), 0);
    const auto& a = diff["totals"]["a"];
    const auto& b = diff["totals"]["b"];
    QVERIFY(a["workspace_bytes"].get<std::int64_t>() > b["workspace_bytes"].get<std::int64_t>());
    QCOMPARE(a["constant_bytes"], b["constant_bytes"]);
    QVERIFY(!diff["identical"].get<bool>());
  }

  // Two versions of a model: hello_world in int8 and in float32 have the
  // same layers with other bytes.
  void diffOfTwoModelsPairsTheirLayers() {
    const auto json =
        loupec({"diff", model("hello_world_int8"), model("hello_world_float"), "--json"});
    QCOMPARE(json.exitCode, 0);
    const auto diff = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(diff["summary"]["added"].get<int>(), 0);
    QCOMPARE(diff["summary"]["removed"].get<int>(), 0);
    QVERIFY(diff["summary"]["changed"].get<int>() >= 1);
    QVERIFY(diff["totals"]["b"]["parameter_bytes"].get<std::int64_t>() >
            diff["totals"]["a"]["parameter_bytes"].get<std::int64_t>());
    const auto usage = loupec({"diff", model("hello_world_int8")});
    QCOMPARE(usage.exitCode, 2);
    QVERIFY2(usage.err.contains("diff needs two MODEL files"), qPrintable(usage.err));
  }
};

QTEST_GUILESS_MAIN(Loupec)
#include "loupec_test.moc"
