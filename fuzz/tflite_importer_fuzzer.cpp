// libFuzzer entry point: any byte string given to the importer either becomes
// a graph or an ImportError; anything else (a crash, a sanitizer report, an
// uncaught exception of another type) is a bug. Imported graphs also go
// through the printer, the cost analysis and the interpreter's support check,
// which read every operand the importer accepted.
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/operator_cost.h"
#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "reference/reference_interpreter.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  loupe::frontend::ImportOptions options;
  options.keepUnsupportedOperators = (size % 2) == 0;  // exercise both modes
  try {
    const auto graph = loupe::frontend::importTflite(std::span(data, size), options);
    (void)loupe::ir::printGraph(graph);
    (void)loupe::analysis::graphCost(graph);
    (void)loupe::reference::findUnsupportedOperators(graph);
  } catch (const loupe::frontend::ImportError&) {
    // The expected outcome for malformed input.
  }
  return 0;
}
