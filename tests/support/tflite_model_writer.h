// Writes small TFLite models in tests with the schema's object API, as the
// TFLite converter would: tensors (with constant data), operators with their
// builtin options, and several subgraphs (CALL_ONCE's init, IF's branches,
// WHILE's cond and body), then imports them.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "frontend/tflite_importer.h"
#include "tflite_schema_generated.h"

namespace loupe::test {

using Bytes = std::vector<std::uint8_t>;

template <typename T>
Bytes bytesOf(const std::vector<T>& values) {
  Bytes bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> valuesOf(const Bytes& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

class TfliteModelWriter {
 public:
  TfliteModelWriter() {
    model_.version = 3;
    model_.buffers.push_back(std::make_unique<tflite::BufferT>());  // the empty buffer 0
  }

  // A new subgraph; the first is the main one.
  tflite::SubGraphT& subgraph(const std::string& name = {}) {
    model_.subgraphs.push_back(std::make_unique<tflite::SubGraphT>());
    model_.subgraphs.back()->name = name;
    return *model_.subgraphs.back();
  }

  int tensor(tflite::SubGraphT& g, const std::string& name, tflite::TensorType type,
             std::vector<std::int32_t> shape, const Bytes& data = {}) {
    auto t = std::make_unique<tflite::TensorT>();
    t->name = name;
    t->type = type;
    t->shape = std::move(shape);
    if (!data.empty()) {
      auto buffer = std::make_unique<tflite::BufferT>();
      buffer->data = data;
      model_.buffers.push_back(std::move(buffer));
      t->buffer = static_cast<std::uint32_t>(model_.buffers.size() - 1);
    }
    g.tensors.push_back(std::move(t));
    return static_cast<int>(g.tensors.size() - 1);
  }

  // Gives tensor `t` of `g` per-tensor (one scale) or per-channel quantisation.
  void quantize(tflite::SubGraphT& g, int t, std::vector<float> scales,
                std::vector<std::int64_t> zeroPoints) {
    auto q = std::make_unique<tflite::QuantizationParametersT>();
    q->scale = std::move(scales);
    q->zero_point = std::move(zeroPoints);
    g.tensors.at(static_cast<std::size_t>(t))->quantization = std::move(q);
  }

  template <typename Options>
  void op(tflite::SubGraphT& g, std::int32_t code, std::vector<std::int32_t> inputs,
          std::vector<std::int32_t> outputs, Options options) {
    auto o = std::make_unique<tflite::OperatorT>();
    o->opcode_index = opcode(code);
    o->inputs = std::move(inputs);
    o->outputs = std::move(outputs);
    o->builtin_options.Set(std::move(options));
    g.operators.push_back(std::move(o));
  }

  // The model file's bytes.
  Bytes bytes() const {
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(tflite::Model::Pack(builder, &model_), tflite::ModelIdentifier());
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
  }

  ir::Graph import() const { return frontend::importTflite(bytes()); }

 private:
  std::uint32_t opcode(std::int32_t code) {
    for (std::size_t i = 0; i < model_.operator_codes.size(); ++i) {
      if (model_.operator_codes[i]->builtin_code == code) return static_cast<std::uint32_t>(i);
    }
    auto c = std::make_unique<tflite::OperatorCodeT>();
    c->builtin_code = code;
    c->deprecated_builtin_code = static_cast<std::int8_t>(code < 127 ? code : 127);
    c->version = 1;
    model_.operator_codes.push_back(std::move(c));
    return static_cast<std::uint32_t>(model_.operator_codes.size() - 1);
  }

  tflite::ModelT model_;
};

}  // namespace loupe::test
