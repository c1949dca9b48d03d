// An NPU region compiled as one function: kws_ref_model's nine convolutions
// (the partitioner's npu_0) become one version 2 command stream of nine
// operations, each tensor in a base-address region of its own, whose result
// on the software NPU equals running the nine operators' own streams one
// after the other; the TIR function binds every region and runs the stream
// with one driver call.
#include <QtTest>

#include <memory>
#include <random>

#include "codegen/c_function_printer.h"
#include "loupe/npu.h"
#include "npu_test_support.h"
#include "targets/npu/command_stream.h"
#include "targets/npu/npu_region_compiler.h"
#include "targets/npu/npu_tir_function.h"
#include "tvm/runtime/crt/error_codes.h"

using namespace loupe;
using namespace loupe::npu;

namespace {

// kws's first nine operators (CONV_2D, then DEPTHWISE_CONV_2D and CONV_2D
// pairs) as the region the partitioner makes of them.
ir::ExternalFunction kwsRegion(const ir::Graph& graph) {
  ir::ExternalFunction region;
  region.name = "npu_0";
  region.target = "npu";
  for (int i = 0; i < 9; ++i) region.operators.push_back(i);
  region.inputs = {graph.operators[0].inputs[0]};
  region.outputs = {graph.operators[8].outputs[0]};
  return region;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

class NpuRegionCompilerTest : public QObject {
  Q_OBJECT

 private slots:
  void oneStreamHoldsEveryOperationOfTheRegion() {
    const ir::Graph graph = test::loadModel("kws_ref_model");
    const ir::ExternalFunction region = kwsRegion(graph);
    const NpuCompiledRegion compiled = compileNpuRegion(graph, region, MacConfig::Macs128);
    QCOMPARE(compiled.operations.size(), std::size_t{9});
    QCOMPARE(decodeCommandStream(compiled.commandStream), compiled.operations);
    // One input, one output, eight intermediates: regions 2..11.
    QCOMPARE(compiled.tensors.size(), std::size_t{10});
    QCOMPARE(compiled.tensors[0].role, RegionTensorRole::Input);
    QCOMPARE(compiled.tensors[1].role, RegionTensorRole::Output);
    for (std::size_t i = 2; i < compiled.tensors.size(); ++i) {
      QCOMPARE(compiled.tensors[i].role, RegionTensorRole::Intermediate);
    }
    QCOMPARE(compiled.commandStream[4], std::uint8_t{LOUPE_NPU_STREAM_VERSION});
    QCOMPARE(compiled.commandStream[6], std::uint8_t{12});
    // Operation k writes what operation k+1 reads.
    for (std::size_t k = 0; k + 1 < compiled.operations.size(); ++k) {
      QCOMPARE(compiled.operations[k].ofm.region, compiled.operations[k + 1].ifm.region);
    }
  }

  void theRegionsStreamComputesWhatTheOperatorsStreamsCompute() {
    const ir::Graph graph = test::loadModel("kws_ref_model");
    const ir::ExternalFunction region = kwsRegion(graph);
    const NpuCompiledRegion compiled = compileNpuRegion(graph, region, MacConfig::Macs128);
    std::mt19937 random(7);
    std::vector<std::uint8_t> input(
        static_cast<std::size_t>(graph.tensor(region.inputs[0]).byteSize()));
    for (auto& b : input) b = static_cast<std::uint8_t>(random());

    // Operator by operator, each with its own one-operation stream.
    std::vector<std::uint8_t> expected = input;
    for (int index : region.operators) {
      const ir::Operator& op = graph.operators[static_cast<std::size_t>(index)];
      const NpuCompiledOperator single = compileNpuOperator(graph, op, MacConfig::Macs128);
      const test::NpuRun run = test::runOnSoftwareNpu(
          single, expected, {}, static_cast<std::size_t>(graph.tensor(op.outputs[0]).byteSize()));
      QCOMPARE(run.status, kTvmErrorNoError);
      expected = run.ofm;
    }

    // The region's one stream, every tensor in its own buffer.
    std::vector<std::uint8_t> constants = compiled.constants;
    std::vector<std::vector<std::uint8_t>> buffers;
    for (const NpuRegionTensor& t : compiled.tensors) {
      buffers.emplace_back(static_cast<std::size_t>(graph.tensor(t.tensor).byteSize()), 0);
    }
    buffers[0] = input;
    std::vector<std::uint8_t*> bases(kFirstFeatureMapRegion + buffers.size(), nullptr);
    std::vector<std::size_t> sizes(bases.size(), 0);
    bases[LOUPE_NPU_REGION_CONSTANTS] = constants.data();
    sizes[LOUPE_NPU_REGION_CONSTANTS] = constants.size();
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      bases[kFirstFeatureMapRegion + i] = buffers[i].data();
      sizes[kFirstFeatureMapRegion + i] = buffers[i].size();
    }
    auto device = std::make_unique<loupe_npu_device>();
    LoupeNpuDeviceInit(device.get());
    QCOMPARE(
        LoupeNpuExecute(device.get(), compiled.commandStream.data(), compiled.commandStream.size(),
                        bases.data(), sizes.data(), bases.size()),
        kTvmErrorNoError);
    QCOMPARE(device->operations_run, 9u);
    QCOMPARE(buffers[1], expected);
    // One region fewer than the stream names: refused before anything runs.
    LoupeNpuDeviceInit(device.get());
    QCOMPARE(
        LoupeNpuExecute(device.get(), compiled.commandStream.data(), compiled.commandStream.size(),
                        bases.data(), sizes.data(), bases.size() - 1),
        kTvmErrorNpuRegionInvalid);
    QCOMPARE(device->operations_run, 0u);
  }

  void theFunctionBindsEveryRegionAndRunsTheStreamOnce() {
    const ir::Graph graph = test::loadModel("kws_ref_model");
    const tir::PrimFunc func = lowerToNpuRegionFunction(graph, kwsRegion(graph), MacConfig::Macs128,
                                                        "tvmgen_default_npu_0");
    QCOMPARE(func.params.size(), std::size_t{10});
    QCOMPARE(func.params[0]->name, std::string("input_0"));
    QVERIFY(!func.params[0]->written);
    QCOMPARE(func.params[1]->name, std::string("output_0"));
    QCOMPARE(func.params[2]->name, std::string("intermediate_0"));
    QVERIFY(func.params[2]->written);
    QCOMPARE(func.attrs.at("region"), std::string("npu_0"));
    QVERIFY(func.attrs.at("region.intermediates").find("intermediate_7") != std::string::npos);
    QCOMPARE(func.attrs.at("npu.operations"), std::string("9 in one stream"));
    const std::string c = codegen::printCSource(func);
    QCOMPARE(count(c, "LoupeNpuRunStream(resource_handle"), std::size_t{1});
    QCOMPARE(count(c, "LoupeNpuSetRegion(resource_handle"), std::size_t{11});  // constants + 10
    QCOMPARE(count(c, "if (status != 0) return status;"), std::size_t{12});
    QVERIFY(c.find("restrict") == std::string::npos);
  }
};

QTEST_APPLESS_MAIN(NpuRegionCompilerTest)
#include "region_compiler_test.moc"
