#include "analysis/ethosu_region_map.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <tuple>

#include "analysis/ethosu_command_listing.h"
#include "ir/graph_printer.h"
#include "loupe/ethosu/ethosu_registers.h"

namespace loupe::analysis {

namespace {

using Operation = loupe_ethosu_operation;

// "0x002400".
std::string regionMapHex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%06llx", static_cast<unsigned long long>(value));
  return text;
}

// "74,464" (region offsets and sizes are below 2^32).
std::string regionMapGrouped(std::uint64_t value) {
  return ir::groupDigits(static_cast<std::int64_t>(value));
}

bool regionMapHasFeatureMaps(const Operation& op) {
  return op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
         op.kind == LOUPE_ETHOSU_OPERATION_POOL || op.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
}

// ABS, LRELU and CLZ read no second operand (as the functional model's is_unary).
bool regionMapIsUnary(const Operation& op) {
  return op.sub_kind == LOUPE_ETHOSU_elementwise_mode_ABS ||
         op.sub_kind == LOUPE_ETHOSU_elementwise_mode_LRELU ||
         op.sub_kind == LOUPE_ETHOSU_elementwise_mode_CLZ;
}

bool regionMapOverlaps(std::uint64_t aBegin, std::uint64_t aEnd, std::uint64_t bBegin,
                       std::uint64_t bEnd) {
  return aBegin < bEnd && bBegin < aEnd;
}

// The state of one buffer while the stream is walked.
struct RegionMapLiveBuffer {
  int buffer = 0;               // index into the map's buffers
  bool readSinceWrite = false;  // its bytes were read after they were last written
};

// One DMA into a region, to trace copied weights back to flash.
struct RegionMapDmaCopy {
  int operation = 0;
  int region = 0;
  std::uint64_t begin = 0, end = 0;
  int sourceRegion = 0;
  std::uint64_t source = 0;
};

class RegionMapBuilder {
 public:
  RegionMapBuilder(const std::vector<std::uint64_t>& sizes, EthosURegionMap& map)
      : sizes_(sizes), map_(map) {}

  void addOperation(int ordinal, int stream, const Operation& op) {
    const std::size_t first = map_.accesses.size();
    collectAccesses(ordinal, stream, op);
    // Reads before writes: an operation reads its inputs, then writes its
    // output, perhaps over one of them (an in-place elementwise operation).
    for (std::size_t a = first; a < map_.accesses.size(); ++a) {
      if (!map_.accesses[a].writes) read(static_cast<int>(a));
    }
    for (std::size_t a = first; a < map_.accesses.size(); ++a) {
      if (map_.accesses[a].writes) write(static_cast<int>(a));
    }
  }

  void finish() {
    for (const auto& [region, live] : live_) {
      for (const RegionMapLiveBuffer& l : live) {
        EthosUBuffer& b = map_.buffers[static_cast<std::size_t>(l.buffer)];
        if (!l.readSinceWrite && b.kind != EthosUBufferKind::StreamInput) {
          b.liveAtEnd = true;
          b.lastOperation = std::max(b.lastOperation, map_.operationCount - 1);
        }
      }
    }
    live_.clear();  // indices into the buffers, which change now
    std::sort(merged_.begin(), merged_.end(), std::greater<>());
    for (int i : merged_) map_.buffers.erase(map_.buffers.begin() + i);
    std::stable_sort(map_.buffers.begin(), map_.buffers.end(),
                     [](const EthosUBuffer& a, const EthosUBuffer& b) {
                       return std::tie(a.region, a.firstOperation, a.begin) <
                              std::tie(b.region, b.firstOperation, b.begin);
                     });
    buildFlash();
  }

