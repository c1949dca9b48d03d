#include "npu_test_support.h"

#include <memory>
#include <variant>

#include "frontend/tflite_importer.h"
#include "loupe/npu.h"
#include "test_data.h"

namespace loupe::test {

std::vector<std::string> npuModelNames() {
  return {"hello_world_int8", "micro_speech_quantized", "kws_ref_model",
          "vww_96_int8",      "ic_resnet8_int8",        "ad01_int8"};
}

ir::Graph loadModel(const std::string& name) {
  return frontend::importTfliteFile(modelsDir() / name / "model.tflite");
}

namespace {

// Stride 1..3, dilation 1..2, a dilated kernel up to maxKernel square.
bool windowFits(int kernelH, int kernelW, int strideH, int strideW, int dilationH, int dilationW,
                int maxKernel) {
  const auto within = [](int v, int lo, int hi) { return v >= lo && v <= hi; };
  return within(strideH, 1, 3) && within(strideW, 1, 3) && within(dilationH, 1, 2) &&
         within(dilationW, 1, 2) && (kernelH - 1) * dilationH + 1 <= maxKernel &&
         (kernelW - 1) * dilationW + 1 <= maxKernel;
}

}  // namespace

bool isNpuEligible(const ir::Graph& graph, const ir::Operator& op) {
  switch (op.type) {
    case ir::OpType::FullyConnected:
      break;
    case ir::OpType::Conv2D: {
      const auto& a = std::get<ir::Conv2DAttrs>(op.attributes);
      const ir::Shape& f = graph.input(op, 1)->shape;
      if (!windowFits(f[1], f[2], a.strideH, a.strideW, a.dilationH, a.dilationW, 64)) {
        return false;
      }
      break;
    }
    case ir::OpType::DepthwiseConv2D: {
      const auto& a = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
      const ir::Shape& f = graph.input(op, 1)->shape;
      if (a.depthMultiplier != 1 ||
          !windowFits(f[1], f[2], a.strideH, a.strideW, a.dilationH, a.dilationW, 64)) {
        return false;
      }
      break;
    }
    case ir::OpType::AveragePool2D:
    case ir::OpType::MaxPool2D: {
      const auto& a = std::get<ir::Pool2DAttrs>(op.attributes);
      if (!windowFits(a.filterH, a.filterW, a.strideH, a.strideW, 1, 1, 8)) return false;
      break;
    }
    case ir::OpType::Add:
    case ir::OpType::Sub:
    case ir::OpType::Mul:
      if (graph.input(op, 0)->shape != graph.input(op, 1)->shape) return false;
      break;
    default:
      return false;
  }
  return graph.input(op, 0)->dtype == ir::DType::Int8 &&
         graph.output(op, 0).dtype == ir::DType::Int8;
}

NpuRun runOnSoftwareNpu(const npu::NpuCompiledOperator& compiled,
                        const std::vector<std::uint8_t>& ifm, const std::vector<std::uint8_t>& ifm2,
                        std::size_t ofmBytes) {
  NpuRun run;
  run.ofm.assign(ofmBytes, 0);
  // Copies, so the NPU only ever sees buffers of exactly the stated sizes.
  std::vector<std::uint8_t> constants = compiled.legalized.constants;
  std::vector<std::uint8_t> in1 = ifm, in2 = ifm2;
  std::uint8_t* bases[LOUPE_NPU_REGION_COUNT] = {};
  std::size_t sizes[LOUPE_NPU_REGION_COUNT] = {};
  const auto bind = [&](int region, std::vector<std::uint8_t>& bytes) {
    bases[region] = bytes.empty() ? nullptr : bytes.data();
    sizes[region] = bytes.size();
  };
  bind(LOUPE_NPU_REGION_CONSTANTS, constants);
  bind(LOUPE_NPU_REGION_IFM, in1);
  bind(LOUPE_NPU_REGION_IFM2, in2);
  bind(LOUPE_NPU_REGION_OFM, run.ofm);
  auto device = std::make_unique<loupe_npu_device>();
  LoupeNpuDeviceInit(device.get());
  run.status = LoupeNpuExecute(device.get(), compiled.commandStream.data(),
                               compiled.commandStream.size(), bases, sizes, LOUPE_NPU_REGION_COUNT);
  return run;
}

}  // namespace loupe::test
