// The golden data of tests/data/models as test cases: every golden set of
// every model (inputs, expected outputs, the per-tensor dump folder in
// ../shared when there is one) and every TFLM SEANet per-layer case.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace loupe::test {

struct GoldenSet {
  std::string name;  // "kws_ref_model/seed1"
  std::filesystem::path model;
  std::vector<std::filesystem::path> inputs;
  std::vector<std::filesystem::path> outputs;
  nlohmann::json manifest;
  std::optional<std::filesystem::path> tensorDumps;  // <set>/tensors when the set has a per-tensor dump
};

std::vector<GoldenSet> goldenSets();

struct SeanetCase {
  std::string name;  // "conv/conv3"
  std::filesystem::path model;
  std::vector<std::vector<std::int16_t>> inputs;
  std::vector<std::int16_t> expected;

  // The inputs and the expected output as raw little-endian bytes, the form
  // interpreters and generated code take.
  std::vector<std::vector<std::uint8_t>> inputBytes() const;
  std::vector<std::uint8_t> expectedBytes() const;
};

std::vector<SeanetCase> seanetCases();

// One line of comma-separated integers (the SEANet CSV format).
std::vector<std::int16_t> readInt16Csv(const std::filesystem::path& path);

}  // namespace loupe::test
