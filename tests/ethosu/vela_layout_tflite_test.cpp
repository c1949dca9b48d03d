// The .tflite in Vela's layout that loupec compile --format tflite writes
// (compiler_core/ethosu/vela_layout_tflite): each NPU region one custom
// operator "ethos-u" with Vela's inputs (payload, flash, scratch, fast
// scratch, feature maps), OfflineMemoryAllocation placing the feature maps
// in the scratch, the CPU's operators the model's own builtins. Reopened by
// the importer and run on the reference interpreter, the shared models give
// TFLite Micro's bytes on every golden set; a model all on the NPU gives
// them run as TFLite Micro would run it, from the arena offsets alone.
#include <QtTest>

#include <map>
#include <random>
#include <set>

#include "driver/compile_driver.h"
#include "ethosu/payload_validator.h"
#include "ethosu/region_compiler.h"
#include "ethosu/vela_layout_tflite.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "frontend/vela_operator.h"
#include "reference/reference_interpreter.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "test_data.h"
#include "tflite_model_writer.h"

using namespace loupe;
namespace fs = std::filesystem;

namespace {

constexpr std::int32_t kAdd = 0, kConv2D = 3, kCustom = 32, kLogSoftmax = 50;

struct Exported {
  std::vector<std::uint8_t> source;
  ir::Graph compiled;  // partitioned: what the file was written from
  ethosu::VelaLayoutTflite file;
};

Exported exportTflite(std::vector<std::uint8_t> source, const std::string& accelerator) {
  const target::TargetList targets = target::parseTargetString(
      "ethos-u -accelerator_config=" + accelerator + ", c", targets::builtinTargetRegistry());
  Exported e;
  e.source = std::move(source);
  e.compiled = driver::partitionModel(frontend::importTflite(e.source), targets).graph;
  e.file = ethosu::velaLayoutTflite(e.source, e.compiled);
  return e;
}

Exported exportModel(const std::string& model, const std::string& accelerator) {
  return exportTflite(test::readBytes(test::modelsDir() / model / "model.tflite"), accelerator);
}

std::vector<const ir::Operator*> ethosUOperators(const ir::Graph& graph) {
  std::vector<const ir::Operator*> ops;
  for (const ir::Operator& op : graph.operators) {
    if (op.type == ir::OpType::EthosU) ops.push_back(&op);
  }
  return ops;
}

std::vector<std::uint8_t> bytesOfSpan(std::span<const std::uint8_t> s) {
  return {s.begin(), s.end()};
}

// The file read with the schema's reader.
struct FileView {
  const tflite::Model* model;
  const tflite::SubGraph* graph;

  explicit FileView(const std::vector<std::uint8_t>& bytes) {
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (!tflite::VerifyModelBuffer(verifier)) throw std::runtime_error("not a valid TFLite file");
    model = tflite::GetModel(bytes.data());
    graph = model->subgraphs()->Get(0);
  }
  const tflite::OperatorCode& code(const tflite::Operator& op) const {
    return *model->operator_codes()->Get(op.opcode_index());
  }
  bool isEthosU(const tflite::Operator& op) const {
    const auto& c = code(op);
    return c.builtin_code() == kCustom && c.custom_code() != nullptr &&
           c.custom_code()->str() == "ethos-u";
  }
  const tflite::Tensor& tensor(int index) const { return *graph->tensors()->Get(index); }
  std::span<const std::uint8_t> data(int tensor) const {
    const auto* d = model->buffers()->Get(this->tensor(tensor).buffer())->data();
    return d ? std::span<const std::uint8_t>(d->data(), d->size())
             : std::span<const std::uint8_t>();
  }
  std::vector<std::uint8_t> metadata(const std::string& name) const {
    for (const auto* entry : *model->metadata()) {
      if (entry->name()->str() != name) continue;
      const auto* d = model->buffers()->Get(entry->buffer())->data();
      return {d->begin(), d->end()};
    }
    return {};
  }
  std::int64_t elements(int tensor) const {
    std::int64_t n = 1;
    for (const int d : *this->tensor(tensor).shape()) n *= d;
    return n;
  }
};

void requireGoldenOutputs(const ir::Graph& graph, const fs::path& set) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    interpreter.setInput(i, test::readBytes(set / ("input" + std::to_string(i) + ".bin")));
  }
  interpreter.invoke();
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    const auto golden = test::readBytes(set / ("output" + std::to_string(i) + ".bin"));
    const auto output = interpreter.output(i);
    QVERIFY2(std::equal(golden.begin(), golden.end(), output.begin(), output.end()),
             qPrintable(QString("%1: output %2 differs from TFLite Micro's")
                            .arg(QString::fromStdString(set.filename().string()))
                            .arg(i)));
  }
}

