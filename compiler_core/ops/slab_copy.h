// The operators that cut tensors into slabs along one axis or join them
// (SPLIT, SPLIT_V, PACK, UNPACK) move whole runs of elements: seen as
// [outer, axis, inner], each output slab is `length` positions of one
// input's axis. One description drives both the reference evaluation and
// the lowering, so they cannot disagree about which bytes go where.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ops/shape_rule.h"
#include "reference/tensor_store.h"
#include "tir/prim_func.h"

namespace loupe::ops {

struct Slab {
  std::size_t inputSlot = 0;
  std::size_t outputSlot = 0;
  std::int64_t inStart = 0;        // position along the input's axis
  std::int64_t outStart = 0;       // position along the output's axis
  std::int64_t length = 0;         // positions copied
  std::int64_t inAxisLength = 1;   // the axis in that input
  std::int64_t outAxisLength = 1;  // and in that output
};

struct SlabCopy {
  std::int64_t outer = 1;  // product of the dimensions before the axis
  std::int64_t inner = 1;  // product of the dimensions after it
  std::vector<Slab> slabs;
};

// The product of dimensions [begin, end) of `shape`.
std::int64_t productOf(const ir::Shape& shape, std::size_t begin, std::size_t end);

void evalSlabCopy(const ir::Graph& graph, const ir::Operator& op, const SlabCopy& copy,
                  reference::TensorStore& store);

tir::PrimFunc lowerSlabCopy(const ir::Graph& graph, const ir::Operator& op, const SlabCopy& copy,
                            const std::string& functionName);

// Whether generated C has a buffer type for `dtype` (float32, int8, uint8,
// int16, int32, int64 and bool, one byte each): the element types the
// operators that move or convert elements accept.
bool hasCBufferType(ir::DType dtype);

// Why input 0 (float32 or int8, the types TFLite Micro's layout operators
// take) cannot be copied into output 0 of `outputShape`, or nullopt.
std::optional<std::string> checkFloat32OrInt8Copy(const ir::Graph& graph, const ir::Operator& op,
                                                  const ir::Shape& outputShape);

// What an operator's attributes and operands make of it: the copy, the
// shapes its outputs must have and their element type, or the problem.
struct SlabPlan {
  SlabCopy copy;
  std::vector<ir::Shape> outputShapes;
  ir::DType dtype = ir::DType::Float32;
  std::string problem;
};

// The problem of a plan, or of outputs that do not have its shapes and type.
std::optional<std::string> checkSlabPlan(const ir::Graph& graph, const ir::Operator& op,
                                         const SlabPlan& plan);

// The shape rule, kernel and lowering of a slab operator, from its planner.
template <SlabPlan (*Plan)(const ir::Graph&, const ir::Operator&)>
struct SlabOperator {
  static std::optional<InferredOutput> shape(const ir::Graph& graph, const ir::Operator& op) {
    const SlabPlan plan = Plan(graph, op);
    if (!plan.problem.empty()) return shapeProblem(plan.problem);
    InferredOutput out = shaped(plan.outputShapes.front(), {plan.dtype});
    out.moreShapes.assign(plan.outputShapes.begin() + 1, plan.outputShapes.end());
    return out;
  }
  static std::optional<std::string> check(const ir::Graph& graph, const ir::Operator& op) {
    return checkSlabPlan(graph, op, Plan(graph, op));
  }
  static void eval(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
    evalSlabCopy(graph, op, Plan(graph, op).copy, store);
  }
  static tir::PrimFunc lower(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
    return lowerSlabCopy(graph, op, Plan(graph, op).copy, functionName);
  }
};

}  // namespace loupe::ops
