// Operators lowered for a Cortex-M CPU (plain Thumb, the DSP extension or
// MVE): the loop nests gather what a kernel of loupe/simd_kernels.h needs
// and call it once per output pixel, for all output channels. The scalar lowerings
// (lower_<op>.cpp) stay for what the kernels do not cover; nullopt says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "lowering/schedule.h"
#include "target/cpu_isa.h"
#include "tir/prim_func.h"

namespace loupe::lowering {

// CONV_2D (ops/conv2d_simd.cpp), Thumb, DSP or MVE: each pixel's window gathered into
// an int8 patch (read in place for a 1x1 convolution), then one kernel
// call accumulating with SMLAD or VMLADAVA and requantising. Covers int8
// input, filter and output with an int32 bias, no groups, accumulators
// that stay in int32 and multipliers >= 0 with shifts in [-31, 30].
std::optional<tir::PrimFunc> lowerConv2DSimd(const ir::Graph& graph, const ir::Operator& op,
                                             const std::string& functionName, target::CpuIsa isa,
                                             const Schedule& schedule);
// Its knobs on MVE: "channels" where they come in fours, 4 per step
// (loupe.mve.conv_pixels_4ch_s8) or 1; "pixels" where pixels can be
// grouped, 4 per call or 1.
std::vector<Knob> conv2DSimdKnobs(const ir::Graph& graph, const ir::Operator& op,
                                  target::CpuIsa isa);

// FULLY_CONNECTED (ops/fully_connected_simd.cpp), Thumb, DSP or MVE: each batch row
// is one call of the convolution kernel (the row is the patch, the units
// the channels). Covers int8 with symmetric weights (per tensor or per
// channel) and an int32 bias under the same requantisation conditions.
std::optional<tir::PrimFunc> lowerFullyConnectedSimd(const ir::Graph& graph, const ir::Operator& op,
                                                     const std::string& functionName,
                                                     target::CpuIsa isa, const Schedule& schedule);

// DEPTHWISE_CONV_2D (ops/depthwise_conv2d_simd.cpp), MVE: four channels per
// vector, one kernel call per pixel over the window's taps inside the
// input; the DSP extension: the same, four channels per SMLABB/SMLATT step;
// plain Thumb: the same, with pairs of adjacent 3x3 windows sharing their
// loads. Covers int8 with depth multiplier 1 under the same conditions.
std::optional<tir::PrimFunc> lowerDepthwiseConv2DSimd(const ir::Graph& graph,
                                                      const ir::Operator& op,
                                                      const std::string& functionName,
                                                      target::CpuIsa isa, const Schedule& schedule);
// Its knob for a 3x3 filter: "window", the kernel of the 3x3 windows inside
// the input ("3x3x16" on MVE where exact, "3x3x2" on Thumb, "3x3", "any").
std::vector<Knob> depthwiseConv2DSimdKnobs(const ir::Graph& graph, const ir::Operator& op,
                                           target::CpuIsa isa);

// ADD (ops/add_simd.cpp), MVE: one kernel call over the whole tensor, four
// elements per vector. Covers int8 inputs of the output's shape (no
// broadcasting), TFLite's rescaling of both inputs and of the sum.
std::optional<tir::PrimFunc> lowerAddSimd(const ir::Graph& graph, const ir::Operator& op,
                                          const std::string& functionName, target::CpuIsa isa,
                                          const Schedule& schedule);

// Whether one of the lowerings above covers `op` on `isa` (lower_operator.cpp).
bool hasSimdKernel(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa);
// The knobs of that kernel's variants (none where no kernel covers `op`).
std::vector<Knob> simdKernelKnobs(const ir::Graph& graph, const ir::Operator& op,
                                  target::CpuIsa isa);

// Whether a CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED has the operands
// the kernels take: int8 input, output and constant filter, and a constant
// int32 bias or none.
bool hasInt8KernelOperands(const ir::Tensor& input, const ir::Tensor& filter,
                           const ir::Tensor* bias, const ir::Tensor& output);

// The intrinsic of the convolution kernel for `isa` (not Scalar):
// "loupe.thumb.conv_pixel_s8", "loupe.dsp..." or "loupe.mve...".
std::string_view convKernelName(target::CpuIsa isa);

// A filter of `channels` rows of `length` int8 values laid out for the
// convolution kernel of `isa` (simd_conv_kernel.cpp): rows for MVE, four
// channels interleaved by four taps for the DSP extension, one word per tap
// of four channels for Thumb (thumb_conv_layout.cpp).
std::vector<std::int8_t> simdFilterLayout(const std::vector<std::int8_t>& rows, int channels,
                                          int length, target::CpuIsa isa);

// The same for MVE's four-channel kernel (loupe/mve_conv_pixels_4ch.h;
// `channels` a multiple of four): each group of four channels as
// ceil(length / 16) blocks of the four channels' next sixteen taps, the
// last block's taps past `length` zero.
std::vector<std::int8_t> mveFourChannelFilterLayout(const std::vector<std::int8_t>& rows,
                                                    int channels, int length);

}  // namespace loupe::lowering
