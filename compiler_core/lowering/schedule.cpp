#include "lowering/schedule.h"

#include <algorithm>
#include <stdexcept>

#include "ir/graph_printer.h"
#include "lowering/simd_lowering.h"

namespace loupe::lowering {

namespace {

const std::vector<std::string> kUnrollChoices = {"1", "2", "4", "8"};

std::string shapeText(const ir::Tensor& tensor) {
  std::string text = std::string(ir::dtypeName(tensor.dtype)) + "[";
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(tensor.shape[i]);
  }
  return text + "]";
}

}  // namespace

Schedule ScheduleSpace::defaults() const {
  Schedule schedule;
  for (const Knob& knob : knobs) schedule[knob.name] = knob.choices.front();
  return schedule;
}

std::vector<Schedule> ScheduleSpace::candidates() const {
  std::vector<Schedule> all{Schedule{}};
  for (const Knob& knob : knobs) {
    std::vector<Schedule> extended;
    for (const Schedule& partial : all) {
      for (const std::string& choice : knob.choices) {
        Schedule next = partial;
        next[knob.name] = choice;
        extended.push_back(std::move(next));
      }
    }
    all = std::move(extended);
  }
  return all;  // the first combination takes every knob's first choice: the default
}

std::vector<Schedule> ScheduleSpace::oneKnobAtATime() const {
  const Schedule base = defaults();
  std::vector<Schedule> order{base};
  for (const Knob& knob : knobs) {
    for (std::size_t c = 1; c < knob.choices.size(); ++c) {
      Schedule next = base;
      next[knob.name] = knob.choices[c];
      order.push_back(std::move(next));
    }
  }
  return order;
}

std::string workloadKey(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa) {
  std::string key(op.typeName());
  for (int index : op.inputs) {
    key += ' ';
    key += index < 0 ? std::string("-") : shapeText(graph.tensors.at(index));
  }
  key += " ->";
  for (int index : op.outputs) {
    key += ' ';
    key += shapeText(graph.tensors.at(index));
  }
  const std::string attributes = ir::attributesToString(op.attributes);
  if (!attributes.empty()) {
    key += ' ';
    key += attributes;
  }
  key += " @";
  key += target::cpuIsaName(isa);
  return key;
}

ScheduleSpace scheduleSpace(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa) {
  ScheduleSpace space;
  if (hasSimdKernel(graph, op, isa)) {
    space.knobs.push_back(
        {"kernel", {"simd", "loops"}, "the board's SIMD kernel, or the portable loop nests"});
    for (Knob& knob : simdKernelKnobs(graph, op, isa)) space.knobs.push_back(std::move(knob));
  }
  space.knobs.push_back(
      {"unroll", kUnrollChoices, "unroll factor asked of the C compiler for the innermost loops"});
  return space;
}

void checkSchedule(const ScheduleSpace& space, const Schedule& schedule) {
  for (const auto& entry : schedule) {
    // Named, not bound: clang before 16 cannot capture a structured binding.
    const std::string& name = entry.first;
    const std::string& choice = entry.second;
    const auto knob = std::find_if(space.knobs.begin(), space.knobs.end(),
                                   [&](const Knob& k) { return k.name == name; });
    if (knob == space.knobs.end()) {
      throw std::invalid_argument("no knob '" + name + "' for this operator");
    }
    if (std::find(knob->choices.begin(), knob->choices.end(), choice) == knob->choices.end()) {
      throw std::invalid_argument("knob '" + name + "' has no choice '" + choice + "'");
    }
  }
}

std::string scheduleToString(const Schedule& schedule) {
  std::string text;
  for (const auto& [name, choice] : schedule)
    text += (text.empty() ? "" : " ") + name + "=" + choice;
  return text;
}

int unrollFactor(const Schedule& schedule) {
  const auto it = schedule.find("unroll");
  return it == schedule.end() ? 1 : std::stoi(it->second);
}

bool usesSimdKernel(const Schedule& schedule) {
  const auto it = schedule.find("kernel");
  return it == schedule.end() || it->second == "simd";
}

const std::string& knobChoice(const Schedule& schedule, const Knob& knob) {
  const auto it = schedule.find(knob.name);
  return it == schedule.end() ? knob.choices.front() : it->second;
}

}  // namespace loupe::lowering