 private:
  void add(EthosURegionAccess access) {
    if (access.end <= access.begin) return;
    const auto r = static_cast<std::size_t>(access.region);
    if (r < sizes_.size() && sizes_[r] > 0 && access.end > sizes_[r]) {
      map_.problems.push_back(map_.operationLabels[static_cast<std::size_t>(access.operation)] +
                              ": " + ethosuAccessKindName(access.kind) + " [" +
                              regionMapHex(access.begin) + ", " + regionMapHex(access.end) +
                              ") ends beyond region " + std::to_string(access.region) + "'s " +
                              regionMapGrouped(sizes_[r]) + " bytes");
    }
    map_.accesses.push_back(access);
  }

  void addFeatureMap(int ordinal, int stream, const Operation& op, EthosUAccessKind kind,
                     const loupe_ethosu_feature_map& fm) {
    for (int tile = 0; tile < 4; ++tile) {
      const EthosUTileExtent extent = ethosuTileExtent(fm, tile);
      if (extent.end <= extent.begin) continue;
      EthosURegionAccess a;
      a.operation = ordinal;
      a.stream = stream;
      a.index = op.index;
      a.kind = kind;
      a.part = tile;
      a.region = fm.region;
      a.begin = extent.begin;
      a.end = extent.end;
      a.writes = kind == EthosUAccessKind::Ofm;
      add(a);
    }
  }

  void collectAccesses(int ordinal, int stream, const Operation& op) {
    EthosURegionAccess a;
    a.operation = ordinal;
    a.stream = stream;
    a.index = op.index;
    if (regionMapHasFeatureMaps(op)) {
      addFeatureMap(ordinal, stream, op, EthosUAccessKind::Ifm, op.ifm);
      if (op.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE && !regionMapIsUnary(op) &&
          !op.ifm2_is_scalar) {
        addFeatureMap(ordinal, stream, op, EthosUAccessKind::Ifm2, op.ifm2);
      }
      for (int core = 0; core < op.weight_streams && core < 2; ++core) {
        for (const auto& [kind, range] : {std::pair{EthosUAccessKind::Weights, op.weights[core]},
                                          std::pair{EthosUAccessKind::Scales, op.scales[core]}}) {
          a.kind = kind;
          a.part = core;
          a.region = range.region;
          a.begin = range.base;
          a.end = range.base + range.length;
          a.writes = false;
          traceCopy(a);
          add(a);
        }
      }
      addFeatureMap(ordinal, stream, op, EthosUAccessKind::Ofm, op.ofm);
    } else if (op.kind == LOUPE_ETHOSU_OPERATION_DMA && !op.dma_src_internal) {
      a.kind = op.dma_dst_internal ? EthosUAccessKind::LookupTable : EthosUAccessKind::DmaSource;
      a.region = op.dma_src_region;
      a.begin = op.dma_src;
      a.end = op.dma_src + op.dma_length;
      add(a);
      if (!op.dma_dst_internal) {
        a.kind = EthosUAccessKind::DmaDestination;
        a.region = op.dma_dst_region;
        a.begin = op.dma_dst;
        a.end = op.dma_dst + op.dma_length;
        a.writes = true;
        add(a);
        copies_.push_back({ordinal, op.dma_dst_region, op.dma_dst, op.dma_dst + op.dma_length,
                           op.dma_src_region, op.dma_src});
      }
    }
  }

  // Weights or scales outside the flash were put there by a DMA (Vela's
  // weight buffering): the latest one that covers them says from where.
  void traceCopy(EthosURegionAccess& a) const {
    if (a.region == kEthosUFlashRegion) return;
    for (auto it = copies_.rbegin(); it != copies_.rend(); ++it) {
      if (it->region == a.region && it->begin <= a.begin && a.end <= it->end) {
        if (it->sourceRegion != kEthosUFlashRegion) return;
        a.viaDma = it->operation;
        a.flashBegin = it->source + (a.begin - it->begin);
        return;
      }
    }
  }

  std::vector<RegionMapLiveBuffer>& liveIn(int region) { return live_[region]; }

