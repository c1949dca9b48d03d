// The Ethos-U command stream of a Vela operator (ir::OpType::EthosU) as the
// GUI shows it: its NPU operations with a summary each (kind, IFM -> OFM,
// kernel, weight bytes, block, estimated cycles) and, per operation, the
// command words that set it up, named by the register table. Everything
// comes from compiler_core's listing (analysis/ethosu_command_listing.h)
// and the Ethos-U performance model; nothing here decodes command words.
// Plain data, so the graph layout can build it on its worker thread too.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <cstdint>

namespace loupe::ir {
struct Graph;
}

namespace loupe::models {

// One command of a stream: "   12  0x00004000 0x00000000  NPU_SET_IFM_BASE0  addr_hi=0x0 addr=0x0".
struct NpuCommandLine {
  int offset = 0;     // word offset in its command stream
  QStringList words;  // "0x0001010f", one or two
  QString command;    // "NPU_SET_IFM_REGION"
  QString fields;     // "region=1", enumerated values by name, addresses in hex
};

// One NPU operation of the stream, STOP included (it owns words too).
struct NpuOperationEntry {
  int ordinal = 0;  // position in NpuStreamListing::operations: the GUI's name for it
  int stream = 0;   // command stream of the payload
  int index = 0;    // in its stream, as `loupec npu-stream` numbers it
  QString kind;     // "CONV", "DMA", "ELEMENTWISE ADD", "STOP"
  bool isStop = false;
  QString shapes;  // "96x96x1 -> 48x48x8"; a DMA: "region 0 +28576 -> region 1 +9216"
  QString kernel;  // "kernel 3x3 stride 2x2"; empty without a kernel
  std::int64_t weightBytes = 0;
  QString block;  // "16x16x8"; empty without feature maps
  std::int64_t macs = 0;
  std::int64_t cycles = -1;        // the performance model's estimate, -1 when there is none
  int firstWord = 0, endWord = 0;  // its words in the stream: [firstWord, endWord)
  QList<NpuCommandLine> commands;

  // "npu 3 CONV".
  QString title() const;
  // "npu 3  CONV  96x96x1 -> 48x48x8  kernel 3x3 stride 2x2  weights 144 B  block 16x16x8  ~ 1,234
  // cycles".
  QString summary() const;
  // The lines of its graph node after the title: kernel, weights and block, cycles.
  QStringList facts() const;
};

struct NpuStreamListing {
  int operatorIndex = -1;
  QString operatorType;  // "CUSTOM(ethos-u)"
  QString accelerator;   // "ethos-u55-256"
  int streamWords = 0;   // all command streams' words: what the listing's commands cover
  std::int64_t macs = 0;
  std::int64_t npuCycles = -1;  // the estimate of the whole payload (Vela's "NPU cycles")
  QList<NpuOperationEntry> operations;
  QString error;  // non-empty: the payload could not be listed (then no operations)

  // Operations the NPU runs: STOP left out, as npuOperationsJson counts them.
  int npuOperationCount() const;
};

// Whether operator `operatorIndex` of `graph` is a Vela operator (ethos-u).
bool isEthosUOperator(const ir::Graph& graph, int operatorIndex);

// The listing of Vela operator `operatorIndex`; `withCommands` false leaves
// the operations' command lines out (the graph needs only the summaries).
// Never throws: a payload that does not decode gives `error`.
NpuStreamListing npuStreamListing(const ir::Graph& graph, int operatorIndex, bool withCommands);

// The collapsed node's summary: "ethos-u55-256 · 235 NPU operations", "12,345 MACs".
QStringList ethosuOperatorFacts(const ir::Graph& graph, int operatorIndex);

}  // namespace loupe::models