// Two NPU regions with a CPU operator between them: CONV_2D, LOG_SOFTMAX
// (which Loupe's emitter leaves to the CPU), then CONV_2D of the LOG_SOFTMAX
// or, with `residual`, ADD of the LOG_SOFTMAX and the first CONV_2D's output
// (which then passes from one region straight to the other).
std::vector<std::uint8_t> twoRegionModel(bool residual = false) {
  using tflite::TensorType;
  test::TfliteModelWriter w;
  auto& g = w.subgraph("main");
  std::mt19937 random(42);
  const auto randomInt8 = [&](std::size_t n) {
    std::vector<std::int8_t> v(n);
    for (auto& x : v) x = static_cast<std::int8_t>(static_cast<int>(random() % 255) - 127);
    return v;
  };
  const auto randomBias = [&](std::size_t n) {
    std::vector<std::int32_t> v(n);
    for (auto& x : v) x = static_cast<std::int32_t>(random() % 2001) - 1000;
    return v;
  };
  const int input = w.tensor(g, "input", TensorType::INT8, {1, 6, 6, 4});
  w.quantize(g, input, {0.05f}, {0});
  const int filter1 =
      w.tensor(g, "conv1/filter", TensorType::INT8, {8, 3, 3, 4}, test::bytesOf(randomInt8(288)));
  w.quantize(g, filter1, {0.02f}, {0});
  const int bias1 = w.tensor(g, "conv1/bias", TensorType::INT32, {8}, test::bytesOf(randomBias(8)));
  w.quantize(g, bias1, {0.001f}, {0});
  const int conv1 = w.tensor(g, "conv1", TensorType::INT8, {1, 6, 6, 8});
  w.quantize(g, conv1, {0.1f}, {3});
  const int softmax = w.tensor(g, "log_softmax", TensorType::INT8, {1, 6, 6, 8});
  w.quantize(g, softmax, {16.0f / 256}, {127});
  const int filter2 =
      w.tensor(g, "conv2/filter", TensorType::INT8, {4, 1, 1, 8}, test::bytesOf(randomInt8(32)));
  w.quantize(g, filter2, {0.03f}, {0});
  const int bias2 = w.tensor(g, "conv2/bias", TensorType::INT32, {4}, test::bytesOf(randomBias(4)));
  w.quantize(g, bias2, {0.03f / 256}, {0});
  const int output = w.tensor(g, "output", TensorType::INT8, {1, 6, 6, 4});
  w.quantize(g, output, {0.02f}, {-5});
  g.inputs = {input};
  g.outputs = {output};
  tflite::Conv2DOptionsT conv;
  conv.padding = tflite::Padding::SAME;
  conv.stride_h = conv.stride_w = 1;
  w.op(g, kConv2D, {input, filter1, bias1}, {conv1}, conv);
  w.op(g, kLogSoftmax, {conv1}, {softmax}, tflite::LogSoftmaxOptionsT{});
  if (residual) {
    const int sum = w.tensor(g, "sum", TensorType::INT8, {1, 6, 6, 8});
    w.quantize(g, sum, {0.1f}, {0});
    g.outputs = {sum};
    w.op(g, kAdd, {conv1, softmax}, {sum}, tflite::AddOptionsT{});
  } else {
    w.op(g, kConv2D, {softmax, filter2, bias2}, {output}, conv);
  }
  return w.bytes();
}

}  // namespace

class VelaLayoutTfliteTest : public QObject {
  Q_OBJECT

