// What TFLite's hybrid kernels (float32 activations, int8 weights) share:
// each row of the float input quantised on the fly to int8 with a scale of its
// own (symmetric, or asymmetric with a zero point), in the reference
// interpreter and in TIR alike, both calling loupe/hybrid_quantize.h so every
// value comes from the same arithmetic; the weights' checks and per-row sums
// the asymmetric zero point multiplies; the clamping activations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "lowering/lowering_support.h"
#include "tir/prim_func.h"

namespace loupe::ops::hybrid {

// The scale and zero point TFLite's SymmetricQuantizeFloats (zero point 0)
// or AsymmetricQuantizeFloats gives a row, whose int8 values go to `out`.
struct RowQuantization {
  float scale = 1.0f;
  std::int32_t offset = 0;
};
RowQuantization quantizeRow(const float* row, std::int64_t length, bool asymmetric,
                            std::int8_t* out);

// The same in TIR: the row of `length` values of `input` from `start` into
// `quantized` from `quantizedStart`, then `then`, inside which `scale`
// (float32) and, when asymmetric, `offset` (int32) hold the row's scale and
// zero point. `lo`/`hi` are one-element float32 locals the caller allocates.
tir::Stmt quantizeRow(const tir::Buffer& input, const tir::Expr& start, std::int64_t length,
                      const tir::Buffer& quantized, bool asymmetric, const tir::Buffer& lo,
                      const tir::Buffer& hi, const tir::Var& scale, const tir::Var& offset,
                      tir::Stmt then, const tir::Expr& quantizedStart = 0);

// TFLite's IsZeroVector, negated, in TIR: flag[flagIndex] = 1 when any of
// the `count` values of `input` from `start` is not 0, else 0 (hybrid
// kernels skip the product of an all-zero operand).
tir::Stmt findNonZero(const tir::Buffer& input, const tir::Expr& start, std::int64_t count,
                      const tir::Buffer& flag, int flagIndex);

// Hybrid weights: int8, zero points 0, constant. nullopt when they are.
std::optional<std::string> checkWeights(const ir::Tensor& weights);

// One scale per weights' row (per-channel) when the weights carry several
// scales that are not all equal; TFLite runs weights whose scales are all one
// value as per-tensor.
bool hasChannelScales(const ir::Tensor& weights);

// Sums of `rows` rows of `depth` int8 values (the weights' rows the
// asymmetric zero point multiplies).
std::vector<std::int32_t> rowSums(const std::int8_t* values, std::int64_t rows, std::int64_t depth);

// nullopt for the activations Loupe's hybrid kernels take (none, RELU,
// RELU_N1_TO_1, RELU6), else why `opName` refuses `activation`.
std::optional<std::string> checkActivation(ir::Activation activation, const char* opName);

// TFLite's ApplyActivationToVector for the activations Loupe's hybrid
// kernels take: max(0, x), max(0, min(x, 6)), max(-1, min(x, 1)), with
// std::max(a, b) = (a < b) ? b : a and std::min(a, b) = (b < a) ? b : a
// (which decide the sign of a zero); any other activation leaves x.
float activate(float x, ir::Activation activation);
tir::Expr activate(const tir::Expr& x, ir::Activation activation);

}  // namespace loupe::ops::hybrid
