// libFuzzer entry point for what `loupec run` does with a model it accepted:
// every graph the importer and the kernels' checks accept must evaluate
// without a crash or a sanitizer report. Inputs are zero bytes; graphs too
// large to evaluate quickly are skipped so the fuzzer keeps its pace.
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/operator_cost.h"
#include "frontend/tflite_importer.h"
#include "reference/reference_interpreter.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto graph = loupe::frontend::importTflite(std::span(data, size));
    const auto cost = loupe::analysis::graphCost(graph);
    if (cost.activationBytes > (std::int64_t{1} << 20) || cost.macs > 20'000'000) return 0;
    loupe::reference::ReferenceInterpreter interpreter(graph);
    interpreter.invoke();
  } catch (const loupe::frontend::ImportError&) {
  } catch (const loupe::reference::UnsupportedModelError&) {
  }
  return 0;
}
