#include "golden_sets.h"

#include <cstring>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "test_data.h"

namespace loupe::test {

namespace fs = std::filesystem;

namespace {
std::vector<fs::path> sortedEntries(const fs::path& dir) {
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(dir)) entries.push_back(entry.path());
  std::sort(entries.begin(), entries.end());
  return entries;
}
}  // namespace

std::vector<GoldenSet> goldenSets() {
  std::vector<GoldenSet> sets;
  for (const auto& modelDir : sortedEntries(modelsDir())) {
    if (!fs::exists(modelDir / "model.tflite") || !fs::is_directory(modelDir / "golden")) continue;
    for (const auto& setDir : sortedEntries(modelDir / "golden")) {
      GoldenSet set;
      set.name = modelDir.filename().string() + "/" + setDir.filename().string();
      set.model = modelDir / "model.tflite";
      std::ifstream manifest(setDir / "manifest.json");
      set.manifest = nlohmann::json::parse(manifest);
      for (const auto& input : set.manifest["inputs"]) {
        set.inputs.push_back(setDir / input["file"].get<std::string>());
      }
      for (const auto& output : set.manifest["outputs"]) {
        set.outputs.push_back(setDir / output["file"].get<std::string>());
      }
      if (fs::is_directory(setDir / "tensors")) set.tensorDumps = setDir / "tensors";
      sets.push_back(std::move(set));
    }
  }
  return sets;
}

std::vector<std::int16_t> readInt16Csv(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::vector<std::int16_t> values;
  std::string field;
  while (std::getline(in, field, ',')) {
    std::istringstream number(field);
    long value;
    if (number >> value) values.push_back(static_cast<std::int16_t>(value));
  }
  return values;
}

std::vector<SeanetCase> seanetCases() {
  std::vector<SeanetCase> cases;
  const fs::path root = modelsDir() / "tflm_seanet";
  for (const char* op : {"add", "conv", "pad"}) {
    for (const auto& path : sortedEntries(root / op)) {
      if (path.extension() != ".tflite") continue;
      const std::string stem = path.stem().string();
      SeanetCase c;
      c.name = std::string(op) + "/" + stem;
      c.model = path;
      for (int i = 0;; ++i) {
        const auto input = root / op / (stem + "_input" + std::to_string(i) + "_int16.csv");
        if (!fs::exists(input)) break;
        c.inputs.push_back(readInt16Csv(input));
      }
      c.expected = readInt16Csv(root / op / (stem + "_golden_int16.csv"));
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

namespace {

std::vector<std::uint8_t> bytesOf(const std::vector<std::int16_t>& values) {
  std::vector<std::uint8_t> bytes(values.size() * sizeof(std::int16_t));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace

std::vector<std::vector<std::uint8_t>> SeanetCase::inputBytes() const {
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& values : inputs) out.push_back(bytesOf(values));
  return out;
}

std::vector<std::uint8_t> SeanetCase::expectedBytes() const {
  return bytesOf(expected);
}

}  // namespace loupe::test
