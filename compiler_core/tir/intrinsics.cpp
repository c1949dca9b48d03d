#include "tir/intrinsics.h"

#include <array>

namespace loupe::tir {

namespace {

constexpr std::string_view kArith = "loupe/quantized_arith.h";
constexpr std::string_view kFixed = "loupe/fixed_point.h";
constexpr std::string_view kMath = "loupe/fixed_point_math.h";
constexpr std::string_view kActivation = "loupe/fused_activation.h";
constexpr std::string_view kMean = "loupe/quantized_mean.h";
constexpr std::string_view kUnary = "loupe/elementwise_unary.h";
constexpr std::string_view kRecurrent = "loupe/recurrent_arith.h";
constexpr std::string_view kSimd = "loupe/simd_kernels.h";
constexpr std::string_view kDspDepthwise = "loupe/dsp_depthwise_kernels.h";
constexpr std::string_view kThumbConv = "loupe/thumb_conv_kernels.h";
constexpr std::string_view kThumbDepthwise = "loupe/thumb_depthwise_kernels.h";
constexpr std::string_view kIndex = "loupe/index_check.h";
constexpr std::string_view kFloat = "loupe/float_math.h";
constexpr std::string_view kHybrid = "loupe/hybrid_quantize.h";

constexpr std::array kIntrinsics = {
    Intrinsic{"loupe.requantize_i32", "loupe_requantize_acc_i32", ScalarType::Int32, 6, kArith},
    Intrinsic{"loupe.requantize_i64", "loupe_requantize_acc_i64", ScalarType::Int32, 5, kArith},
    Intrinsic{"loupe.requantize_i32_split_shift", "loupe_requantize_acc_i32_split_shift",
              ScalarType::Int32, 7, kArith},
    Intrinsic{"loupe.average_pool_round", "loupe_average_pool_round", ScalarType::Int32, 2, kArith},
    Intrinsic{"loupe.add_sub_rescale_input", "loupe_add_sub_rescale_input", ScalarType::Int32, 5,
              kArith},
    Intrinsic{"loupe.multiply_by_quantized_multiplier", "loupe_multiply_by_quantized_multiplier",
              ScalarType::Int32, 3, kFixed},
    Intrinsic{"loupe.multiply_by_quantized_multiplier_smaller_than_one",
              "loupe_multiply_by_quantized_multiplier_smaller_than_one", ScalarType::Int32, 3,
              kFixed},
    Intrinsic{"loupe.multiply_by_quantized_multiplier_greater_than_one",
              "loupe_multiply_by_quantized_multiplier_greater_than_one", ScalarType::Int32, 3,
              kFixed},
    Intrinsic{"loupe.rounding_divide_by_pot", "loupe_rounding_divide_by_pot", ScalarType::Int32, 2,
              kFixed},
    Intrinsic{"loupe.clamp_i32", "loupe_clamp_i32", ScalarType::Int32, 3, kFixed},
    // A status: 0 for an index in [0, limit), else the error GATHER returns.
    Intrinsic{"loupe.check_index", "loupe_check_index", ScalarType::Int32, 2, kIndex, false},
    Intrinsic{"loupe.clamp_f32", "loupe_clamp_f32", ScalarType::Float32, 3, kActivation},
    Intrinsic{"loupe.add_sub_requantize", "loupe_add_sub_requantize", ScalarType::Int32, 6, kArith},
    Intrinsic{"loupe.wrapping_add_i32", "loupe_wrapping_add_i32", ScalarType::Int32, 2, kMath},
    // int8-input SOFTMAX: exp of (x - row max), its Q12.19 sum term, the
    // row's reciprocal and shift, one output.
    Intrinsic{"loupe.softmax_exp_q31", "loupe_softmax_exp_q31", ScalarType::Int32, 4, kMath},
    Intrinsic{"loupe.softmax_sum_term", "loupe_softmax_sum_term", ScalarType::Int32, 1, kMath},
    Intrinsic{"loupe.softmax_reciprocal", "loupe_softmax_reciprocal", ScalarType::Int32, 1, kMath},
    Intrinsic{"loupe.softmax_reciprocal_exponent", "loupe_softmax_reciprocal_exponent",
              ScalarType::Int32, 2, kMath},
    Intrinsic{"loupe.softmax_output", "loupe_softmax_output", ScalarType::Int32, 5, kMath},
    // int16 SOFTMAX around its two interpolated tables.
    Intrinsic{"loupe.lut_interpolate_int16", "loupe_lut_interpolate_int16", ScalarType::Int16, 3,
              kMath},
    Intrinsic{"loupe.softmax_int16_exp_input", "loupe_softmax_int16_exp_input", ScalarType::Int32,
              3, kMath},
    Intrinsic{"loupe.softmax_int16_reciprocal_input", "loupe_softmax_int16_reciprocal_input",
              ScalarType::Int32, 1, kMath},
    Intrinsic{"loupe.softmax_int16_right_shift", "loupe_softmax_int16_right_shift",
              ScalarType::Int32, 1, kMath},
    Intrinsic{"loupe.softmax_int16_output", "loupe_softmax_int16_output", ScalarType::Int32, 3,
              kMath},
    Intrinsic{"loupe.expf", "loupe_expf", ScalarType::Float32, 1, kMath},
    Intrinsic{"loupe.count_leading_zeros", "loupe_count_leading_zeros_u32", ScalarType::Int32, 1,
              kMath},
    // The float32 math functions (loupe/float_math.h; logf, sinf, cosf and
    // expm1f are Loupe's own, loupe/loupe_libm.h).
    Intrinsic{"loupe.sqrtf", "loupe_sqrtf", ScalarType::Float32, 1, kFloat},
    Intrinsic{"loupe.logf", "loupe_logf", ScalarType::Float32, 1, kFloat},
    Intrinsic{"loupe.sinf", "loupe_sinf", ScalarType::Float32, 1, kFloat},
    Intrinsic{"loupe.cosf", "loupe_cosf", ScalarType::Float32, 1, kFloat},
    Intrinsic{"loupe.floorf", "loupe_floorf", ScalarType::Float32, 1, kFloat},
    Intrinsic{"loupe.ceilf", "loupe_ceilf", ScalarType::Float32, 1, kFloat},
    Intrinsic{"loupe.fmodf", "loupe_fmodf", ScalarType::Float32, 2, kFloat},
    Intrinsic{"loupe.expm1f", "loupe_expm1f", ScalarType::Float32, 1, kFloat},
    // TFLite's on-the-fly input quantisation of hybrid kernels.
    Intrinsic{"loupe.hybrid_symmetric_scale", "loupe_hybrid_symmetric_scale", ScalarType::Float32,
              2, kHybrid},
    Intrinsic{"loupe.hybrid_symmetric_inverse", "loupe_hybrid_symmetric_inverse",
              ScalarType::Float32, 2, kHybrid},
    Intrinsic{"loupe.hybrid_quantize_symmetric", "loupe_hybrid_quantize_symmetric",
              ScalarType::Int32, 2, kHybrid},
    Intrinsic{"loupe.hybrid_asymmetric_scale", "loupe_hybrid_asymmetric_scale", ScalarType::Float32,
              2, kHybrid},
    Intrinsic{"loupe.hybrid_asymmetric_offset", "loupe_hybrid_asymmetric_offset", ScalarType::Int32,
              2, kHybrid},
    Intrinsic{"loupe.hybrid_quantize_asymmetric", "loupe_hybrid_quantize_asymmetric",
              ScalarType::Int32, 3, kHybrid},
    // int8/int16 MEAN whose input and output quantisations differ.
    Intrinsic{"loupe.mean_requantize", "loupe_mean_requantize", ScalarType::Int32, 7, kMean},
    // One element of the one-input operators with int16, int32 or float32
    // input (8-bit inputs read compile-time tables of the same functions).
    Intrinsic{"loupe.logistic_f32", "loupe_logistic_f32", ScalarType::Float32, 1, kUnary},
    Intrinsic{"loupe.logistic_int16_lut", "loupe_logistic_int16_lut", ScalarType::Int16, 3, kMath},
    Intrinsic{"loupe.tanh_f32", "loupe_tanh_f32", ScalarType::Float32, 1, kUnary},
    Intrinsic{"loupe.tanh_int16_lut", "loupe_tanh_int16_lut", ScalarType::Int16, 3, kMath},
    Intrinsic{"loupe.relu_f32", "loupe_relu_f32", ScalarType::Float32, 1, kUnary},
    Intrinsic{"loupe.relu_quantized", "loupe_relu_quantized", ScalarType::Int32, 7, kUnary},
    Intrinsic{"loupe.relu6_f32", "loupe_relu6_f32", ScalarType::Float32, 1, kUnary},
    Intrinsic{"loupe.relu6_quantized", "loupe_relu6_quantized", ScalarType::Int32, 3, kUnary},
    Intrinsic{"loupe.leaky_relu_f32", "loupe_leaky_relu_f32", ScalarType::Float32, 2, kUnary},
    Intrinsic{"loupe.leaky_relu_quantized", "loupe_leaky_relu_quantized", ScalarType::Int32, 9,
              kUnary},
    Intrinsic{"loupe.hard_swish_f32", "loupe_hard_swish_f32", ScalarType::Float32, 1, kUnary},
    Intrinsic{"loupe.quantize_f32", "loupe_quantize_f32", ScalarType::Int32, 5, kUnary},
    Intrinsic{"loupe.requantize", "loupe_requantize", ScalarType::Int32, 7, kUnary},
    Intrinsic{"loupe.dequantize", "loupe_dequantize", ScalarType::Float32, 3, kUnary},
    // SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM.
    Intrinsic{"loupe.svdf_activation_f32", "loupe_svdf_activation_f32", ScalarType::Float32, 2,
              kRecurrent},
    Intrinsic{"loupe.lstm_sigmoid_f32", "loupe_lstm_sigmoid_f32", ScalarType::Float32, 1,
              kRecurrent},
    Intrinsic{"loupe.lstm_tanh_f32", "loupe_lstm_tanh_f32", ScalarType::Float32, 1, kRecurrent},
    Intrinsic{"loupe.hybrid_lstm_sigmoid_f32", "loupe_hybrid_lstm_sigmoid_f32", ScalarType::Float32,
              1, kRecurrent},
    Intrinsic{"loupe.lstm_clip_f32", "loupe_lstm_clip_f32", ScalarType::Float32, 2, kRecurrent},
    Intrinsic{"loupe.lstm_sigmoid_int16", "loupe_lstm_sigmoid_int16", ScalarType::Int16, 1,
              kRecurrent},
    Intrinsic{"loupe.lstm_tanh_int16", "loupe_lstm_tanh_int16", ScalarType::Int16, 2, kRecurrent},
    // Every output channel of one int8 convolution pixel from its patch
    // (loupe/simd_kernels.h): plain Thumb, the DSP extension's SMLAD, MVE.
    Intrinsic{"loupe.thumb.conv_pixel_s8", "loupe_conv_pixel_s8_thumb_smlal", ScalarType::Void, 11,
              kThumbConv, false},
    Intrinsic{"loupe.dsp.conv_pixel_s8", "loupe_conv_pixel_s8_dsp", ScalarType::Void, 11, kSimd,
              false},
    Intrinsic{"loupe.mve.conv_pixel_s8", "loupe_conv_pixel_s8_mve", ScalarType::Void, 11, kSimd,
              false},
    // The same for several pixels' patches one after the other (MVE: four
    // pixels by one channel per step, loupe/mve_conv_pixels.h).
    Intrinsic{"loupe.mve.conv_pixels_s8", "loupe_conv_pixels_s8_mve", ScalarType::Void, 12,
              "loupe/mve_conv_pixels.h", false},
    // The same two pixels by four channels per step, for channels in fours
    // and the filter in its own layout (loupe/mve_conv_pixels_4ch.h).
    Intrinsic{"loupe.mve.conv_pixels_4ch_s8", "loupe_conv_pixels_4ch_s8_mve", ScalarType::Void, 12,
              "loupe/mve_conv_pixels_4ch.h", false},
    // Every channel of one int8 depthwise pixel, four per MVE vector.
    Intrinsic{"loupe.mve.dw_pixel_s8", "loupe_dw_pixel_s8_mve", ScalarType::Void, 16, kSimd, false},
    // The same for a 3x3 window inside the input, unrolled.
    Intrinsic{"loupe.mve.dw_3x3_s8", "loupe_dw_3x3_s8_mve", ScalarType::Void, 12, kSimd, false},
    // Sixteen channels per vector, for weights in [-127, 127].
    Intrinsic{"loupe.mve.dw_3x3_x16_s8", "loupe_dw_3x3_x16_s8_mve", ScalarType::Void, 12,
              "loupe/mve_depthwise_3x3_x16.h", false},
    // The same for a 3x3 window clipped by the input's edge.
    Intrinsic{"loupe.mve.dw_3x3_clipped_x16_s8", "loupe_dw_3x3_clipped_x16_s8_mve",
              ScalarType::Void, 17, "loupe/mve_depthwise_3x3_x16.h", false},
    Intrinsic{"loupe.mve.dw_3x3_clipped_inline_x16_s8", "loupe_dw_3x3_clipped_inline_x16_s8_mve",
              ScalarType::Void, 17, "loupe/mve_depthwise_3x3_x16.h", false},
    // Plain Thumb depthwise (loupe/thumb_depthwise_kernels.h): any window,
    // a 3x3 window inside the input, and two adjacent such windows.
    Intrinsic{"loupe.thumb.dw_pixel_s8", "loupe_dw_pixel_s8_thumb", ScalarType::Void, 16,
              kThumbDepthwise, false},
    Intrinsic{"loupe.thumb.dw_3x3_s8", "loupe_dw_3x3_s8_thumb", ScalarType::Void, 12,
              kThumbDepthwise, false},
    Intrinsic{"loupe.thumb.dw_3x3_x2_s8", "loupe_dw_3x3_x2_s8_thumb", ScalarType::Void, 13,
              kThumbDepthwise, false},
    // DSP-extension depthwise (loupe/dsp_depthwise_kernels.h), four channels
    // per step (SMLABB/SMLATT): any window, a 3x3 window inside the input.
    Intrinsic{"loupe.dsp.dw_pixel_s8", "loupe_dw_pixel_s8_dsp", ScalarType::Void, 16, kDspDepthwise,
              false},
    Intrinsic{"loupe.dsp.dw_3x3_s8", "loupe_dw_3x3_s8_dsp", ScalarType::Void, 12, kDspDepthwise,
              false},
    // A whole int8 ADD without broadcasting, four elements per MVE vector.
    Intrinsic{"loupe.mve.add_s8", "loupe_add_s8_mve", ScalarType::Void, 16, kSimd, false},
};

}  // namespace

std::span<const Intrinsic> allIntrinsics() {
  return kIntrinsics;
}

std::optional<Intrinsic> findIntrinsic(std::string_view name) {
  for (const Intrinsic& intrinsic : kIntrinsics) {
    if (intrinsic.name == name) return intrinsic;
  }
  return std::nullopt;
}

}  // namespace loupe::tir
