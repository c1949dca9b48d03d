// What the codegen tests of the one-input operators (activations, QUANTIZE,
// DEQUANTIZE) share: a one-operator graph of a given shape and quantisation,
// inputs that reach the edges of the input type (every value of an 8-bit
// type once the tensor has 256 elements; min, max, 0, +-1 for int16 and
// int32; infinities, NaN, -0.0, extremes and denormals for float32) before
// random ones, and the comparison of generated C with the reference on them.
#pragma once

#include <QtTest>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/model_compiler.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "tir/tir_printer.h"

namespace loupe::test {

// One operator from input tensor "in" to output tensor "out".
struct UnaryCase {
  UnaryCase(ir::OpType type, ir::DType input, ir::Quantization inputQuant, ir::DType output,
            ir::Quantization outputQuant, ir::Attributes attributes = {}, float floatRange = 12.0f)
      : type(type),
        input(input),
        inputQuant(std::move(inputQuant)),
        output(output),
        outputQuant(std::move(outputQuant)),
        attributes(std::move(attributes)),
        floatRange(floatRange) {}

  ir::OpType type;
  ir::DType input;
  ir::Quantization inputQuant;
  ir::DType output;
  ir::Quantization outputQuant;
  ir::Attributes attributes;
  // Random float inputs are uniform in [-floatRange, floatRange].
  float floatRange;

  ir::Graph graph(const ir::Shape& shape) const {
    GraphBuilder g;
    const int in = g.tensor("in", input, shape, inputQuant);
    const int out = g.tensor("out", output, shape, outputQuant);
    g.op(type, {in}, {out}, attributes);
    return g.inputs({in}).outputs({out}).build();
  }
};

// A case with the name its test row shows.
struct NamedUnaryCase {
  const char* name;
  UnaryCase c;
};

// The case called `name` in a test's table of cases.
template <std::size_t N>
const UnaryCase& caseNamed(const NamedUnaryCase (&cases)[N], std::string_view name) {
  for (const NamedUnaryCase& c : cases) {
    if (name == c.name) return c.c;
  }
  throw std::invalid_argument("no case " + std::string(name));
}

// Shapes every case runs on: one element, an odd count below 256, and a 3-D
// shape of more than 256 elements (so 8-bit inputs take every value).
inline const std::vector<ir::Shape>& unaryShapes() {
  static const std::vector<ir::Shape> shapes = {{1}, {13}, {3, 5, 19}};
  return shapes;
}

template <typename T>
Bytes toBytes(const std::vector<T>& values) {
  Bytes bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// `edges` first, then (for 8-bit types) the other values of the type in a
// random order, then random values from `random`.
template <typename T, typename Random>
std::vector<T> edgeFirstValues(std::size_t count, std::vector<T> edges, std::mt19937& engine,
                               Random random) {
  std::vector<T> values = std::move(edges);
  if constexpr (sizeof(T) == 1) {
    std::vector<T> rest;
    for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
      if (std::find(values.begin(), values.end(), static_cast<T>(v)) == values.end()) {
        rest.push_back(static_cast<T>(v));
      }
    }
    std::shuffle(rest.begin(), rest.end(), engine);
    values.insert(values.end(), rest.begin(), rest.end());
  }
  while (values.size() < count) values.push_back(random());
  values.resize(count);
  return values;
}

template <typename T>
std::vector<T> integerEdgeValues(std::size_t count, std::uint32_t seed) {
  using Limits = std::numeric_limits<T>;
  std::mt19937 engine(seed);
  std::uniform_int_distribution<std::int64_t> any(Limits::min(), Limits::max());
  std::vector<T> edges = {Limits::min(), Limits::max(), 0, 1};
  if constexpr (std::is_signed_v<T>) edges.push_back(static_cast<T>(-1));
  edges.push_back(static_cast<T>(Limits::min() + 1));
  edges.push_back(static_cast<T>(Limits::max() - 1));
  if constexpr (sizeof(T) == 4) {
    // Mostly small magnitudes too, where int32 requantisation does not saturate.
    std::uniform_int_distribution<std::int32_t> small(-40000, 40000);
    bool wide = false;
    return edgeFirstValues<T>(count, edges, engine, [&] {
      wide = !wide;
      return static_cast<T>(wide ? any(engine) : small(engine));
    });
  }
  return edgeFirstValues<T>(count, edges, engine, [&] { return static_cast<T>(any(engine)); });
}

inline std::vector<float> floatEdgeValues(std::size_t count, float range, std::uint32_t seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> value(-range, range);
  const std::vector<float> edges = {0.0f,
                                    -0.0f,
                                    std::numeric_limits<float>::infinity(),
                                    -std::numeric_limits<float>::infinity(),
                                    std::numeric_limits<float>::quiet_NaN(),
                                    FLT_MAX,
                                    -FLT_MAX,
                                    std::numeric_limits<float>::denorm_min(),
                                    -FLT_MIN,
                                    1.0f,
                                    -1.0f,
                                    range,
                                    -range};
  return edgeFirstValues<float>(count, edges, engine, [&] { return value(engine); });
}

// Bytes for the graph's single input: edge values first, then random ones.
inline Bytes unaryInputBytes(const ir::Graph& graph, std::uint32_t seed, float floatRange) {
  const ir::Tensor& t = graph.tensor(graph.inputs.at(0));
  const auto count = static_cast<std::size_t>(t.elementCount());
  switch (t.dtype) {
    case ir::DType::Float32:
      return toBytes(floatEdgeValues(count, floatRange, seed));
    case ir::DType::Int8:
      return toBytes(integerEdgeValues<std::int8_t>(count, seed));
    case ir::DType::UInt8:
      return toBytes(integerEdgeValues<std::uint8_t>(count, seed));
    case ir::DType::Int16:
      return toBytes(integerEdgeValues<std::int16_t>(count, seed));
    default:
      return toBytes(integerEdgeValues<std::int32_t>(count, seed));
  }
}

// "" when generated C and the reference give the same bytes on `inputs`.
inline std::string differenceOn(const ir::Graph& graph, const std::vector<Bytes>& inputs) {
  const auto expected = runReference(graph, inputs);
  const auto actual = runGeneratedC(graph, inputs);
  if (actual.size() != expected.size()) return "output count differs";
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const std::string difference = firstDifference(actual[i], expected[i]);
    if (!difference.empty()) return "output " + std::to_string(i) + ": " + difference;
  }
  return {};
}

// QVERIFY that the case matches the reference on every shape of unaryShapes().
inline void expectUnaryCaseMatches(const UnaryCase& c, std::uint32_t seed = 1) {
  for (const ir::Shape& shape : unaryShapes()) {
    const ir::Graph graph = c.graph(shape);
    const std::string difference =
        differenceOn(graph, {unaryInputBytes(graph, seed, c.floatRange)});
    QVERIFY2(difference.empty(), (ir::shapeToString(shape) + ": " + difference).c_str());
  }
}

// The printed TIR of the case's only function, after simplification.
inline std::string unaryTir(const UnaryCase& c, const ir::Shape& shape = {3, 5, 19}) {
  return tir::printPrimFunc(codegen::compileToC(c.graph(shape), {}).functions.at(0));
}

// The message compileToC fails with, or "" when it compiles.
inline std::string compileError(const ir::Graph& graph) {
  try {
    codegen::compileToC(graph, {});
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace loupe::test
