/*
 * Fused activation functions (RELU, RELU6, RELU_N1_TO_1) expressed as the
 * clamp range TFLite applies to an operator's output: in real numbers for
 * float kernels, in the output's quantised integers for int8/int16 kernels.
 * The ranges are computed once per operator (TFLite does it at Prepare time);
 * the code generator and the reference interpreter share these functions so
 * both clamp to the same integers. C99, header-only; usable from C++.
 */
#ifndef LOUPE_FUSED_ACTIVATION_H_
#define LOUPE_FUSED_ACTIVATION_H_

#include <float.h>
#include <stdint.h>

#include "loupe/fixed_point.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Same numbering as TFLite's ActivationFunctionType. TANH and SIGN_BIT are
 * not clamps; kernels that see them reject the operator. */
enum loupe_fused_activation {
  LOUPE_ACTIVATION_NONE = 0,
  LOUPE_ACTIVATION_RELU = 1,
  LOUPE_ACTIVATION_RELU_N1_TO_1 = 2,
  LOUPE_ACTIVATION_RELU6 = 3
};

/* TFLite's CalculateActivationRange<float>. */
static inline void loupe_float_activation_range(int activation, float* act_min, float* act_max) {
  switch (activation) {
    case LOUPE_ACTIVATION_RELU:
      *act_min = 0.0f;
      *act_max = FLT_MAX;
      break;
    case LOUPE_ACTIVATION_RELU6:
      *act_min = 0.0f;
      *act_max = 6.0f;
      break;
    case LOUPE_ACTIVATION_RELU_N1_TO_1:
      *act_min = -1.0f;
      *act_max = 1.0f;
      break;
    default:
      *act_min = -FLT_MAX;
      *act_max = FLT_MAX;
      break;
  }
}

/* TFLite's CalculateActivationRange<int32_t> (unquantised int32 kernels). */
static inline void loupe_int32_activation_range(int activation, int32_t* act_min,
                                                int32_t* act_max) {
  switch (activation) {
    case LOUPE_ACTIVATION_RELU:
      *act_min = 0;
      *act_max = INT32_MAX;
      break;
    case LOUPE_ACTIVATION_RELU6:
      *act_min = 0;
      *act_max = 6;
      break;
    case LOUPE_ACTIVATION_RELU_N1_TO_1:
      *act_min = -1;
      *act_max = 1;
      break;
    default:
      *act_min = INT32_MIN;
      *act_max = INT32_MAX;
      break;
  }
}

/* TFLite's CalculateActivationRangeQuantized: the clamp bounds quantised with
 * the output's scale and zero point (rounded in float, as TFLite does), then
 * intersected with the output type's range [qmin, qmax]. */
static inline void loupe_quantized_activation_range(int activation, float output_scale,
                                                    int32_t output_zero_point, int32_t qmin,
                                                    int32_t qmax, int32_t* act_min,
                                                    int32_t* act_max) {
  *act_min = qmin;
  *act_max = qmax;
  switch (activation) {
    case LOUPE_ACTIVATION_RELU:
      *act_min = loupe_max_i32(qmin, loupe_quantize_value(0.0f, output_scale, output_zero_point));
      break;
    case LOUPE_ACTIVATION_RELU6:
      *act_min = loupe_max_i32(qmin, loupe_quantize_value(0.0f, output_scale, output_zero_point));
      *act_max = loupe_min_i32(qmax, loupe_quantize_value(6.0f, output_scale, output_zero_point));
      break;
    case LOUPE_ACTIVATION_RELU_N1_TO_1:
      *act_min = loupe_max_i32(qmin, loupe_quantize_value(-1.0f, output_scale, output_zero_point));
      *act_max = loupe_min_i32(qmax, loupe_quantize_value(1.0f, output_scale, output_zero_point));
      break;
    default:
      break;
  }
}

/* TFLite's ActivationFunctionWithMinMax for float: max first, then min, with
 * the same comparisons as std::max/std::min so a NaN passes through. */
static inline float loupe_clamp_f32(float x, float act_min, float act_max) {
  const float lower = x < act_min ? act_min : x;
  return act_max < lower ? act_max : lower;
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_FUSED_ACTIVATION_H_ */
