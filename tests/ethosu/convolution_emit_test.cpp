// The emitter's first operations on the real NPU format: every convolution,
// depthwise convolution, fully connected layer and pool of the shared int8
// models, lowered to one Ethos-U operation (registers, mlw weights, scale
// records, a block whose SHRAM layout fits), wrapped in a driver payload for each
// single-core configuration, parsed and run by the functional model as the
// driver would: its output is the reference interpreter's, byte for byte,
// on the golden input's intermediate tensors.
#include <QtTest>

#include <cstring>
#include <fstream>
#include <iterator>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/block_config.h"
#include "ethosu/command_stream_writer.h"
#include "ethosu/convolution_lowering.h"
#include "ethosu/driver_payload.h"
#include "ethosu/pool_lowering.h"
#include "ethosu/register_emitter.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "loupe/ethosu/ethosu_execute.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using namespace loupe;
using namespace loupe::ethosu;

namespace {

std::vector<std::uint8_t> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t alignUp(std::uint64_t n) {
  return (n + 15) / 16 * 16;
}

// The NHWC extents of a feature-map tensor, as the NPU sees it.
NpuFeatureMap mapOf(const ir::Tensor& t, bool flat, std::uint64_t base) {
  if (flat) return NpuFeatureMap::nhwc(1, base, 1, 1, static_cast<int>(t.elementCount()));
  return NpuFeatureMap::nhwc(1, base, t.shape[1], t.shape[2], t.shape[3]);
}

// Runs `payload` on the functional model with `flash` as region 0 and
// `scratch` as region 1; the error message or "".
std::string runOnFunctionalModel(const NpuArchitecture& arch,
                                 const std::vector<std::uint8_t>& payload,
                                 std::vector<std::uint8_t>& flash,
                                 std::vector<std::uint8_t>& scratch) {
  const std::uint8_t* stream = nullptr;
  std::uint32_t words = 0;
  loupe_ethosu_error err{};
  if (loupe_ethosu_payload_parse(payload.data(), payload.size(), &arch.config, &stream, &words,
                                 &err) != LOUPE_ETHOSU_OK) {
    return err.message;
  }
  static std::vector<std::int16_t> workspace(std::size_t{1} << 22);
  static loupe_ethosu_machine machine;
  loupe_ethosu_machine_init(&machine, &arch.config, workspace.data(),
                            static_cast<std::uint32_t>(workspace.size()));
  machine.regions[0] = {flash.data(), flash.size()};
  machine.regions[1] = {scratch.data(), scratch.size()};
  loupe_ethosu_command_decoder decoder;
  loupe_ethosu_command_decoder_init(&decoder, stream, words);
  loupe_ethosu_operation op;
  int status;
  while ((status = loupe_ethosu_command_decoder_next(&decoder, &op, &err)) == 1) {
    if (loupe_ethosu_execute(&machine, &op, &err) != LOUPE_ETHOSU_OK) return err.message;
  }
  return status < 0 ? err.message : "";
}

}  // namespace

class EthosuConvolutionEmitTest : public QObject {
  Q_OBJECT

