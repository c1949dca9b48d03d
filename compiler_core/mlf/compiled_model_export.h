// What a compiled model puts into its Model Library Format: the generated
// sources and header, the constants as raw parameter files, the printed IR of
// every compilation stage, the memory plan, the device mapping (the target
// and region of every operator), and the C runtime (with the
// default crt_config.h under runtime/include, so the README's two include
// folders are all a user needs).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "codegen/compiled_model.h"
#include "mlf/model_library_format.h"

namespace loupe::mlf {

// A printed stage for src/: file name (e.g. "01_imported.graph.txt") and text.
using StageFile = std::pair<std::string, std::string>;

// The parameter files share the model's constant bytes. A model compiled
// without its operator sources (CompiledModel::hasOperatorSources false) gets
// them as streamed entries: each is printed into the archive as it is
// written, so its C is never held whole.
MlfContents mlfContentsOf(const codegen::CompiledModel& model,
                          const std::vector<StageFile>& stages);
// The same, taking the generated sources and headers out of `model` (they
// are left empty; the rest of `model` is as it was): each file's text is
// freed as soon as the archive's copy is made, so a large model's C is not
// held twice.
MlfContents takeMlfContents(codegen::CompiledModel& model, const std::vector<StageFile>& stages);

// The memory plan as metadata.json's memory_plan value: the workspace
// buffers and the operator state kept outside the workspace.
nlohmann::json memoryPlanJson(const codegen::CompiledModel& model);

}  // namespace loupe::mlf
