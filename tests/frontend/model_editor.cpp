#include "model_editor.h"

#include <stdexcept>

#include "test_data.h"

namespace loupe::test {

ModelEditor::ModelEditor(const std::filesystem::path& path) {
  const auto bytes = readBytes(path);
  model_ = tflite::UnPackModel(bytes.data());
  if (!model_) throw std::runtime_error("cannot unpack " + path.string());
}

std::uint32_t ModelEditor::addOpcode(int builtinCode, int version, const std::string& customCode) {
  auto code = std::make_unique<tflite::OperatorCodeT>();
  code->builtin_code = builtinCode;
  code->deprecated_builtin_code = static_cast<std::int8_t>(builtinCode < 127 ? builtinCode : 127);
  code->version = version;
  code->custom_code = customCode;
  model_->operator_codes.push_back(std::move(code));
  return static_cast<std::uint32_t>(model_->operator_codes.size() - 1);
}

std::vector<std::uint8_t> ModelEditor::bytes() const {
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(tflite::Model::Pack(builder, model_.get()), tflite::ModelIdentifier());
  return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace loupe::test