 private slots:
  void everyConvolutionAndPoolGivesTheReferencesBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("accelerator");
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized"}) {
      for (const NpuArchitecture& arch : npuArchitectures()) {
        if (arch.cores != 1) continue;
        QTest::newRow((std::string(model) + " " + std::string(arch.name)).c_str())
            << model << arch.accelerator;
      }
    }
  }

  void everyConvolutionAndPoolGivesTheReferencesBytes() {
    QFETCH(QString, model);
    QFETCH(int, accelerator);
    const NpuArchitecture& arch = *findNpuArchitecture(accelerator);
    const auto dir = test::modelsDir() / model.toStdString();
    const ir::Graph graph = frontend::importTfliteFile((dir / "model.tflite").string());
    reference::ReferenceInterpreter interpreter(graph);
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      interpreter.setInput(
          i, readFile(dir / "golden" / "seed1" / ("input" + std::to_string(i) + ".bin")));
    }
    interpreter.invoke();

    int emitted = 0, pools = 0;
    for (const ir::Operator& op : graph.operators) {
      const bool fullyConnected = op.type == ir::OpType::FullyConnected;
      const bool pool = op.type == ir::OpType::AveragePool2D || op.type == ir::OpType::MaxPool2D;
      if (op.type != ir::OpType::Conv2D && op.type != ir::OpType::DepthwiseConv2D &&
          !fullyConnected && !pool) {
        continue;
      }
      const ir::Tensor& in = *graph.input(op, 0);
      const ir::Tensor& out = graph.output(op, 0);
      const NpuFeatureMap ifm = mapOf(in, fullyConnected, 0);
      const NpuFeatureMap ofm = mapOf(out, fullyConnected, alignUp(ifm.bytes()));
      LoweredConvolution lowered;
      if (pool) {
        lowered.operation = lowerPool(graph, op, arch, ifm, ofm);
        ++pools;
      } else {
        lowered = lowerConvolution(graph, op, arch, ifm, ofm);
      }
      // The flash: scale records, then the weights, each on 16 bytes.
      std::vector<std::uint8_t> flash = lowered.scales;
      flash.resize(alignUp(flash.size()));
      lowered.operation.weights.base = flash.size();
      flash.insert(flash.end(), lowered.weights.begin(), lowered.weights.end());

      CommandStreamWriter writer;
      emitNpuOperation(writer, lowered.operation);
      emitStop(writer);
      const std::vector<std::uint8_t> payload = driverPayload(arch.config, writer.words());

      std::vector<std::uint8_t> scratch(ofm.base + ofm.bytes(), 0xA5);
      const auto input = interpreter.tensorBytes(op.inputs[0]);
      std::copy(input.begin(), input.end(), scratch.begin());
      const std::string error = runOnFunctionalModel(arch, payload, flash, scratch);
      QVERIFY2(error.empty(),
               qPrintable(QString("operator %1: %2").arg(op.index).arg(error.c_str())));
      const auto expected = interpreter.tensorBytes(op.outputs[0]);
      QVERIFY2(std::equal(expected.begin(), expected.end(),
                          scratch.begin() + static_cast<std::ptrdiff_t>(ofm.base)),
               qPrintable(QString("operator %1 (%2) differs from the reference")
                              .arg(op.index)
                              .arg(QString::fromStdString(op.typeName()))));
      ++emitted;
    }
    QVERIFY(emitted > 0);
    // kws, vww, ic and person_detect end in an average pool.
    if (model != "ad01_int8" && model != "micro_speech_quantized") QVERIFY(pools > 0);
  }

  // The SHRAM layout rules checked against Vela's own streams: for the block
  // each of its operations runs in, the input banks' end and the
  // accumulators' start are the banks Vela wrote.
  void theShramLayoutOfVelasBlocksIsVelas() {
    int compared = 0;
    for (const auto& vela : test::ethosu::velaFiles()) {
      frontend::ImportOptions options;
      options.keepUnsupportedOperators = true;
      const ir::Graph graph = frontend::importTfliteFile(vela.path.string(), options);
      const NpuArchitecture& arch = *findNpuArchitecture(vela.accelerator);
      for (const ir::Operator& op : graph.operators) {
        if (op.type != ir::OpType::EthosU) continue;
        for (const auto& stream : analysis::ethosuPayloadOf(graph, op).streams) {
          for (const loupe_ethosu_operation& o : stream.operations) {
            if (o.kind != LOUPE_ETHOSU_OPERATION_CONV &&
                o.kind != LOUPE_ETHOSU_OPERATION_DEPTHWISE &&
                o.kind != LOUPE_ETHOSU_OPERATION_POOL) {
              continue;
            }
            BlockRequest request;
            request.kind = o.kind == LOUPE_ETHOSU_OPERATION_CONV        ? NpuBlockKind::Convolution
                           : o.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ? NpuBlockKind::Depthwise
                                                                        : NpuBlockKind::Pooling;
            request.ofm = {int(o.ofm.width), int(o.ofm.height), int(o.ofm.depth)};
            request.ifm = {int(o.ifm.width), int(o.ifm.height), int(o.ifm.depth)};
            request.ifmBits = o.ifm.precision_bits;
            request.kernelWidth = int(o.kernel_width);
            request.kernelHeight = int(o.kernel_height);
            request.strideX = o.stride_x;
            request.strideY = o.stride_y;
            request.usesLookupTable = o.activation_function >= 16;
            const NpuBlock ofmBlock{int(o.block_width), int(o.block_height), int(o.block_depth)};
            const auto layout = shramLayoutFor(
                arch, request, ofmBlock,
                ifmBlockFor(arch, request, ofmBlock, o.part_kernel_first != 0),
                o.acc_format == LOUPE_ETHOSU_acc_format_I40 ? ShramUse::Acc40 : ShramUse::Acc32);
            const QString where = QString("%1, %2 %3")
                                      .arg(vela.name.c_str(), loupe_ethosu_operation_name(&o))
                                      .arg(o.index);
            QVERIFY2(layout.has_value(), qPrintable(where + ": Vela's block does not fit"));
            QVERIFY2(layout->ibEnd == o.ib_end && layout->abStart == o.ab_start,
                     qPrintable(where + QString(": ib_end %1 ab_start %2, Vela %3 %4")
                                            .arg(layout->ibEnd)
                                            .arg(layout->abStart)
                                            .arg(o.ib_end)
                                            .arg(o.ab_start)));
            ++compared;
          }
        }
      }
    }
    QVERIFY(compared > 300);
  }

  void aTwoCoreConfigurationIsRefusedByName() {
    const ir::Graph graph =
        frontend::importTfliteFile((test::modelsDir() / "kws_ref_model" / "model.tflite").string());
    const ir::Operator& conv = graph.operators.front();
    const NpuArchitecture& u65_512 = *findNpuArchitecture("ethos-u65-512");
    const ir::Tensor& in = *graph.input(conv, 0);
    const ir::Tensor& out = graph.output(conv, 0);
    try {
      lowerConvolution(graph, conv, u65_512, mapOf(in, false, 0), mapOf(out, false, 4096));
      QFAIL("a two-core stream was lowered");
    } catch (const NpuLoweringError& error) {
      QVERIFY2(QString(error.what()).contains("ethos-u65-512"), error.what());
    }
  }
};

QTEST_GUILESS_MAIN(EthosuConvolutionEmitTest)
#include "convolution_emit_test.moc"