  void read(int accessIndex) {
    const EthosURegionAccess& a = map_.accesses[static_cast<std::size_t>(accessIndex)];
    if (a.region == kEthosUFlashRegion) return;  // the flash's ranges are listed apart
    auto& live = liveIn(a.region);
    bool found = false;
    for (RegionMapLiveBuffer& l : live) {
      EthosUBuffer& b = map_.buffers[static_cast<std::size_t>(l.buffer)];
      if (!regionMapOverlaps(a.begin, a.end, b.begin, b.end)) continue;
      found = true;
      l.readSinceWrite = true;
      b.lastOperation = std::max(b.lastOperation, a.operation);
      if (b.accesses.empty() || b.accesses.back() != accessIndex) b.accesses.push_back(accessIndex);
      // An input read piece by piece (stripes) is one area.
      if (b.kind == EthosUBufferKind::StreamInput) {
        b.begin = std::min(b.begin, a.begin);
        b.end = std::max(b.end, a.end);
      }
    }
    if (found) return;
    EthosUBuffer b;
    b.region = a.region;
    b.begin = a.begin;
    b.end = a.end;
    b.kind = EthosUBufferKind::StreamInput;
    b.firstOperation = b.lastOperation = a.operation;
    b.accesses.push_back(accessIndex);
    map_.buffers.push_back(std::move(b));
    live.push_back({static_cast<int>(map_.buffers.size()) - 1, true});
  }

  void write(int accessIndex) {
    const EthosURegionAccess& a = map_.accesses[static_cast<std::size_t>(accessIndex)];
    if (a.region == kEthosUFlashRegion) {
      map_.problems.push_back(map_.operationLabels[static_cast<std::size_t>(a.operation)] +
                              " writes its " + ethosuAccessKindName(a.kind) + " to the flash");
      return;
    }
    const EthosUBufferKind kind =
        a.kind == EthosUAccessKind::Ofm ? EthosUBufferKind::FeatureMap : EthosUBufferKind::DmaCopy;
    auto& live = liveIn(a.region);
    int target = -1;
    std::vector<RegionMapLiveBuffer> kept;
    for (const RegionMapLiveBuffer& l : live) {
      EthosUBuffer& b = map_.buffers[static_cast<std::size_t>(l.buffer)];
      if (!regionMapOverlaps(a.begin, a.end, b.begin, b.end)) {
        kept.push_back(l);
        continue;
      }
      // Written and not yet read: another piece of the same feature map
      // (a tile, a stripe, a slice of a concatenation).
      if (!l.readSinceWrite && b.kind == kind) {
        if (target < 0) {
          target = l.buffer;
          kept.push_back(l);
        } else {
          mergeInto(target, l.buffer);
        }
        continue;
      }
      // Anything else there is overwritten: its life ended at its last read.
    }
    live = std::move(kept);
    if (target < 0) {
      EthosUBuffer b;
      b.region = a.region;
      b.begin = a.begin;
      b.end = a.end;
      b.kind = kind;
      b.firstOperation = b.lastOperation = a.operation;
      map_.buffers.push_back(std::move(b));
      target = static_cast<int>(map_.buffers.size()) - 1;
      live.push_back({target, false});
    }
    EthosUBuffer& b = map_.buffers[static_cast<std::size_t>(target)];
    b.begin = std::min(b.begin, a.begin);
    b.end = std::max(b.end, a.end);
    b.lastOperation = std::max(b.lastOperation, a.operation);
    b.accesses.push_back(accessIndex);
  }

  // Folds buffer `from` into `into` (both pieces of one feature map); `from`
  // stays in the list, empty, and is dropped at the end.
  void mergeInto(int into, int from) {
    EthosUBuffer& to = map_.buffers[static_cast<std::size_t>(into)];
    EthosUBuffer& b = map_.buffers[static_cast<std::size_t>(from)];
    to.begin = std::min(to.begin, b.begin);
    to.end = std::max(to.end, b.end);
    to.firstOperation = std::min(to.firstOperation, b.firstOperation);
    to.lastOperation = std::max(to.lastOperation, b.lastOperation);
    to.accesses.insert(to.accesses.end(), b.accesses.begin(), b.accesses.end());
    std::sort(to.accesses.begin(), to.accesses.end());
    b.accesses.clear();
    b.end = b.begin;
    merged_.push_back(from);
  }

