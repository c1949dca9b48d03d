/* Compiled as strict C99 (-pedantic -Werror) in every build, so that the
 * headers shared with the generated C stay plain C99. */
#include "loupe/elementwise_unary.h"
#include "loupe/fixed_point.h"
#include "loupe/fixed_point_math.h"
#include "loupe/float_math.h"
#include "loupe/loupe_libm.h"
#include "loupe/quantized_mean.h"
#include "loupe/recurrent_arith.h"

int loupe_header_check_logistic_of_zero(void);
int loupe_header_check_logistic_of_zero(void) {
  return loupe_logistic_q31(0, 4) == (1 << 30);
}
