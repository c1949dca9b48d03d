#include "memory/memory_plan_json.h"

namespace loupe::memory {

nlohmann::json memoryPlanJson(const ir::Graph& graph, const MemoryPlan& plan) {
  nlohmann::json pools = nlohmann::json::array();
  for (std::size_t i = 0; i < plan.pools.size(); ++i) {
    const MemoryPool& p = plan.pools[i];
    pools.push_back(
        {{"name", p.name},
         {"size", plan.result.poolBytes.at(i)},
         {"capacity", p.bounded() ? nlohmann::json(p.size) : nlohmann::json(nullptr)},
         {"alignment", p.alignment},
         {"memory", p.memory.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.memory)}});
  }
  nlohmann::json buffers = nlohmann::json::array();
  auto add = [&](std::size_t b, const std::string& name, int tensor, std::int64_t size,
                 const TensorLifetime& life, const nlohmann::json& aliasOf) {
    const int pool = plan.result.pool.at(b);
    const WorkspaceBuffer& owner = plan.analysis.buffers[b];
    buffers.push_back(
        {{"tensor", name},
         {"tensor_index", tensor >= 0 ? nlohmann::json(tensor) : nlohmann::json(nullptr)},
         {"kind", owner.scratchOf >= 0 ? "scratch" : "tensor"},
         {"operator",
          owner.scratchOf >= 0 ? nlohmann::json(owner.scratchOf) : nlohmann::json(nullptr)},
         {"size", size},
         {"first_step", life.firstStep},
         {"last_step", life.lastStep},
         {"pool", pool >= 0 ? nlohmann::json(plan.pools[static_cast<std::size_t>(pool)].name)
                            : nlohmann::json(nullptr)},
         {"offset", pool >= 0 ? nlohmann::json(plan.result.offset.at(b)) : nlohmann::json(nullptr)},
         {"alias_of", aliasOf}});
  };
  for (std::size_t b = 0; b < plan.analysis.buffers.size(); ++b) {
    const WorkspaceBuffer& buffer = plan.analysis.buffers[b];
    add(b, bufferName(graph, buffer), buffer.tensor, buffer.size,
        {buffer.firstStep, buffer.lastStep}, nullptr);
    for (int alias : buffer.aliases) {
      add(b, graph.tensor(alias).name, alias, graph.tensor(alias).byteSize(),
          plan.analysis.lifetimes.at(alias), graph.tensor(buffer.tensor).name);
    }
  }
  nlohmann::json inPlace = nlohmann::json::array();
  for (const auto& [op, input] : plan.analysis.inPlaceOperators) {
    inPlace.push_back({{"operator", op}, {"over", graph.tensor(input).name}});
  }
  return {{"planner", plan.planner},
          {"fits", plan.result.fits},
          {"total_bytes", plan.result.totalBytes},
          {"lower_bound", plan.lowerBound},
          {"gap", plan.gap()},
          {"proved_optimal", plan.result.provedOptimal},
          {"evaluated", plan.result.evaluated},
          {"milliseconds", plan.milliseconds},
          {"execution_order", plan.order.operators},
          {"graph_order_lower_bound", plan.order.graphOrderBound},
          {"orders_evaluated", plan.order.ordersEvaluated},
          {"in_place", inPlace},
          {"pools", pools},
          {"buffers", buffers}};
}

}  // namespace loupe::memory
