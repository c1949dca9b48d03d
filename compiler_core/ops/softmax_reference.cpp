// SOFTMAX over the last dimension: float32, int8 -> int8, int8 -> int16 and
// int16 -> int16, as TFLite Micro's reference kernels compute it. The int8
// input path works in gemmlowp fixed point (exp of the scaled difference to
// the row maximum in Q5.26, sum in Q12.19, one reciprocal per row); the int16
// path uses the interpolated exp and 1/(1+x) tables.
#include <algorithm>
#include <limits>
#include <vector>

#include "loupe/fixed_point_math.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

struct Rows {
  std::int64_t count = 0;
  std::int64_t depth = 0;
};

Rows rowsOf(const ir::Tensor& tensor) {
  const std::int64_t depth = tensor.shape.empty() ? 1 : tensor.shape.back();
  return {depth == 0 ? 0 : tensor.elementCount() / depth, depth};
}

// TF_LITE_ENSURE_NEAR in float, as TFLM evaluates it.
bool scaleIsNear(float scale, float expected, float tolerance) {
  const float delta = scale > expected ? scale - expected : expected - scale;
  return !(delta > tolerance);
}

std::optional<std::string> checkQuantizedSoftmax(const ir::Tensor& input, const ir::Tensor& output,
                                                 float beta) {
  if (auto problem = checkPerTensorQuantization("input", input)) return problem;
  if (auto problem = checkPerTensorQuantization("output", output)) return problem;
  const float outputScale = output.quantization.scale();
  if (input.dtype == DType::Int16) {
    if (auto problem = checkZeroPoint("input", input, 0, "TFLM's int16 SOFTMAX is symmetric")) {
      return problem;
    }
    if (auto problem = checkZeroPoint("output", output, 0, "TFLM's int16 SOFTMAX is symmetric")) {
      return problem;
    }
    if (!scaleIsNear(outputScale, 1.f / 32768, 0.001f * 1.f / 32768)) {
      return describeTensor("output", output) + " must have scale 1/32768 (" +
             std::to_string(1.0 / 32768) + "), found " + std::to_string(outputScale);
    }
    return std::nullopt;
  }
  if (output.dtype == DType::Int16) {
    if (auto problem = checkZeroPoint("output", output, -32768,
                                      "TFLM maps int8 SOFTMAX's [0, 1) onto int16's full range")) {
      return problem;
    }
    if (!scaleIsNear(outputScale, 1.f / 65536, 0.001f * 1.f / 65536)) {
      return describeTensor("output", output) + " must have scale 1/65536 (" +
             std::to_string(1.0 / 65536) + "), found " + std::to_string(outputScale);
    }
  } else {
    if (auto problem = checkZeroPoint("output", output, -128,
                                      "TFLM maps int8 SOFTMAX's [0, 1) onto int8's full range")) {
      return problem;
    }
    if (outputScale != 1.f / 256) {
      return describeTensor("output", output) +
             " must have scale exactly 1/256 (0.00390625), found " + std::to_string(outputScale);
    }
  }
  // TFLite's QuantizeMultiplierGreaterThanOne aborts below this.
  const double realMultiplier = static_cast<double>(beta) *
                                static_cast<double>(input.quantization.scale()) *
                                static_cast<double>(1 << (31 - kSoftmaxScaledDiffIntegerBits));
  if (!(realMultiplier > 1.0)) {
    return "beta * input scale is " + std::to_string(realMultiplier / (1 << 26)) +
           "; TFLM needs it above 2^-26 to rescale input differences";
  }
  return std::nullopt;
}

std::optional<std::string> checkSoftmax(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkUnaryOperands(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const auto* attrs = std::get_if<ir::SoftmaxAttrs>(&op.attributes);
  if (attrs == nullptr) return std::string("SOFTMAX has no softmax attributes (beta)");
  if (input.shape.empty()) {
    return describeTensor("input", input) + " is a scalar; SOFTMAX needs at least one dimension";
  }
  if (input.shape != output.shape) {
    return describeTensor("output", output) + " must have the input's shape";
  }
  if (auto problem = checkDTypePair(op, input, output,
                                    {{DType::Float32, DType::Float32},
                                     {DType::Int8, DType::Int8},
                                     {DType::Int8, DType::Int16},
                                     {DType::Int16, DType::Int16}})) {
    return problem;
  }
  if (input.dtype == DType::Float32) return std::nullopt;
  return checkQuantizedSoftmax(input, output, attrs->beta);
}

void softmaxFloat(const float* input, float* output, Rows rows, float beta) {
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const float* in = input + row * rows.depth;
    float* out = output + row * rows.depth;
    // Subtracting the maximum keeps exp in range; the result is unchanged.
    float max = std::numeric_limits<float>::lowest();
    for (std::int64_t c = 0; c < rows.depth; ++c) max = std::max(max, in[c]);
    float sum = 0.f;
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      out[c] = loupe_expf((in[c] - max) * beta);
      sum += out[c];
    }
    for (std::int64_t c = 0; c < rows.depth; ++c) out[c] = out[c] / sum;
  }
}