  void buildFlash() {
    // Everything the stream reads from flash, directly or through a copy.
    struct Key {
      std::uint64_t begin, end;
      EthosUFlashContent content;
      int core;
      bool operator<(const Key& o) const {
        return std::tie(begin, end, content, core) < std::tie(o.begin, o.end, o.content, o.core);
      }
    };
    std::map<Key, EthosUFlashRange> ranges;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> dmaSources;
    std::vector<int> dmaSourceAccesses;
    auto note = [&](const Key& key, int operation, int access) {
      EthosUFlashRange& r = ranges[key];
      r.begin = key.begin;
      r.end = key.end;
      r.content = key.content;
      r.core = key.core;
      if (std::find(r.operations.begin(), r.operations.end(), operation) == r.operations.end()) {
        r.operations.push_back(operation);
      }
      r.accesses.push_back(access);
    };
    for (std::size_t i = 0; i < map_.accesses.size(); ++i) {
      const EthosURegionAccess& a = map_.accesses[i];
      const int access = static_cast<int>(i);
      const bool weightsOrScales =
          a.kind == EthosUAccessKind::Weights || a.kind == EthosUAccessKind::Scales;
      const EthosUFlashContent content = a.kind == EthosUAccessKind::Weights
                                             ? EthosUFlashContent::Weights
                                             : EthosUFlashContent::Scales;
      if (weightsOrScales && a.viaDma >= 0) {
        note({a.flashBegin, a.flashBegin + a.size(), content, a.part}, a.operation, access);
        continue;
      }
      if (a.region != kEthosUFlashRegion) continue;
      if (weightsOrScales) {
        note({a.begin, a.end, content, a.part}, a.operation, access);
      } else if (a.kind == EthosUAccessKind::LookupTable) {
        note({a.begin, a.end, EthosUFlashContent::LookupTable, 0}, a.operation, access);
      } else if (a.kind == EthosUAccessKind::Ifm || a.kind == EthosUAccessKind::Ifm2) {
        note({a.begin, a.end, EthosUFlashContent::ConstantOperand, 0}, a.operation, access);
      } else if (a.kind == EthosUAccessKind::DmaSource) {
        dmaSources.emplace_back(a.begin, a.end);
        dmaSourceAccesses.push_back(access);
      }
    }
    std::vector<EthosUFlashRange> listed;
    for (auto& [key, range] : ranges) listed.push_back(std::move(range));
    // Bytes a DMA copies that no operation reads from the copy.
    for (std::size_t d = 0; d < dmaSources.size(); ++d) {
      std::uint64_t at = dmaSources[d].first;
      const std::uint64_t end = dmaSources[d].second;
      const EthosURegionAccess& a = map_.accesses[static_cast<std::size_t>(dmaSourceAccesses[d])];
      while (at < end) {
        std::uint64_t next = end;
        bool covered = false;
        for (const EthosUFlashRange& r : listed) {
          if (r.content == EthosUFlashContent::DmaCopied) continue;
          if (r.begin <= at && at < r.end) {
            covered = true;
            next = std::min(end, r.end);
            break;
          }
          if (r.begin > at) next = std::min(next, r.begin);
        }
        if (!covered) {
          EthosUFlashRange r;
          r.begin = at;
          r.end = next;
          r.content = EthosUFlashContent::DmaCopied;
          r.operations.push_back(a.operation);
          r.accesses.push_back(dmaSourceAccesses[d]);
          listed.push_back(std::move(r));
        }
        at = next;
      }
    }
    std::sort(listed.begin(), listed.end(),
              [](const EthosUFlashRange& a, const EthosUFlashRange& b) {
                return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
              });
    // The gaps, up to the flash's size (or the last byte read).
    const std::uint64_t size = !sizes_.empty() && sizes_[0] > 0 ? sizes_[0] : 0;
    std::vector<EthosUFlashRange> withGaps;
    std::uint64_t covered = 0;
    auto gap = [&](std::uint64_t begin, std::uint64_t end) {
      if (end <= begin) return;
      EthosUFlashRange r;
      r.begin = begin;
      r.end = end;
      r.content = EthosUFlashContent::Unused;
      withGaps.push_back(std::move(r));
    };
    for (EthosUFlashRange& r : listed) {
      gap(covered, r.begin);
      covered = std::max(covered, r.end);
      withGaps.push_back(std::move(r));
    }
    gap(covered, size);
    map_.flash = std::move(withGaps);
  }

