#include "reference/kernel.h"

namespace loupe::reference {

// Each kernel lives in its own file and defines one `const Kernel` object.
// The list is explicit so registration does not depend on static
// initialisation order or on the linker keeping unreferenced objects.
#define LOUPE_REFERENCE_KERNELS(X) \
  X(kReshapeKernel)                \
  X(kFullyConnectedKernel)         \
  X(kConv2DKernel)                 \
  X(kDepthwiseConv2DKernel)        \
  X(kAveragePool2DKernel)          \
  X(kMaxPool2DKernel)              \
  X(kAddKernel)                    \
  X(kSubKernel)                    \
  X(kMulKernel)                    \
  X(kPadKernel)                    \
  X(kPadV2Kernel)                  \
  X(kConcatenationKernel)          \
  X(kSqueezeKernel)                \
  X(kExpandDimsKernel)             \
  X(kTransposeKernel)              \
  X(kStridedSliceKernel)           \
  X(kMeanKernel)                   \
  X(kTransposeConvKernel)          \
  X(kSvdfKernel)                   \
  X(kSequenceLstmKernel)           \
  X(kSoftmaxKernel)                \
  X(kLogisticKernel)               \
  X(kTanhKernel)                   \
  X(kHardSwishKernel)              \
  X(kLeakyReluKernel)              \
  X(kReluKernel)                   \
  X(kRelu6Kernel)                  \
  X(kQuantizeKernel)               \
  X(kDequantizeKernel)

#define LOUPE_DECLARE_KERNEL(name) extern const Kernel name;
LOUPE_REFERENCE_KERNELS(LOUPE_DECLARE_KERNEL)
#undef LOUPE_DECLARE_KERNEL

namespace {
#define LOUPE_KERNEL_ADDRESS(name) &name,
constexpr const Kernel* kKernels[] = {LOUPE_REFERENCE_KERNELS(LOUPE_KERNEL_ADDRESS)};
#undef LOUPE_KERNEL_ADDRESS
}  // namespace

const Kernel* findKernel(ir::OpType type) {
  for (const Kernel* kernel : kKernels) {
    if (kernel->type == type) return kernel;
  }
  return nullptr;
}

std::span<const Kernel* const> allKernels() {
  return kKernels;
}

}  // namespace loupe::reference
