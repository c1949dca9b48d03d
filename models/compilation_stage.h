// The stages of Loupe's pipeline as the GUI names them. The navigator lists a
// stage once the document or the compilation holds its result, in this order.
#pragma once

#include <QString>

namespace loupe::models {

enum class CompilationStage {
  Imported,
  Partitioned,
  Fused,
  Tir,
  C,
  MemoryPlan,
  Deploy,
};

// "Imported", "Memory plan", ...
QString stageTitle(CompilationStage stage);

// One line for tool tips: what the stage's result is.
QString stageDescription(CompilationStage stage);

}  // namespace loupe::models