  const std::vector<std::uint64_t>& sizes_;
  EthosURegionMap& map_;
  std::map<int, std::vector<RegionMapLiveBuffer>> live_;
  std::vector<RegionMapDmaCopy> copies_;
  std::vector<int> merged_;
};

std::string regionMapOperationsText(const EthosURegionMap& map, const std::vector<int>& ordinals) {
  std::string text;
  for (std::size_t i = 0; i < ordinals.size(); ++i) {
    if (i == 3 && ordinals.size() > 4) {
      return text + ", ... (" + std::to_string(ordinals.size()) + " operations)";
    }
    if (i > 0) text += ", ";
    text += map.operationLabels[static_cast<std::size_t>(ordinals[i])];
  }
  return text;
}

}  // namespace

std::string ethosuAccessKindName(EthosUAccessKind kind) {
  switch (kind) {
    case EthosUAccessKind::Ifm:
      return "IFM";
    case EthosUAccessKind::Ifm2:
      return "IFM2";
    case EthosUAccessKind::Ofm:
      return "OFM";
    case EthosUAccessKind::Weights:
      return "weights";
    case EthosUAccessKind::Scales:
      return "scales";
    case EthosUAccessKind::LookupTable:
      return "lookup table";
    case EthosUAccessKind::DmaSource:
      return "DMA source";
    case EthosUAccessKind::DmaDestination:
      return "DMA destination";
  }
  return "?";
}

std::string ethosuFlashContentName(EthosUFlashContent content) {
  switch (content) {
    case EthosUFlashContent::Weights:
      return "weights";
    case EthosUFlashContent::Scales:
      return "scales";
    case EthosUFlashContent::LookupTable:
      return "lookup table";
    case EthosUFlashContent::ConstantOperand:
      return "constant operand";
    case EthosUFlashContent::DmaCopied:
      return "copied, unread";
    case EthosUFlashContent::Unused:
      return "unused";
  }
  return "?";
}

std::string ethosuBufferKindName(EthosUBufferKind kind) {
  switch (kind) {
    case EthosUBufferKind::FeatureMap:
      return "feature map";
    case EthosUBufferKind::DmaCopy:
      return "DMA copy";
    case EthosUBufferKind::StreamInput:
      return "input";
  }
  return "?";
}

const EthosURegionInfo* EthosURegionMap::region(int region) const {
  for (const EthosURegionInfo& info : regions) {
    if (info.region == region) return &info;
  }
  return nullptr;
}

std::vector<int> EthosURegionMap::accessesOf(int ordinal) const {
  std::vector<int> found;
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    if (accesses[i].operation == ordinal) found.push_back(static_cast<int>(i));
  }
  return found;
}

std::vector<int> EthosURegionMap::flashRangesOf(int ordinal) const {
  std::vector<int> found;
  for (std::size_t i = 0; i < flash.size(); ++i) {
    const auto& ops = flash[i].operations;
    if (std::find(ops.begin(), ops.end(), ordinal) != ops.end()) {
      found.push_back(static_cast<int>(i));
    }
  }
  return found;
}

