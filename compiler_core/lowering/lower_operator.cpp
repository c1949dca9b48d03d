#include "lowering/lower_operator.h"

#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "reference/kernel.h"

namespace loupe::lowering {

namespace {

LoweringRule ruleFor(ir::OpType type) {
  switch (type) {
    case ir::OpType::FullyConnected:
      return lowerFullyConnected;
    case ir::OpType::Conv2D:
      return lowerConv2D;
    case ir::OpType::DepthwiseConv2D:
      return lowerDepthwiseConv2D;
    case ir::OpType::AveragePool2D:
      return lowerAveragePool2D;
    case ir::OpType::MaxPool2D:
      return lowerMaxPool2D;
    case ir::OpType::Add:
      return lowerAdd;
    case ir::OpType::Sub:
      return lowerSub;
    case ir::OpType::Mul:
      return lowerMul;
    case ir::OpType::Softmax:
      return lowerSoftmax;
    case ir::OpType::Pad:
    case ir::OpType::PadV2:
      return lowerPad;
    case ir::OpType::Reshape:
    case ir::OpType::Squeeze:
    case ir::OpType::ExpandDims:
      return lowerCopy;
    case ir::OpType::Concatenation:
      return lowerConcatenation;
    case ir::OpType::Transpose:
      return lowerTranspose;
    case ir::OpType::StridedSlice:
      return lowerStridedSlice;
    case ir::OpType::Mean:
      return lowerMean;
    case ir::OpType::Logistic:
      return lowerLogistic;
    case ir::OpType::Tanh:
      return lowerTanh;
    case ir::OpType::Relu:
      return lowerRelu;
    case ir::OpType::Relu6:
      return lowerRelu6;
    case ir::OpType::LeakyRelu:
      return lowerLeakyRelu;
    case ir::OpType::HardSwish:
      return lowerHardSwish;
    case ir::OpType::Quantize:
      return lowerQuantize;
    case ir::OpType::Dequantize:
      return lowerDequantize;
    case ir::OpType::TransposeConv:
      return lowerTransposeConv;
    case ir::OpType::Svdf:
      return lowerSvdf;
    case ir::OpType::UnidirectionalSequenceLstm:
      return lowerSequenceLstm;
    default:
      return nullptr;
  }
}

}  // namespace

std::optional<std::string> loweringProblem(const ir::Graph& graph, const ir::Operator& op) {
  // The reference kernel's check states what the operator needs before any
  // loop is built, in the same words the interpreter uses.
  if (const reference::Kernel* kernel = reference::findKernel(op.type)) {
    if (auto problem = kernel->check(graph, op)) return problem;
  }
  if (ruleFor(op.type) == nullptr) {
    return op.type == ir::OpType::Opaque ? "no C lowering: the operator is opaque to the compiler"
                                         : "no C lowering for this operator type yet";
  }
  return std::nullopt;
}

namespace {

// The SIMD lowering of `op` for `isa`, or nullopt where no kernel covers it.
std::optional<tir::PrimFunc> lowerSimd(const ir::Graph& graph, const ir::Operator& op,
                                       const std::string& functionName, target::CpuIsa isa) {
  switch (op.type) {
    case ir::OpType::Conv2D:
      return lowerConv2DSimd(graph, op, functionName, isa);
    case ir::OpType::DepthwiseConv2D:
      return lowerDepthwiseConv2DSimd(graph, op, functionName, isa);
    case ir::OpType::FullyConnected:
      return lowerFullyConnectedSimd(graph, op, functionName, isa);
    case ir::OpType::Add:
      return lowerAddSimd(graph, op, functionName, isa);
    default:
      return std::nullopt;
  }
}

}  // namespace

bool hasSimdKernel(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa) {
  if (isa == target::CpuIsa::Scalar || loweringProblem(graph, op)) return false;
  return lowerSimd(graph, op, "probe", isa).has_value();
}

tir::PrimFunc lowerOperator(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName, target::CpuIsa isa,
                            const Schedule& schedule) {
  if (auto problem = loweringProblem(graph, op)) fail(op, *problem);
  // The SIMD lowerings say nullopt for what their kernels do not cover.
  if (usesSimdKernel(schedule)) {
    if (auto simd = lowerSimd(graph, op, functionName, isa)) return std::move(*simd);
  }
  return ruleFor(op.type)(graph, op, functionName);
}

}  // namespace loupe::lowering
