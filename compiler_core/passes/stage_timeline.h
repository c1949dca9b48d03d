// The stage timeline: what every step of a compilation produced, in order,
// so the GUI can show "the graph after fusion" beside "the graph as
// imported" and tests can read any stage. Graph passes add one Graph stage
// each (the printed graph and the graph itself); TIR lowering, C generation
// and memory planning append their own kinds of stage with their own text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace loupe::passes {

enum class StageKind { Graph, Tir, C, MemoryPlan };

// "graph", "tir", "c", "memory_plan".
std::string_view stageKindName(StageKind kind);

struct Stage {
  std::string name;  // "imported", "fuse_operators", ...
  StageKind kind = StageKind::Graph;
  std::string text;  // Graph stages: ir::printGraph of the graph after the step
  double milliseconds = 0.0;
  std::optional<ir::Graph> graph;  // set for Graph stages
};

class StageTimeline {
 public:
  void add(Stage stage);
  const std::vector<Stage>& stages() const { return stages_; }
  // The first stage with that name, or nullptr.
  const Stage* find(std::string_view name) const;
  // The last stage of a kind (the newest graph, say), or nullptr.
  const Stage* last(StageKind kind) const;
  double totalMilliseconds() const;

 private:
  std::vector<Stage> stages_;
};

}  // namespace loupe::passes
