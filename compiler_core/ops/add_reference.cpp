// ADD with broadcasting. Follows TFLite Micro:
//   float32     a + b, then the fused activation's clamp;
//   int32       a + b (unquantised; TFLite Micro applies no fused activation);
//   int8/int16  the general rescaling path of loupe_add_element, left shift 20
//               for int8 and 15 for int16. TFLite Micro uses that path for
//               int16 whatever pot_scale_int16 says (it never takes TFLite's
//               power-of-two shortcut), so the flag is ignored here too.
#include <cstdint>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "ops/elementwise_binary_common.h"
#include "reference/kernel.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkAdd(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseBinary(
          graph, op, {ir::DType::Float32, ir::DType::Int8, ir::DType::Int16, ir::DType::Int32})) {
    return problem;
  }
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input1.dtype == ir::DType::Int32) {
    for (const auto& [role, t] : {std::pair{"input1", &input1}, {"input2", &input2}}) {
      if (t->quantization.isQuantized()) {
        return "int32 ADD is supported unquantised only; " + describeTensor(role, *t) +
               " has quantisation parameters";
      }
    }
  }
  if (input1.dtype == ir::DType::Int8 || input1.dtype == ir::DType::Int16) {
    if (auto problem = checkBinaryQuantization(graph, op)) return problem;
    if (auto problem = checkAddSubScales(ir::OpType::Add, input1, input2, output)) return problem;
  }
  return std::nullopt;
}

void evalAdd(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attributes);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  switch (output.dtype) {
    case ir::DType::Float32:
      evalFloatBinary(graph, op, store, attrs.activation, [](float a, float b) { return a + b; });
      break;
    case ir::DType::Int32:
      evalBinaryBroadcast<std::int32_t>(graph, op, store, [](std::int32_t a, std::int32_t b) {
        // Wraps like the two's-complement int32 sum TFLite computes.
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) +
                                         static_cast<std::uint32_t>(b));
      });
      break;
    default:
      evalQuantizedBinary(graph, op, store,
                          addSubParams(ir::OpType::Add, input1, input2, output, attrs.activation),
                          loupe_add_element);
      break;
  }
}

}  // namespace

extern const Kernel kAddKernel{ir::OpType::Add, checkAdd, evalAdd};

}  // namespace loupe::reference