std::vector<int> EthosURegionMap::buffersOf(int ordinal) const {
  std::vector<int> found;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    for (int a : buffers[i].accesses) {
      if (accesses[static_cast<std::size_t>(a)].operation == ordinal) {
        found.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  return found;
}

std::uint64_t EthosURegionMap::unusedFlashBytes() const {
  std::uint64_t bytes = 0;
  for (const EthosUFlashRange& r : flash) {
    if (r.content == EthosUFlashContent::Unused) bytes += r.end - r.begin;
  }
  return bytes;
}

EthosUTileExtent ethosuTileExtent(const loupe_ethosu_feature_map& fm, int tile) {
  const std::uint32_t height = fm.height, width = fm.width, depth = fm.depth;
  if (height == 0 || width == 0 || depth == 0 || fm.precision_bits == 0) return {};
  // The tiles as the functional model picks them (fm_offset): columns from
  // width0 on are tiles 1 and 3 (split at height1), the rest tiles 0 and 2
  // (split at height0).
  const std::uint32_t right = width > fm.width0 ? width - fm.width0 : 0;
  const std::uint32_t left = std::min(fm.width0, width);
  std::uint32_t h = 0, w = 0;
  switch (tile) {
    case 0:
      h = std::min(fm.height0, height);
      w = left;
      break;
    case 1:
      h = std::min(fm.height1, height);
      w = right;
      break;
    case 2:
      h = height > fm.height0 ? height - fm.height0 : 0;
      w = left;
      break;
    case 3:
      h = height > fm.height1 ? height - fm.height1 : 0;
      w = right;
      break;
    default:
      return {};
  }
  if (h == 0 || w == 0) return {};
  const std::uint64_t element = fm.precision_bits / 8u;
  // NHCWB16 keeps channels in bricks of 16, the last one padded: its end is
  // the last brick's full 16 channels.
  const std::uint64_t channels =
      fm.layout == LOUPE_ETHOSU_activation_format_NHCWB16
          ? std::uint64_t{(depth - 1u) / 16u} * fm.stride_c + 16u * element
          : std::uint64_t{depth} * element;
  const std::uint64_t base = fm.base[tile];
  return {base, base + std::uint64_t{h - 1u} * fm.stride_y + std::uint64_t{w - 1u} * fm.stride_x +
                    channels};
}

EthosURegionMap ethosuRegionMap(const frontend::EthosUPayload& payload,
                                const std::vector<std::uint64_t>& regionSizes,
                                const std::vector<EthosUNamedArea>& named) {
  EthosURegionMap map;
  for (const auto& stream : payload.streams) {
    for (const Operation& op : stream.operations) {
      map.operationLabels.push_back("npu " + std::to_string(op.index) + " " +
                                    loupe_ethosu_operation_name(&op));
    }
  }
  map.operationCount = static_cast<int>(map.operationLabels.size());
  RegionMapBuilder builder(regionSizes, map);
  int ordinal = 0;
  for (std::size_t s = 0; s < payload.streams.size(); ++s) {
    for (const Operation& op : payload.streams[s].operations) {
      builder.addOperation(ordinal++, static_cast<int>(s), op);
    }
  }
  builder.finish();

  std::map<int, EthosURegionInfo> regions;
  for (std::size_t r = 0; r < regionSizes.size(); ++r) {
    if (regionSizes[r] > 0 || static_cast<int>(r) <= kEthosUScratchRegion) {
      regions[static_cast<int>(r)].size = regionSizes[r];
    }
  }
  for (const EthosURegionAccess& a : map.accesses) {
    EthosURegionInfo& info = regions[a.region];
    info.highest = std::max(info.highest, a.end);
    info.written = info.written || a.writes;
    ++info.accesses;
  }
  for (auto& [region, info] : regions) {
    info.region = region;
    info.name = region == kEthosUFlashRegion         ? "flash"
                : region == kEthosUScratchRegion     ? "scratch"
                : region == kEthosUFastScratchRegion ? "fast scratch"
                                                     : "region " + std::to_string(region);
    map.regions.push_back(info);
  }

  // The operator's own feature maps by name: an area read before anything
  // writes it, or left written at the end, is the tensor at its bytes.
  for (EthosUBuffer& b : map.buffers) {
    if (b.kind == EthosUBufferKind::DmaCopy) continue;
    for (const EthosUNamedArea& area : named) {
      if (area.region != b.region || !regionMapOverlaps(area.begin, area.end, b.begin, b.end)) {
        continue;
      }
      if ((b.kind == EthosUBufferKind::StreamInput && !area.isOutput) ||
          (b.liveAtEnd && area.isOutput)) {
        b.tensor = area.name;
        break;
      }
    }
  }
  return map;
}

EthosURegionMap ethosuRegionMapOf(const ir::Graph& graph, const ir::Operator& op) {
  const frontend::EthosUPayload payload = ethosuPayloadOf(graph, op);
  std::vector<std::uint64_t> sizes(3, 0);
  std::vector<EthosUNamedArea> named;
  if (const ir::Tensor* flash = graph.input(op, 1); flash != nullptr) {
    sizes[kEthosUFlashRegion] = static_cast<std::uint64_t>(flash->byteSize());
  }
  if (const auto* attrs = std::get_if<ir::EthosUAttrs>(&op.attributes)) {
    sizes[kEthosUScratchRegion] = static_cast<std::uint64_t>(attrs->scratchBytes);
    sizes[kEthosUFastScratchRegion] = static_cast<std::uint64_t>(attrs->fastScratchBytes);
    auto name = [&](int tensor, std::int64_t offset, bool isOutput) {
      if (tensor < 0 || offset < 0) return;
      const ir::Tensor& t = graph.tensor(tensor);
      named.push_back({t.name, kEthosUScratchRegion, static_cast<std::uint64_t>(offset),
                       static_cast<std::uint64_t>(offset + t.byteSize()), isOutput});
    };
    for (std::size_t i = 0; i < attrs->inputOffsets.size() && i + 2 < op.inputs.size(); ++i) {
      name(op.inputs[i + 2], attrs->inputOffsets[i], false);
    }
    for (std::size_t i = 0; i < attrs->outputOffsets.size() && i < op.outputs.size(); ++i) {
      name(op.outputs[i], attrs->outputOffsets[i], true);
    }
  }
  return ethosuRegionMap(payload, sizes, named);
}

std::string ethosuRegionMapText(const EthosURegionMap& map) {
  std::string text;
  auto range = [](std::uint64_t begin, std::uint64_t end) {
    char line[96];
    std::snprintf(line, sizeof line, "  [%s, %s) %10s B  ", regionMapHex(begin).c_str(),
                  regionMapHex(end).c_str(), regionMapGrouped(end - begin).c_str());
    return std::string(line);
  };
  for (const EthosURegionInfo& info : map.regions) {
    text += "region " + std::to_string(info.region) + " (" + info.name + "): ";
    text += info.size > 0 ? regionMapGrouped(info.size) + " bytes" : "size unknown";
    text += ", highest byte used " + regionMapGrouped(info.highest);
    if (info.region == kEthosUFlashRegion) {
      text += ", " + regionMapGrouped(map.unusedFlashBytes()) + " bytes unused";
    }
    text += "\n";
    if (info.region == kEthosUFlashRegion) {
      for (const EthosUFlashRange& r : map.flash) {
        text += range(r.begin, r.end) + ethosuFlashContentName(r.content);
        if (!r.operations.empty()) text += "  " + regionMapOperationsText(map, r.operations);
        text += "\n";
      }
      continue;
    }
    for (const EthosUBuffer& b : map.buffers) {
      if (b.region != info.region) continue;
      text += range(b.begin, b.end) + ethosuBufferKindName(b.kind) + "  " +
              map.operationLabels[static_cast<std::size_t>(b.firstOperation)] + " .. " +
              (b.liveAtEnd ? std::string("end")
                           : map.operationLabels[static_cast<std::size_t>(b.lastOperation)]);
      if (!b.tensor.empty()) text += "  '" + b.tensor + "'";
      text += "\n";
    }
  }
  for (const std::string& problem : map.problems) text += "problem: " + problem + "\n";
  return text;
}

}  // namespace loupe::analysis
