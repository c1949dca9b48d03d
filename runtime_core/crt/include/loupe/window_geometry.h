/*
 * Geometry of sliding-window operators (convolutions and pooling): the output
 * size and the implicit zero padding TFLite derives from SAME/VALID padding,
 * strides and dilation (tensorflow/lite/kernels/padding.h). Computed once per
 * operator; the reference interpreter and the code generator both call these
 * so a generated kernel walks exactly the windows the oracle walks.
 * C99, header-only; usable from C++.
 */
#ifndef LOUPE_WINDOW_GEOMETRY_H_
#define LOUPE_WINDOW_GEOMETRY_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Same numbering as TFLite's Padding enum in the schema. */
enum loupe_padding { LOUPE_PADDING_SAME = 0, LOUPE_PADDING_VALID = 1 };

/* Extent of a dilated filter: (filter_size - 1) * dilation + 1. */
static inline int loupe_effective_filter_size(int filter_size, int dilation) {
  return (filter_size - 1) * dilation + 1;
}

/* TFLite's ComputeOutSize (TensorFlow's GetWindowedOutputSize). Returns 0 for
 * a zero stride, as TFLite does. */
static inline int loupe_window_output_size(int padding, int image_size, int filter_size, int stride,
                                           int dilation) {
  const int effective = loupe_effective_filter_size(filter_size, dilation);
  if (stride == 0) return 0;
  if (padding == LOUPE_PADDING_SAME) return (image_size + stride - 1) / stride;
  return (image_size + stride - effective) / stride;
}

/* TFLite's ComputePaddingWithOffset: the padding before the first element
 * (returned) and, in *offset, the extra element of padding after the last one
 * when the total padding is odd. */
static inline int loupe_window_padding(int stride, int dilation, int image_size, int filter_size,
                                       int output_size, int* offset) {
  const int effective = loupe_effective_filter_size(filter_size, dilation);
  int total = (output_size - 1) * stride + effective - image_size;
  if (total < 0) total = 0;
  *offset = total % 2;
  return total / 2;
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_WINDOW_GEOMETRY_H_ */
