#include "models/compilation_stage.h"

#include <QCoreApplication>

namespace loupe::models {

QString stageTitle(CompilationStage stage) {
  switch (stage) {
    case CompilationStage::Imported:
      return QCoreApplication::translate("Stage", "Imported");
    case CompilationStage::Partitioned:
      return QCoreApplication::translate("Stage", "Partitioned");
    case CompilationStage::Fused:
      return QCoreApplication::translate("Stage", "Fused");
    case CompilationStage::Tir:
      return QCoreApplication::translate("Stage", "TIR");
    case CompilationStage::C:
      return QCoreApplication::translate("Stage", "C");
    case CompilationStage::MemoryPlan:
      return QCoreApplication::translate("Stage", "Memory plan");
    case CompilationStage::Deploy:
      return QCoreApplication::translate("Stage", "Deploy");
  }
  return {};
}

QString stageDescription(CompilationStage stage) {
  switch (stage) {
    case CompilationStage::Imported:
      return QCoreApplication::translate("Stage",
                                         "The graph IR as read from the .tflite file, in the "
                                         "model's execution order");
    case CompilationStage::Partitioned:
      return QCoreApplication::translate("Stage",
                                         "Operators annotated with their target (CPU or "
                                         "Ethos-U), region and estimate");
    case CompilationStage::Fused:
      return QCoreApplication::translate("Stage", "Operators after fusion (conv+bias+requant+act)");
    case CompilationStage::Tir:
      return QCoreApplication::translate("Stage", "Each fused operator lowered to a loop nest");
    case CompilationStage::C:
      return QCoreApplication::translate("Stage", "The generated C sources");
    case CompilationStage::MemoryPlan:
      return QCoreApplication::translate("Stage", "Buffer lifetimes and offsets in the pools");
    case CompilationStage::Deploy:
      return QCoreApplication::translate("Stage", "The firmware project, built, flashed and run");
  }
  return {};
}

}  // namespace loupe::models
