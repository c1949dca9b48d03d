// Pass annotate_targets (TVM's AnnotateTarget): asks every target of the
// context, in priority order, whether it accepts each operator. The operator's
// placement gets the first target that accepts it and the reasons of every
// target that refuses it. The graph itself is unchanged.
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"
#include "target/target_string.h"

namespace loupe::passes {

inline constexpr std::string_view kAnnotateTargets = "annotate_targets";

// The annotation alone, for showing a model (`loupec info`): an operator no
// target accepts keeps an empty target, with every target's reasons.
ir::Graph annotateOperatorTargets(ir::Graph graph, const target::TargetList& targets);

// Throws std::invalid_argument when the context has no targets, and
// PassError naming every operator no target accepts with each target's
// reasons.
ir::Graph annotateTargets(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
