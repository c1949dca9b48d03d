// What lies where in the memory regions a Vela operator's command stream
// addresses, worked out from the decoded operations alone: region 0 is the
// operator's flash (weights, scale records, lookup tables, constant
// operands), region 1 its scratch arena and region 2 the fast scratch
// (Vela's BasePointerIndex). Every byte range an operation reads or writes
// is one access; feature maps get their byte extent the way the functional
// model addresses them (loupe/ethosu/ethosu_execute.c: tile base + y *
// stride_y + x * stride_x + channel offset, NHCWB16 channels in 16-deep
// bricks), weights copied by DMA are traced back to their flash bytes, and
// the written regions' ranges become buffers with lifetimes in command
// order, as the memory plan's buffers have steps. Plain data; the Regions
// view and `loupec npu-stream --regions` read it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ethosu_payload_reader.h"
#include "ir/graph.h"

namespace loupe::analysis {

inline constexpr int kEthosUFlashRegion = 0;
inline constexpr int kEthosUScratchRegion = 1;
inline constexpr int kEthosUFastScratchRegion = 2;

enum class EthosUAccessKind {
  Ifm,
  Ifm2,
  Ofm,
  Weights,         // a weight stream (one per core)
  Scales,          // a scale stream: 10-byte bias/scale records per OFM channel
  LookupTable,     // a DMA's source that goes to the SHRAM lookup-table area
  DmaSource,       // a DMA's source into a region
  DmaDestination,  // a DMA's destination in a region
};

// "IFM", "weights", "DMA destination", ...
std::string ethosuAccessKindName(EthosUAccessKind kind);

// One byte range one NPU operation reads or writes.
struct EthosURegionAccess {
  int operation = 0;  // ordinal over all streams, STOP included (the GUI's NPU operation)
  int stream = 0;
  std::uint32_t index = 0;  // in its stream, as `loupec npu-stream` numbers it
  EthosUAccessKind kind = EthosUAccessKind::Ifm;
  int part = 0;  // a feature map's tile (0-3), a weight or scale stream's core
  int region = 0;
  std::uint64_t begin = 0, end = 0;  // [begin, end) in the region
  bool writes = false;               // OFM and DMA destination
  // Weights and scales read from a copy: the DMA (its ordinal) that brought
  // them, and where the bytes came from in flash; -1 when read in place.
  int viaDma = -1;
  std::uint64_t flashBegin = 0;

  std::uint64_t size() const { return end - begin; }
};

// What a range of the flash holds.
enum class EthosUFlashContent {
  Weights,
  Scales,
  LookupTable,
  ConstantOperand,  // an IFM or IFM2 read from flash (a constant elementwise operand)
  DmaCopied,        // copied by a DMA, not read by any operation from its copy
  Unused,           // no command reads it
};

std::string ethosuFlashContentName(EthosUFlashContent content);

struct EthosUFlashRange {
  std::uint64_t begin = 0, end = 0;
  EthosUFlashContent content = EthosUFlashContent::Unused;
  std::vector<int> operations;  // ordinals of the operations that read it (directly or via DMA)
  std::vector<int> accesses;    // indices into EthosURegionMap::accesses
  int core = 0;                 // weights and scales: the stream's core
};

// A range of a written region over its lifetime: one feature map (an
// operation's OFM, pieces written by several operations while nothing reads
// them yet, the IFM a later one reads), a DMA's copy, or an area read before
// anything in the stream writes it (the operator's input feature maps).
enum class EthosUBufferKind { FeatureMap, DmaCopy, StreamInput };

std::string ethosuBufferKindName(EthosUBufferKind kind);

struct EthosUBuffer {
  int region = 0;
  std::uint64_t begin = 0, end = 0;
  EthosUBufferKind kind = EthosUBufferKind::FeatureMap;
  int firstOperation = 0;  // the first that writes or reads it
  int lastOperation = 0;   // the last that reads it (or writes it, if none reads it after)
  // Written and never read again in the stream: an output the CPU reads.
  bool liveAtEnd = false;
  std::vector<int> accesses;  // indices into EthosURegionMap::accesses, in order
  std::string tensor;         // the model tensor at exactly these bytes, if one is named

  std::uint64_t size() const { return end - begin; }
};

struct EthosURegionInfo {
  int region = 0;
  std::string name;           // "flash", "scratch", "fast scratch", "region 3"
  std::uint64_t size = 0;     // as the operator gives it; 0 when unknown
  std::uint64_t highest = 0;  // the end of the highest byte accessed
  bool written = false;       // some operation writes it
  int accesses = 0;
};

// A named area of a region (a model tensor the operator reads or writes).
struct EthosUNamedArea {
  std::string name;
  int region = kEthosUScratchRegion;
  std::uint64_t begin = 0, end = 0;
  // An output names what the stream leaves written, an input what it reads
  // first (the two may share bytes: the input dies before the output is written).
  bool isOutput = false;
};

struct EthosURegionMap {
  int operationCount = 0;                    // ordinals: 0 .. operationCount - 1, STOP included
  std::vector<std::string> operationLabels;  // per ordinal: "npu 3 CONV"
  std::vector<EthosURegionInfo> regions;     // every region the sizes name or a command uses
  std::vector<EthosURegionAccess> accesses;  // in command order
  std::vector<EthosUFlashRange> flash;       // region 0, sorted, gaps as Unused
  std::vector<EthosUBuffer> buffers;         // of the written regions, by first operation
  // Accesses outside their region's size, DMA sources not in flash, ...
  std::vector<std::string> problems;

  const EthosURegionInfo* region(int region) const;
  // The accesses, flash ranges and buffers of operation `ordinal`.
  std::vector<int> accessesOf(int ordinal) const;
  std::vector<int> flashRangesOf(int ordinal) const;
  std::vector<int> buffersOf(int ordinal) const;
  std::uint64_t unusedFlashBytes() const;
};

// The extent [begin, end) of one tile (0-3) of a feature map of `height`
// x `width` x `depth` elements, as the registers place it; begin == end
// when the tile holds none of it.
struct EthosUTileExtent {
  std::uint64_t begin = 0, end = 0;
};
EthosUTileExtent ethosuTileExtent(const loupe_ethosu_feature_map& fm, int tile);

// The map of `payload`'s regions; `regionSizes[r]` is region r's size (0:
// unknown), `named` the areas to name buffers after.
EthosURegionMap ethosuRegionMap(const frontend::EthosUPayload& payload,
                                const std::vector<std::uint64_t>& regionSizes,
                                const std::vector<EthosUNamedArea>& named = {});

// The same for ethos-u operator `op` of `graph`: sizes from its flash input
// and its scratch areas, its feature-map operands named. Throws
// frontend::EthosUPayloadError as ethosuPayloadOf does.
EthosURegionMap ethosuRegionMapOf(const ir::Graph& graph, const ir::Operator& op);

// A listing for people: the regions, then the flash's ranges, then the
// buffers with their lifetimes.
std::string ethosuRegionMapText(const EthosURegionMap& map);

}  // namespace loupe::analysis
