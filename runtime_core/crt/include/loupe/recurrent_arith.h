/*
 * Per-element steps of the recurrent operators (SVDF and
 * UNIDIRECTIONAL_SEQUENCE_LSTM) that the quantised helpers of
 * fixed_point.h, quantized_arith.h and fixed_point_math.h do not already
 * cover, shared by the reference interpreter and the generated C so both
 * give TFLite Micro's bytes:
 *
 *  - TFLite's ActivationValFloat, the fused activation of the float SVDF
 *    (which, unlike other kernels, accepts TANH and SIGN_BIT);
 *
 * C99, header-only, no allocation; usable from C++. The float functions call
 * the C library (tanhf), so both sides must link the same libm.
 */
#ifndef LOUPE_RECURRENT_ARITH_H_
#define LOUPE_RECURRENT_ARITH_H_

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
      return tanhf(x);
    case LOUPE_SVDF_ACTIVATION_SIGN_BIT:
      return signbit(x) ? 1.0f : 0.0f;
    default:
      return x;
  }
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_RECURRENT_ARITH_H_ */