 private slots:
  // The file reopened through the importer gives TFLite Micro's bytes on
  // every golden set, and its ethos-u operators are the compilation's: the
  // same payload, flash and feature-map offsets in the scratch.
  void reopenedFileGivesTfliteMicrosBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("accelerator");
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized"}) {
      QTest::newRow((std::string(model) + " ethos-u55-128").c_str()) << model << "ethos-u55-128";
    }
    for (const char* model : {"kws_ref_model", "ic_resnet8_int8"}) {
      QTest::newRow((std::string(model) + " ethos-u65-256").c_str()) << model << "ethos-u65-256";
    }
  }

  void reopenedFileGivesTfliteMicrosBytes() {
    QFETCH(QString, model);
    QFETCH(QString, accelerator);
    const Exported e = exportModel(model.toStdString(), accelerator.toStdString());
    const ir::Graph reopened = frontend::importTflite(e.file.bytes);
    const auto compiledNpu = ethosUOperators(e.compiled);
    const auto reopenedNpu = ethosUOperators(reopened);
    QVERIFY(!compiledNpu.empty());
    QCOMPARE(reopenedNpu.size(), compiledNpu.size());
    QCOMPARE(e.file.npuOperators, static_cast<int>(compiledNpu.size()));
    for (std::size_t i = 0; i < compiledNpu.size(); ++i) {
      const ir::Operator& before = *compiledNpu[i];
      const ir::Operator& after = *reopenedNpu[i];
      QVERIFY(reopened.tensor(after.inputs[0]).data.bytes() ==
              e.compiled.tensor(before.inputs[0]).data.bytes());
      QVERIFY(reopened.tensor(after.inputs[1]).data.bytes() ==
              e.compiled.tensor(before.inputs[1]).data.bytes());
      const auto& a = std::get<ir::EthosUAttrs>(before.attributes);
      const auto& b = std::get<ir::EthosUAttrs>(after.attributes);
      QCOMPARE(b.accelerator, a.accelerator);
      QCOMPARE(b.scratchBytes, a.scratchBytes);
      QVERIFY(b.inputOffsets == a.inputOffsets);
      QVERIFY(b.outputOffsets == a.outputOffsets);
      QCOMPARE(b.npuOperations, a.npuOperations);
      // The feature maps are the same tensors, by name.
      QCOMPARE(after.inputs.size(), before.inputs.size());
      for (std::size_t slot = 2; slot < before.inputs.size(); ++slot) {
        QCOMPARE(reopened.tensor(after.inputs[slot]).name,
                 e.compiled.tensor(before.inputs[slot]).name);
      }
      for (std::size_t slot = 0; slot < before.outputs.size(); ++slot) {
        QCOMPARE(reopened.tensor(after.outputs[slot]).name,
                 e.compiled.tensor(before.outputs[slot]).name);
      }
    }
    // Each payload passes the checks of Arm's driver and Linux's validator
    // with the memory TFLite Micro's kernel hands them from this file: the
    // flash and the payload where they lie in it, the scratch areas at their
    // arena offsets.
    const FileView file(e.file.bytes);
    const std::vector<std::int32_t> offsets = frontend::parseOfflineMemoryAllocation(
        file.metadata("OfflineMemoryAllocation"), file.graph->tensors()->size());
    for (const auto* op : *file.graph->operators()) {
      if (!file.isEthosU(*op)) continue;
      const auto payload = file.data(op->inputs()->Get(0));
      const auto flash = file.data(op->inputs()->Get(1));
      const int scratch = op->inputs()->Get(2), fast = op->inputs()->Get(3);
      const auto at = [&](const std::uint8_t* p) {
        return static_cast<std::uint64_t>(p - e.file.bytes.data());
      };
      ethosu::PayloadMemory memory;
      memory.regionSizes = {flash.size(), static_cast<std::uint64_t>(file.elements(scratch)),
                            static_cast<std::uint64_t>(file.elements(fast))};
      memory.baseAddresses = {flash.empty() ? 0 : at(flash.data()),
                              static_cast<std::uint64_t>(offsets.at(scratch)),
                              static_cast<std::uint64_t>(offsets.at(fast))};
      memory.payloadAddress = at(payload.data());
      loupe_ethosu_npu_config npu;
      loupe_ethosu_npu_config_init(
          &npu, std::get<ir::EthosUAttrs>(compiledNpu.front()->attributes).accelerator);
      const ethosu::PayloadValidation validation = ethosu::validatePayload(payload, npu, memory);
      QVERIFY2(validation.ok(), validation.text().c_str());
    }
    for (const fs::path& set : test::ethosu::goldenSets(model.toStdString())) {
      requireGoldenOutputs(reopened, set);
      if (QTest::currentTestFailed()) return;
    }
    qInfo("%s %s: %zu bytes (the model: %zu), payload %lld, flash %lld, scratch %lld",
          qPrintable(model), qPrintable(accelerator), e.file.bytes.size(), e.source.size(),
          static_cast<long long>(e.file.payloadBytes), static_cast<long long>(e.file.flashBytes),
          static_cast<long long>(e.file.scratchBytes));
  }

  // kws as Vela lays it out: one ethos-u operator (custom code "ethos-u",
  // Vela's custom options) with payload, flash, scratch, fast scratch and
  // then the feature maps; OfflineMemoryAllocation valid and placing them in
  // the scratch; every operator on the NPU (SOFTMAX too, as Vela runs it);
  // none of the NPU's weights left as tensors.
  void kwsIsInVelasLayout() {
    const Exported e = exportModel("kws_ref_model", "ethos-u55-128");
    const FileView file(e.file.bytes);
    const FileView source(e.source);
    const std::vector<std::uint8_t> velaBytes =
        test::readBytes(test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite");
    const FileView vela(velaBytes);
    const tflite::Operator* velaOp = vela.graph->operators()->Get(0);
    QVERIFY(vela.isEthosU(*velaOp));

    const std::size_t tensors = file.graph->tensors()->size();
    const std::vector<std::int32_t> offsets =
        frontend::parseOfflineMemoryAllocation(file.metadata("OfflineMemoryAllocation"), tensors);
    int npu = 0;
    std::multiset<std::int32_t> cpuCodes;
    for (const auto* op : *file.graph->operators()) {
      if (!file.isEthosU(*op)) {
        const std::int32_t code = std::max<std::int32_t>(file.code(*op).builtin_code(),
                                                         file.code(*op).deprecated_builtin_code());
        QVERIFY(code != kCustom);
        cpuCodes.insert(code);
        continue;
      }
      ++npu;
      QVERIFY(bytesOfSpan({op->custom_options()->data(), op->custom_options()->size()}) ==
              bytesOfSpan({velaOp->custom_options()->data(), velaOp->custom_options()->size()}));
      const auto& inputs = *op->inputs();
      QCOMPARE(inputs.size(), velaOp->inputs()->size());
      QCOMPARE(op->outputs()->size(), velaOp->outputs()->size());
      // Slots 0-3: uint8 vectors; the payload and flash constants, the
      // scratches not (their bytes are the arena's), as in Vela's file.
      for (int slot = 0; slot < 4; ++slot) {
        const auto& t = file.tensor(inputs.Get(slot));
        const auto& v = vela.tensor(velaOp->inputs()->Get(slot));
        QCOMPARE(t.type(), v.type());
        QCOMPARE(t.shape()->size(), v.shape()->size());
        QCOMPARE(file.data(inputs.Get(slot)).empty(),
                 vela.data(velaOp->inputs()->Get(slot)).empty());
      }
      const auto payload = file.data(inputs.Get(0));
      QVERIFY(payload.size() > 16);
      QCOMPARE(std::string(payload.begin(), payload.begin() + 4), std::string("COP1"));
      // The driver reads the payload and the flash in place: on 16 bytes.
      QCOMPARE((payload.data() - e.file.bytes.data()) % 16, 0);
      QCOMPARE((file.data(inputs.Get(1)).data() - e.file.bytes.data()) % 16, 0);
      QCOMPARE(file.elements(inputs.Get(1)), static_cast<std::int64_t>(e.file.flashBytes));
      const std::int32_t scratch = offsets.at(inputs.Get(2));
      const std::int64_t scratchBytes = file.elements(inputs.Get(2));
      QVERIFY(scratch >= 0);
      QCOMPARE(offsets.at(inputs.Get(3)), scratch);  // the fast scratch: the same bytes
      // The feature maps lie in the scratch; the payload and flash are not
      // in the arena.
      std::vector<int> maps(inputs.begin() + 4, inputs.end());
      maps.insert(maps.end(), op->outputs()->begin(), op->outputs()->end());
      for (const int t : maps) {
        QVERIFY(offsets.at(t) >= scratch);
        QVERIFY(offsets.at(t) + file.elements(t) <= scratch + scratchBytes);
      }
      QCOMPARE(offsets.at(inputs.Get(0)), -1);
      QCOMPARE(offsets.at(inputs.Get(1)), -1);
      // Its input is the model's, by name and shape, as in Vela's file.
      QCOMPARE(file.tensor(inputs.Get(4)).name()->str(),
               vela.tensor(velaOp->inputs()->Get(4)).name()->str());
    }
    QCOMPARE(npu, 1);
    // The CPU's operators are the source's that Loupe left on the CPU.
    std::multiset<std::int32_t> expected;
    for (const ir::Operator& op : e.compiled.operators) {
      if (op.type == ir::OpType::EthosU) continue;
      for (const int m : op.modelOperators()) {
        const auto* s = source.graph->operators()->Get(m);
        expected.insert(std::max<std::int32_t>(source.code(*s).builtin_code(),
                                               source.code(*s).deprecated_builtin_code()));
      }
    }
    QVERIFY(cpuCodes == expected);
    QCOMPARE(static_cast<int>(cpuCodes.size()), e.file.cpuOperators);
    // Every operator of kws runs on the NPU, as in Vela's file.
    QCOMPARE(e.file.cpuOperators, 0);
    // No constant of the source is left but what the CPU reads: the NPU's
    // weights are in the flash.
    for (int t = 0; t < static_cast<int>(tensors); ++t) {
      if (file.data(t).empty() || file.tensor(t).type() == tflite::TensorType::UINT8) continue;
      QFAIL(qPrintable("constant " + QString::fromStdString(file.tensor(t).name()->str()) +
                       " was left in the file"));
    }
    // The source's other metadata comes along.
    QVERIFY(!source.metadata("min_runtime_version").empty());
    QVERIFY(file.metadata("min_runtime_version") == source.metadata("min_runtime_version"));
    QVERIFY(e.file.bytes.size() < e.source.size());
  }

  // ad01 is all on the NPU: run as TFLite Micro runs it (the input copied to
  // its arena offset, the driver given the ethos-u operator's inputs and
  // outputs as base addresses, the output read at its arena offset), with no
  // help from Loupe's importer, it gives TFLite Micro's bytes.
  void aModelAllOnTheNpuRunsFromItsArenaOffsets() {
    const Exported e = exportModel("ad01_int8", "ethos-u55-128");
    QCOMPARE(e.file.cpuOperators, 0);
    const FileView file(e.file.bytes);
    const std::vector<std::int32_t> offsets = frontend::parseOfflineMemoryAllocation(
        file.metadata("OfflineMemoryAllocation"), file.graph->tensors()->size());
    QCOMPARE(file.graph->operators()->size(), 1u);
    const tflite::Operator& op = *file.graph->operators()->Get(0);
    QVERIFY(file.isEthosU(op));
    const int input = file.graph->inputs()->Get(0), output = file.graph->outputs()->Get(0);
    std::int64_t arenaBytes = 0;
    for (std::size_t t = 0; t < offsets.size(); ++t) {
      if (offsets[t] >= 0) {
        arenaBytes = std::max(arenaBytes, offsets[t] + file.elements(static_cast<int>(t)));
      }
    }
    for (const fs::path& set : test::ethosu::goldenSets("ad01_int8")) {
      std::vector<std::uint8_t> arena(static_cast<std::size_t>(arenaBytes), 0xA5);
      const auto in = test::readBytes(set / "input0.bin");
      std::copy(in.begin(), in.end(), arena.begin() + offsets.at(input));
      std::vector<std::uint64_t> base;
      std::vector<std::size_t> sizes;
      std::vector<int> regionTensors(op.inputs()->begin() + 1, op.inputs()->end());
      regionTensors.insert(regionTensors.end(), op.outputs()->begin(), op.outputs()->end());
      for (const int t : regionTensors) {
        const auto constant = file.data(t);
        const std::uint8_t* address =
            !constant.empty() ? constant.data() : arena.data() + std::max(0, offsets.at(t));
        base.push_back(reinterpret_cast<std::uintptr_t>(address));
        sizes.push_back(static_cast<std::size_t>(file.elements(t)));
      }
      const auto payload = file.data(op.inputs()->Get(0));
      static std::int16_t workspace[1 << 17];
      static ethosu_driver driver;
      QCOMPARE(loupe_ethosu_driver_init(&driver, LOUPE_ETHOSU_U55_128, workspace, 1 << 17), 0);
      const int status =
          ethosu_invoke_v3(&driver, payload.data(), static_cast<int>(payload.size()), base.data(),
                           sizes.data(), static_cast<int>(base.size()), nullptr);
      QVERIFY2(status == 0, ethosu_last_error_message(&driver));
      const auto golden = test::readBytes(set / "output0.bin");
      const auto* out = arena.data() + offsets.at(output);
      QVERIFY2(std::equal(golden.begin(), golden.end(), out),
               qPrintable(QString::fromStdString(set.filename().string())));
    }
  }

  // Two regions around a CPU LOG_SOFTMAX: two ethos-u operators with scratch
  // areas of their own in the arena, the LOG_SOFTMAX between them a builtin that
  // reads the first's output and writes the second's input, both placed in
  // those scratches; reopened, the file computes what the compilation does.
  void twoRegionsGetScratchAreasOfTheirOwn() {
    const Exported e = exportTflite(twoRegionModel(), "ethos-u55-64");
    QCOMPARE(e.file.npuOperators, 2);
    QCOMPARE(e.file.cpuOperators, 1);
    const FileView file(e.file.bytes);
    const std::vector<std::int32_t> offsets = frontend::parseOfflineMemoryAllocation(
        file.metadata("OfflineMemoryAllocation"), file.graph->tensors()->size());
    std::vector<std::pair<std::int64_t, std::int64_t>> scratches;
    for (const auto* op : *file.graph->operators()) {
      if (!file.isEthosU(*op)) {
        // The source's builtin, with its options.
        QCOMPARE(file.code(*op).builtin_code(), kLogSoftmax);
        QVERIFY(op->builtin_options_as_LogSoftmaxOptions() != nullptr);
        continue;
      }
      const int scratch = op->inputs()->Get(2);
      scratches.push_back({offsets.at(scratch), offsets.at(scratch) + file.elements(scratch)});
    }
    QCOMPARE(scratches.size(), 2u);
    QVERIFY(scratches[0].second <= scratches[1].first || scratches[1].second <= scratches[0].first);
    const auto* first = file.graph->operators()->Get(0);
    const auto* softmax = file.graph->operators()->Get(1);
    const auto* second = file.graph->operators()->Get(2);
    QCOMPARE(softmax->inputs()->Get(0), first->outputs()->Get(0));
    QCOMPARE(second->inputs()->Get(4), softmax->outputs()->Get(0));
    const int between = first->outputs()->Get(0);
    QVERIFY(offsets.at(between) >= scratches[0].first && offsets.at(between) < scratches[0].second);
    const int intoSecond = softmax->outputs()->Get(0);
    QVERIFY(offsets.at(intoSecond) >= scratches[1].first &&
            offsets.at(intoSecond) < scratches[1].second);

    const ir::Graph reopened = frontend::importTflite(e.file.bytes);
    std::mt19937 random(3);
    for (int run = 0; run < 3; ++run) {
      std::vector<std::uint8_t> input(6 * 6 * 4);
      for (auto& b : input) b = static_cast<std::uint8_t>(random());
      reference::ReferenceInterpreter expected(e.compiled), actual(reopened);
      expected.setInput(0, input);
      actual.setInput(0, input);
      expected.invoke();
      actual.invoke();
      const auto a = expected.output(0), b = actual.output(0);
      QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    }
  }

  // The first CONV_2D's output is read by the LOG_SOFTMAX on the CPU and by the
  // ADD of the second region: it would have to lie in both scratch areas.
  void aTensorTwoRegionsWouldPlaceApartIsRefused() {
    const target::TargetList targets = target::parseTargetString(
        "ethos-u -accelerator_config=ethos-u55-64, c", targets::builtinTargetRegistry());
    const auto source = twoRegionModel(true);
    const ir::Graph compiled =
        driver::partitionModel(frontend::importTflite(source), targets).graph;
    QCOMPARE(ethosUOperators(compiled).size(), 2u);
    try {
      ethosu::velaLayoutTflite(source, compiled);
      QFAIL("a tensor of two scratch areas was written");
    } catch (const ethosu::VelaLayoutError& error) {
      QVERIFY2(QString(error.what())
                   .contains("'conv1' passes from one Ethos-U region straight "
                             "to another"),
               error.what());
    }
  }

  void whatCannotBeWrittenIsSaid() {
    // No NPU region: every operator on the CPU.
    const auto source = test::readBytes(test::modelsDir() / "hello_world_float" / "model.tflite");
    try {
      exportTflite(source, "ethos-u55-128");
      QFAIL("a model without an NPU region was written");
    } catch (const ethosu::VelaLayoutError& error) {
      QVERIFY2(QString(error.what())
                   .contains("no operator of the model was compiled for the "
                             "Ethos-U"),
               error.what());
    }
    // A model Vela compiled already.
    const auto vela =
        test::readBytes(test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite");
    try {
      exportTflite(vela, "ethos-u55-128");
      QFAIL("a Vela file was written again");
    } catch (const ethosu::VelaLayoutError& error) {
      QVERIFY2(QString(error.what()).contains("compiled by Vela"), error.what());
    }
  }
};

QTEST_GUILESS_MAIN(VelaLayoutTfliteTest)
#include "vela_layout_tflite_test.moc"
