/*
 * Per-element steps of the recurrent operators (SVDF and
 * UNIDIRECTIONAL_SEQUENCE_LSTM) that the quantised helpers of
 * fixed_point.h, quantized_arith.h and fixed_point_math.h do not already
 * cover, shared by the reference interpreter and the generated C so both
 * give TFLite Micro's bytes:
 *
 *  - TFLite's ActivationValFloat, the fused activation of the float SVDF
 *    (which, unlike other kernels, accepts TANH and SIGN_BIT);
 *  - the gate activations and cell clipping of the float LSTM;
 *  - the int16 gate and cell-state activations of the integer LSTM (TFLite
 *    Micro's lstm_internal Sigmoid and Tanh on its 256-entry table).
 *
 * The integer LSTM's other steps are the shared requantisation
 * (loupe_requantize_acc_i32/_i64: its fully connected layers into Q3.12 and
 * its element-wise products) and loupe_clamp_i32 (saturating int16 sums).
 *
 * C99, header-only, no allocation; usable from C++. The float functions use
 * Loupe's own tanhf and expf (loupe/loupe_libm.h), the same bits everywhere.
 */
#ifndef LOUPE_RECURRENT_ARITH_H_
#define LOUPE_RECURRENT_ARITH_H_

#include <math.h>
#include <stdint.h>

#include "loupe/fixed_point_math.h"
#include "loupe/loupe_libm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tanhf and expf of the recurrent kernels. They are Loupe's own plain
 * arithmetic, so a compiler that sees a constant argument (a clipped LSTM
 * cell state is exactly +-clip) and folds them gives the same bits, where
 * with the C library's it substituted its own correctly rounded value. */
static inline float loupe_runtime_tanhf(float x) {
  return loupe_libm_tanhf(x);
}

static inline float loupe_runtime_expf(float x) {
  return loupe_libm_expf(x);
}

/* TFLite's ActivationFunctionType numbering, TANH and SIGN_BIT included. */
enum loupe_svdf_activation {
  LOUPE_SVDF_ACTIVATION_NONE = 0,
  LOUPE_SVDF_ACTIVATION_RELU = 1,
  LOUPE_SVDF_ACTIVATION_RELU_N1_TO_1 = 2,
  LOUPE_SVDF_ACTIVATION_RELU6 = 3,
  LOUPE_SVDF_ACTIVATION_TANH = 4,
  LOUPE_SVDF_ACTIVATION_SIGN_BIT = 5
};

/* TFLite's ActivationValFloat. The comparisons are those of std::max(a, b)
 * (a < b ? b : a) and std::min(a, b) (b < a ? b : a), so NaN and -0.0 come
 * out as in TFLite. A constant `activation` lets the compiler drop the
 * switch. */
static inline float loupe_svdf_activation_f32(float x, int activation) {
  float upper;
  switch (activation) {
    case LOUPE_SVDF_ACTIVATION_RELU:
      return 0.0f < x ? x : 0.0f;
    case LOUPE_SVDF_ACTIVATION_RELU_N1_TO_1:
      upper = 1.0f < x ? 1.0f : x;
      return -1.0f < upper ? upper : -1.0f;
    case LOUPE_SVDF_ACTIVATION_RELU6:
      upper = 6.0f < x ? 6.0f : x;
      return 0.0f < upper ? upper : 0.0f;
    case LOUPE_SVDF_ACTIVATION_TANH:
      return loupe_runtime_tanhf(x);
    case LOUPE_SVDF_ACTIVATION_SIGN_BIT:
      return signbit(x) ? 1.0f : 0.0f;
    default:
      return x;
  }
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM, float32 ------------------------------ */

/* The input, forget and output gates: TFLite's reference Logistic with its
 * cut-offs (1 above, exp(x) below, where 1 / (1 + exp(-x)) rounds so). */
static inline float loupe_lstm_sigmoid_f32(float x) {
  if (x > 16.619047164916992188f) return 1.0f;
  if (x < -9.0f) return loupe_runtime_expf(x);
  return 1.0f / (1.0f + loupe_runtime_expf(-x));
}

/* The gates of TFLite's hybrid LSTM: its ApplySigmoidToVector
 * (tensor_utils.cc), 1 / (1 + exp(-x)) without the reference Logistic's
 * cut-offs. */
static inline float loupe_hybrid_lstm_sigmoid_f32(float x) {
  return 1.0f / (1.0f + loupe_runtime_expf(-x));
}

/* The cell gate and the cell state's activation. */
static inline float loupe_lstm_tanh_f32(float x) {
  return loupe_runtime_tanhf(x);
}

/* The cell state clipped to [-clip, clip] (clip > 0) as TFLite computes it,
 * std::max(std::min(clip, x), -clip): a NaN becomes clip. */
static inline float loupe_lstm_clip_f32(float x, float clip) {
  const float upper = x < clip ? x : clip;
  return upper < -clip ? -clip : upper;
}

/* ---- UNIDIRECTIONAL_SEQUENCE_LSTM, int8 and int16 ----------------------- */

/* The input, forget and output gates: a Q3.12 pre-activation to Q0.15. */
static inline int16_t loupe_lstm_sigmoid_int16(int16_t x) {
  return loupe_logistic_int16_lut(x, 0, 0);
}

/* tanh of an int16 value of scale 2^scale_power to Q0.15: the int16 TANH
 * with a left shift of 15 + scale_power - 3, or multiplier 3 and the
 * negated shift when that is negative (TFLite Micro's lstm_internal::Tanh).
 * The cell gate passes -12 (Q3.12), the cell state its scale's power. */
static inline int16_t loupe_lstm_tanh_int16(int16_t x, int scale_power) {
  int shift = 15 + scale_power - 3;
  int32_t multiplier = 0;
  if (shift < 0) {
    shift = -shift;
    multiplier = 3;
  }
  return loupe_tanh_int16_lut(x, multiplier, shift);
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_RECURRENT_ARITH_H_ */
