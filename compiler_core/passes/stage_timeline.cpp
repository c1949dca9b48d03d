#include "passes/stage_timeline.h"

namespace loupe::passes {

std::string_view stageKindName(StageKind kind) {
  switch (kind) {
    case StageKind::Graph:
      return "graph";
    case StageKind::Tir:
      return "tir";
    case StageKind::C:
      return "c";
    case StageKind::MemoryPlan:
      return "memory_plan";
  }
  return "graph";
}

void StageTimeline::add(Stage stage) {
  stages_.push_back(std::move(stage));
}

const Stage* StageTimeline::find(std::string_view name) const {
  for (const Stage& stage : stages_) {
    if (stage.name == name) return &stage;
  }
  return nullptr;
}

const Stage* StageTimeline::last(StageKind kind) const {
  for (auto it = stages_.rbegin(); it != stages_.rend(); ++it) {
    if (it->kind == kind) return &*it;
  }
  return nullptr;
}

double StageTimeline::totalMilliseconds() const {
  double total = 0.0;
  for (const Stage& stage : stages_) total += stage.milliseconds;
  return total;
}

}  // namespace loupe::passes