// Every step is one of the scalar helpers of loupe/fixed_point_math.h that
// the generated C calls too.
template <typename OutputT>
void softmaxInt8(const std::int8_t* input, OutputT* output, Rows rows,
                 const SoftmaxInt8Params& params) {
  constexpr std::int32_t kOutputMin = std::numeric_limits<OutputT>::min();
  constexpr std::int32_t kOutputMax = std::numeric_limits<OutputT>::max();
  constexpr int kOutputBits = static_cast<int>(sizeof(OutputT) * 8);
  // exp(beta * scale * (x - max)) in Q0.31; 0 when it is negligible.
  auto expOfDifference = [&](std::int32_t difference) {
    return loupe_softmax_exp_q31(difference, params.diffMin, params.inputMultiplier,
                                 params.inputLeftShift);
  };
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const std::int8_t* in = input + row * rows.depth;
    OutputT* out = output + row * rows.depth;
    std::int8_t max = std::numeric_limits<std::int8_t>::min();
    for (std::int64_t c = 0; c < rows.depth; ++c) max = std::max(max, in[c]);

    std::int32_t sumOfExps = 0;  // Q12.19
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      sumOfExps =
          loupe_wrapping_add_i32(sumOfExps, loupe_softmax_sum_term(expOfDifference(in[c] - max)));
    }
    const std::int32_t reciprocal = loupe_softmax_reciprocal(sumOfExps);
    const int exponent = loupe_softmax_reciprocal_exponent(sumOfExps, kOutputBits);
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      out[c] = static_cast<OutputT>(loupe_softmax_output(expOfDifference(in[c] - max), reciprocal,
                                                         exponent, kOutputMin, kOutputMax));
    }
  }
}

void softmaxInt16(const std::int16_t* input, std::int16_t* output, Rows rows,
                  const SoftmaxInt16Params& params) {
  std::vector<std::int16_t> exps(static_cast<std::size_t>(rows.depth));
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const std::int16_t* in = input + row * rows.depth;
    std::int16_t* out = output + row * rows.depth;
    std::int16_t max = std::numeric_limits<std::int16_t>::min();
    for (std::int64_t c = 0; c < rows.depth; ++c) max = std::max(max, in[c]);

    std::int32_t sumOfExps = 0;  // Q16.15
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      // Differences in [-65535, 0] stand for [-10, 0]; re-centred on the table.
      const auto centred = static_cast<std::int16_t>(loupe_softmax_int16_exp_input(
          in[c] - max, params.inputMultiplier, params.inputLeftShift));
      exps[c] = loupe_lut_lookup_int16(centred, params.expLut.data());
      sumOfExps += exps[c];
    }
    // 1/sum through the 1/(1+x) table on the sum normalised to [1, 2).
    const std::int16_t reciprocal = loupe_lut_lookup_int16(
        static_cast<std::int16_t>(loupe_softmax_int16_reciprocal_input(sumOfExps)),
        params.oneOverOnePlusXLut.data());
    const int rightShift = loupe_softmax_int16_right_shift(sumOfExps);
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      out[c] =
          static_cast<std::int16_t>(loupe_softmax_int16_output(exps[c], reciprocal, rightShift));
    }
  }
}

void evalSoftmax(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const float beta = std::get<ir::SoftmaxAttrs>(op.attributes).beta;
  const Rows rows = rowsOf(input);
  const int in = op.inputs[0];
  const int out = op.outputs[0];
  if (input.dtype == DType::Float32) {
    softmaxFloat(store.data<float>(in), store.mutableData<float>(out), rows, beta);
  } else if (input.dtype == DType::Int16) {
    const auto params = softmaxInt16Params(input.quantization.scale(), beta);
    softmaxInt16(store.data<std::int16_t>(in), store.mutableData<std::int16_t>(out), rows, params);
  } else {
    const auto params = softmaxInt8Params(input.quantization.scale(), beta);
    if (output.dtype == DType::Int16) {
      softmaxInt8(store.data<std::int8_t>(in), store.mutableData<std::int16_t>(out), rows, params);
    } else {
      softmaxInt8(store.data<std::int8_t>(in), store.mutableData<std::int8_t>(out), rows, params);
    }
  }
}

}  // namespace

extern const Kernel kSoftmaxKernel{ir::OpType::Softmax, checkSoftmax, evalSoftmax};

}  // namespace loupe::reference
