// How golden suites compare a tensor's bytes with the expected bytes:
// integer types exactly, float32 within a few ulp (TFLite's float results
// depend on the summation order), with a message that says where and how
// they first differ.
#pragma once

#include <QString>

#include <cstdint>
#include <span>
#include <string>

#include "deploy/reference_check.h"

namespace loupe::test {

// The tolerance Run on board allows too (deploy/reference_check.h).
using deploy::kMaxFloatUlps;
using deploy::ulpDistance;

// Empty when equal; otherwise where and how the bytes first differ. `dtype`
// is the manifest's spelling ("int8", "float32", ...).
QString compareBytes(std::span<const std::uint8_t> actual, std::span<const std::uint8_t> expected,
                     const std::string& dtype, std::uint32_t maxFloatUlps = kMaxFloatUlps);

}  // namespace loupe::test
