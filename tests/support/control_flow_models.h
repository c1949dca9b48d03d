// Models with IF and WHILE written with the schema's object API, for the
// control-flow tests (generated C on the host, firmware on the boards): TFLite
// Micro's own kernel-test models - IF choosing between an ADD and a MUL
// subgraph, WHILE adding while LESS holds - and a loop whose body holds an IF,
// with intermediate tensors and constants in the subgraphs.
#pragma once

#include "tflite_model_writer.h"

namespace loupe::test::control_flow {

using tflite::TensorType;

// TFLite's builtin operator codes.
constexpr std::int32_t kAdd = 0, kMul = 18, kLess = 58, kIf = 118, kWhile = 119;

inline tflite::IfOptionsT ifOptions(int thenIndex, int elseIndex) {
  tflite::IfOptionsT options;
  options.then_subgraph_index = thenIndex;
  options.else_subgraph_index = elseIndex;
  return options;
}

inline tflite::WhileOptionsT whileOptions(int condIndex, int bodyIndex) {
  tflite::WhileOptionsT options;
  options.cond_subgraph_index = condIndex;
  options.body_subgraph_index = bodyIndex;
  return options;
}

// A subgraph computing `code`(a, b) over two float [1, 2] inputs.
inline void binarySubgraph(test::TfliteModelWriter& w, std::int32_t code) {
  tflite::SubGraphT& g = w.subgraph();
  const int a = w.tensor(g, "a", TensorType::FLOAT32, {1, 2});
  const int b = w.tensor(g, "b", TensorType::FLOAT32, {1, 2});
  const int out = w.tensor(g, "out", TensorType::FLOAT32, {1, 2});
  g.inputs = {a, b};
  g.outputs = {out};
  if (code == kAdd) {
    w.op(g, code, {a, b}, {out}, tflite::AddOptionsT{});
  } else {
    w.op(g, code, {a, b}, {out}, tflite::MulOptionsT{});
  }
}

// TFLM's if_test model: IF(cond, x, y) with then = ADD, else = MUL.
// `thenIndex` may point elsewhere to build broken models.
inline ir::Graph ifModel(int thenIndex = 1) {
  test::TfliteModelWriter w;
  tflite::SubGraphT& main = w.subgraph();
  const int cond = w.tensor(main, "cond", TensorType::BOOL, {1});
  const int x = w.tensor(main, "x", TensorType::FLOAT32, {1, 2});
  const int y = w.tensor(main, "y", TensorType::FLOAT32, {1, 2});
  const int out = w.tensor(main, "out", TensorType::FLOAT32, {1, 2});
  main.inputs = {cond, x, y};
  main.outputs = {out};
  w.op(main, kIf, {cond, x, y}, {out}, ifOptions(thenIndex, 2));
  binarySubgraph(w, kAdd);
  binarySubgraph(w, kMul);
  return w.import();
}

// TFLM's while_test model: WHILE(a, b) with cond = LESS(a, b) and body =
// (ADD(a, b), b), over float [1] values.
inline ir::Graph whileModel() {
  test::TfliteModelWriter w;
  tflite::SubGraphT& main = w.subgraph();
  const int a = w.tensor(main, "a", TensorType::FLOAT32, {1});
  const int b = w.tensor(main, "b", TensorType::FLOAT32, {1});
  const int a2 = w.tensor(main, "a_out", TensorType::FLOAT32, {1});
  const int b2 = w.tensor(main, "b_out", TensorType::FLOAT32, {1});
  main.inputs = {a, b};
  main.outputs = {a2, b2};
  w.op(main, kWhile, {a, b}, {a2, b2}, whileOptions(1, 2));

  tflite::SubGraphT& cond = w.subgraph();
  const int ca = w.tensor(cond, "a", TensorType::FLOAT32, {1});
  const int cb = w.tensor(cond, "b", TensorType::FLOAT32, {1});
  const int less = w.tensor(cond, "less", TensorType::BOOL, {1});
  cond.inputs = {ca, cb};
  cond.outputs = {less};
  w.op(cond, kLess, {ca, cb}, {less}, tflite::LessOptionsT{});

  tflite::SubGraphT& body = w.subgraph();
  const int ba = w.tensor(body, "a", TensorType::FLOAT32, {1});
  const int bb = w.tensor(body, "b", TensorType::FLOAT32, {1});
  const int sum = w.tensor(body, "sum", TensorType::FLOAT32, {1});
  body.inputs = {ba, bb};
  body.outputs = {sum, bb};  // b passes through
  w.op(body, kAdd, {ba, bb}, {sum}, tflite::AddOptionsT{});
  return w.import();
}

// A counting loop whose body holds an IF: state (i: int32 [1], acc: float
// [8]); while i < 5: i += 1 and acc = IF(i < 3, acc * 2 + acc, acc + bias).
// The branches have intermediate tensors and constants of their own.
inline TfliteModelWriter countingLoopWriter() {
  TfliteModelWriter w;
  const auto one = bytesOf(std::vector<std::int32_t>{1});
  tflite::SubGraphT& main = w.subgraph();
  const int i = w.tensor(main, "i", TensorType::INT32, {1});
  const int acc = w.tensor(main, "acc", TensorType::FLOAT32, {2, 4});
  const int i2 = w.tensor(main, "i_out", TensorType::INT32, {1});
  const int acc2 = w.tensor(main, "acc_out", TensorType::FLOAT32, {2, 4});
  main.inputs = {i, acc};
  main.outputs = {i2, acc2};
  w.op(main, kWhile, {i, acc}, {i2, acc2}, whileOptions(1, 2));

  tflite::SubGraphT& cond = w.subgraph("count_cond");  // 1: i < 5
  const int ci = w.tensor(cond, "i", TensorType::INT32, {1});
  const int cacc = w.tensor(cond, "acc", TensorType::FLOAT32, {2, 4});
  const int limit =
      w.tensor(cond, "limit", TensorType::INT32, {1}, bytesOf(std::vector<std::int32_t>{5}));
  const int going = w.tensor(cond, "going", TensorType::BOOL, {1});
  cond.inputs = {ci, cacc};
  cond.outputs = {going};
  w.op(cond, kLess, {ci, limit}, {going}, tflite::LessOptionsT{});

  tflite::SubGraphT& body = w.subgraph("count_body");  // 2: i + 1, IF(i < 3, ...)
  const int bi = w.tensor(body, "i", TensorType::INT32, {1});
  const int bacc = w.tensor(body, "acc", TensorType::FLOAT32, {2, 4});
  const int bone = w.tensor(body, "one", TensorType::INT32, {1}, one);
  const int three =
      w.tensor(body, "three", TensorType::INT32, {1}, bytesOf(std::vector<std::int32_t>{3}));
  const int next = w.tensor(body, "next_i", TensorType::INT32, {1});
  const int early = w.tensor(body, "early", TensorType::BOOL, {1});
  const int nextAcc = w.tensor(body, "next_acc", TensorType::FLOAT32, {2, 4});
  body.inputs = {bi, bacc};
  body.outputs = {next, nextAcc};
  w.op(body, kAdd, {bi, bone}, {next}, tflite::AddOptionsT{});
  w.op(body, kLess, {next, three}, {early}, tflite::LessOptionsT{});
  w.op(body, kIf, {early, bacc}, {nextAcc}, ifOptions(3, 4));

  tflite::SubGraphT& triple = w.subgraph("triple");  // 3: acc * 2 + acc
  const int ta = w.tensor(triple, "acc", TensorType::FLOAT32, {2, 4});
  const int two =
      w.tensor(triple, "two", TensorType::FLOAT32, {1}, bytesOf(std::vector<float>{2.0f}));
  const int doubled = w.tensor(triple, "doubled", TensorType::FLOAT32, {2, 4});
  const int tripled = w.tensor(triple, "tripled", TensorType::FLOAT32, {2, 4});
  triple.inputs = {ta};
  triple.outputs = {tripled};
  w.op(triple, kMul, {ta, two}, {doubled}, tflite::MulOptionsT{});
  w.op(triple, kAdd, {doubled, ta}, {tripled}, tflite::AddOptionsT{});

  tflite::SubGraphT& shift = w.subgraph("shift");  // 4: acc + bias
  const int sa = w.tensor(shift, "acc", TensorType::FLOAT32, {2, 4});
  const int bias = w.tensor(shift, "bias", TensorType::FLOAT32, {4},
                            bytesOf(std::vector<float>{0.5f, -1.0f, 10.0f, 0.25f}));
  const int shifted = w.tensor(shift, "shifted", TensorType::FLOAT32, {2, 4});
  shift.inputs = {sa};
  shift.outputs = {shifted};
  w.op(shift, kAdd, {sa, bias}, {shifted}, tflite::AddOptionsT{});
  return w;
}

inline ir::Graph countingLoopModel() {
  return countingLoopWriter().import();
}

// What TFLM's kernels give for countingLoopModel(): i = `start` counts to 5;
// steps i = 1, 2 triple acc, later ones add the bias.
inline std::vector<float> countingLoopExpected(std::int32_t start, std::vector<float> acc) {
  const std::vector<float> bias = {0.5f, -1.0f, 10.0f, 0.25f};
  for (std::int32_t i = start + 1; i <= 5; ++i) {
    for (std::size_t k = 0; k < acc.size(); ++k) {
      acc[k] = i < 3 ? acc[k] * 2.0f + acc[k] : acc[k] + bias[k % 4];
    }
  }
  return acc;
}

}  // namespace loupe::test::control_flow
