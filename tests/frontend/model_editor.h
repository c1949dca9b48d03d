// Opens a real .tflite file as an editable object tree (flatc's object API),
// so a test can break one thing about it and write it back out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "tflite_schema_generated.h"

namespace loupe::test {

class ModelEditor {
 public:
  explicit ModelEditor(const std::filesystem::path& path);

  tflite::ModelT& model() { return *model_; }
  tflite::SubGraphT& subgraph() { return *model_->subgraphs.at(0); }
  tflite::OperatorT& op(std::size_t index) { return *subgraph().operators.at(index); }
  tflite::TensorT& tensor(std::size_t index) { return *subgraph().tensors.at(index); }

  // Appends an operator code and returns its index.
  std::uint32_t addOpcode(int builtinCode, int version = 1, const std::string& customCode = "");

  std::vector<std::uint8_t> bytes() const;

 private:
  std::unique_ptr<tflite::ModelT> model_;
};

}  // namespace loupe::test
