#include "targets/ethos_u/ethosu_operator_cycles.h"

#include <algorithm>
#include <string>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/region_compiler.h"
#include "ethosu/resize_lowering.h"
#include "ethosu/softmax_lowering.h"
#include "targets/ethos_u/ethosu_performance.h"

namespace loupe::targets::ethos_u {

namespace {

bool isKernelKind(std::uint8_t kind) {
  return kind == LOUPE_ETHOSU_OPERATION_CONV || kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
         kind == LOUPE_ETHOSU_OPERATION_POOL || kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
}

// One operator of the region as the stream runs it: its kernel operations
// (depth slices of it together) and the DMAs before them.
struct NetworkOperator {
  std::uint64_t npuCycles = 0;
  std::int64_t ofmElements = 0;  // over its slices
  int operations = 0;
};

std::vector<NetworkOperator> networkOperators(const frontend::EthosUPayload& payload,
                                              const ethosu::StreamEstimate& stream) {
  std::vector<NetworkOperator> result;
  std::uint64_t pendingCycles = 0;  // of the DMAs and waits since the last kernel operation
  int pendingOperations = 0;
  std::size_t flat = 0;  // estimatePayload's operations are the streams' one after the other
  for (std::size_t s = 0; s < payload.streams.size(); ++s) {
    bool open = false;  // a network operator of this stream is being filled
    std::uint32_t start = 0;
    for (const loupe_ethosu_operation& decoded : payload.streams[s].operations) {
      if (flat >= stream.operations.size()) {
        throw ethosu::EstimateError("the estimate has fewer operations than the payload");
      }
      const ethosu::OperationEstimate& e = stream.operations[flat++];
      if (!isKernelKind(decoded.kind)) {
        pendingCycles += e.npuCycles;
        pendingOperations += decoded.kind == LOUPE_ETHOSU_OPERATION_DMA;
        continue;
      }
      if (!open || e.operatorStart != start) result.emplace_back();
      open = true;
      start = e.operatorStart;
      NetworkOperator& n = result.back();
      n.npuCycles += e.npuCycles + pendingCycles;
      n.operations += 1 + pendingOperations;
      n.ofmElements +=
          static_cast<std::int64_t>(decoded.ofm.height) * decoded.ofm.width * decoded.ofm.depth;
      pendingCycles = 0;
      pendingOperations = 0;
    }
  }
  // Copies after the last kernel operation count for it, so nothing is lost.
  if (pendingCycles > 0 || pendingOperations > 0) {
    if (result.empty()) throw ethosu::EstimateError("the stream has no kernel operation");
    result.back().npuCycles += pendingCycles;
    result.back().operations += pendingOperations;
  }
  return result;
}

}  // namespace

std::vector<ModelOperatorCycles> npuCyclesPerModelOperator(const ir::Graph& graph,
                                                           const ir::Operator& op,
                                                           const ethosu::SystemConfig* system) {
  const ir::Graph* source = ethosu::npuRegionSource(op);
  if (source == nullptr) {
    throw ethosu::EstimateError("operator " + std::to_string(op.index) +
                                " is no region Loupe compiled");
  }
  const frontend::EthosUPayload payload = analysis::ethosuPayloadOf(graph, op);
  const loupe_ethosu_npu_config npu = ethosu::npuConfigOf(payload);
  const ethosu::StreamEstimate stream = ethosu::estimatePayload(
      payload, system != nullptr ? *system : ethosu::velaDefaultSystem(npu));
  const std::vector<NetworkOperator> network = networkOperators(payload, stream);

  // The Ethos-U operator's sourceOperators are its region operators' model
  // operators one after the other (withNpuRegion), so they are walked together.
  std::vector<ModelOperatorCycles> result;
  std::size_t next = 0;  // into `network`
  for (const ir::Operator& o : source->operators) {
    const std::size_t count = o.sourceOperators.empty() ? 1 : o.sourceOperators.size();
    if (result.size() + count > op.sourceOperators.size()) {
      throw ethosu::EstimateError("the region's operators stand for more model operators than " +
                                  std::to_string(op.sourceOperators.size()));
    }
    NetworkOperator n;
    if (!ir::isNoCopyView(*source, o)) {
      // A concatenation runs as one copy per input, a softmax and a resize
      // by 4 or 8 as a chain.
      std::size_t parts = 1;
      if (o.type == ir::OpType::Concatenation) parts = std::max<std::size_t>(o.inputs.size(), 1);
      if (o.type == ir::OpType::Softmax) {
        const ir::Shape& shape = source->tensor(o.inputs.at(0)).shape;
        parts = static_cast<std::size_t>(
            ethosu::softmaxNpuOperations(shape.empty() ? 1 : shape.back()));
      }
      if (ethosu::isResize(o)) {
        parts = static_cast<std::size_t>(ethosu::resizeNpuOperations(*source, o));
      }
      const bool chain = o.type == ir::OpType::Softmax || ethosu::isResize(o);
      if (next + parts > network.size()) {
        throw ethosu::EstimateError("the stream has " + std::to_string(network.size()) +
                                    " network operators, fewer than its region's operators");
      }
      for (std::size_t part = 0; part < parts; ++part) {
        const NetworkOperator& copy = network[next++];
        n.npuCycles += copy.npuCycles;
        // A chain's last operation writes the output; a copy each slice.
        n.ofmElements = chain ? copy.ofmElements : n.ofmElements + copy.ofmElements;
        n.operations += copy.operations;
      }
      const std::int64_t written = source->tensor(o.outputs.at(0)).elementCount();
      if (n.ofmElements != written) {
        throw ethosu::EstimateError("network operator " + std::to_string(next - 1) + " writes " +
                                    std::to_string(n.ofmElements) + " elements, region operator " +
                                    std::to_string(o.index) + " (" + o.typeName() + ") " +
                                    std::to_string(written));
      }
    }
    // An operator fused from several model operators shares its cycles
    // evenly among them (as a measured call's time is shared), the rest of
    // the division to the last, so the figures still add up.
    const std::uint64_t share = n.npuCycles / count;
    for (std::size_t k = 0; k < count; ++k) {
      ModelOperatorCycles figure;
      figure.modelOperator = op.sourceOperators[result.size()];
      figure.npuCycles = k + 1 == count ? n.npuCycles - share * (count - 1) : share;
      figure.npuOperations = k == 0 ? n.operations : 0;
      result.push_back(figure);
    }
  }
  if (next != network.size() || result.size() != op.sourceOperators.size()) {
    throw ethosu::EstimateError("the stream's " + std::to_string(network.size()) +
                                " network operators do not follow the region's operators");
  }
  return result;
}

}  // namespace loupe::targets::ethos_u
