// C99 from TIR: one PrimFunc becomes one translation unit with its constants
// (static const arrays, so they stay in flash) and the function itself, whose
// statements mirror the TIR statement for statement. Nothing is added that
// the TIR does not say, so the TIR view shows what runs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tir/prim_func.h"

namespace loupe::codegen {

// The C prototype, e.g. "int32_t f(const int8_t* restrict input, ...)",
// without a trailing semicolon. Every operator function ends with the
// resource_handle argument of rfcs/001 (the device, or NULL).
std::string cPrototype(const tir::PrimFunc& func);

// A complete .c file: includes, constants, the function.
std::string printCSource(const tir::PrimFunc& func);

// Receives C text piece by piece.
using CTextSink = std::function<void(std::string_view piece)>;

// The same text, handed to `sink` in pieces of at most a few hundred
// kilobytes: a large constant's values are never held as one string (the
// Model Library Format export writes them into the archive as they come).
void printCSource(const tir::PrimFunc& func, const CTextSink& sink);

// The elements of `bytes` as a C initializer list of `type` literals,
// comma-separated over lines of 16 (the inside of "{...}").
std::string cInitializerValues(const std::vector<std::uint8_t>& bytes, tir::ScalarType type);

// One expression as C (for tests and for the AOT printer).
std::string printCExpr(const tir::Expr& expr);

}  // namespace loupe::codegen
