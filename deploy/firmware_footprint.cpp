#include "deploy/firmware_footprint.h"

#include <fstream>
#include <sstream>

#include "deploy/process_runner.h"
#include "ir/graph_printer.h"

namespace loupe::deploy {

namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> result;
  for (std::string word; in >> word;) result.push_back(word);
  return result;
}

bool isHex(const std::string& word) {
  return word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X') &&
         word.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
}

std::uint64_t hex(const std::string& word) {
  return std::stoull(word, nullptr, 16);
}

bool isPlainHex(const std::string& word) {
  return !word.empty() && word.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    result.push_back(line);
  }
  return result;
}

// The lines of the map's memory map, after its header.
std::vector<std::string> memoryMapLines(const std::string& map) {
  std::vector<std::string> all = lines(map);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i].starts_with("Linker script and memory map")) {
      return {all.begin() + static_cast<std::ptrdiff_t>(i) + 1, all.end()};
    }
  }
  return {};
}

}  // namespace

const char* firmwarePartName(FirmwarePart part) {
  switch (part) {
    case FirmwarePart::ModelCode:
      return "model code";
    case FirmwarePart::ModelConstants:
      return "model constants";
    case FirmwarePart::Runtime:
      return "runtime";
    case FirmwarePart::BoardSupport:
      return "board support";
    case FirmwarePart::CLibrary:
      return "C library";
    case FirmwarePart::Padding:
      return "padding";
  }
  return "?";
}

std::uint64_t FirmwareFootprint::bytes(FirmwarePart part) const {
  std::uint64_t total = 0;
  for (const MemoryImage& m : memories) total += m.bytesByPart[static_cast<int>(part)];
  return total;
}

std::uint64_t FirmwareFootprint::imageBytes() const {
  std::uint64_t total = 0;
  for (const MemoryImage& m : memories) total += m.imageBytes;
  return total;
}

std::vector<LinkMapRegion> parseLinkMapRegions(const std::string& map) {
  std::vector<LinkMapRegion> regions;
  bool inTable = false;
  for (const std::string& line : lines(map)) {
    if (line.starts_with("Memory Configuration")) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    if (line.starts_with("Linker script and memory map")) break;
    const auto w = words(line);
    // "ITCM 0x00000000 0x00080000 xr"; the header and *default* are not regions.
    if (w.size() >= 3 && isHex(w[1]) && isHex(w[2]) && w[0] != "*default*") {
      regions.push_back({w[0], hex(w[1]), hex(w[2])});
    }
  }
  return regions;
}

std::vector<LinkMapSection> parseLinkMapSections(const std::string& map) {
  std::vector<LinkMapSection> sections;
  std::string output;   // the output section the lines are in
  std::string pending;  // an input section whose name filled its line
  for (const std::string& line : memoryMapLines(map)) {
    if (line.empty()) continue;
    const auto w = words(line);
    if (line[0] != ' ') {
      // An output section: ".text 0x0 0xbf70", or its name alone on a line.
      output = w[0];
      pending.clear();
      continue;
    }
    if (output.empty() || output == "/DISCARD/") continue;
    // " .text.f 0xADDR 0xSIZE object", " *fill* 0xADDR 0xSIZE", or the name
    // alone with the numbers on the next line; symbols are "0xADDR name".
    std::string name;
    std::size_t first = 0;
    if (!isHex(w[0])) {
      name = w[0];
      first = 1;
      if (w.size() == 1) {
        pending = name;
        continue;
      }
    } else if (!pending.empty()) {
      name = pending;
    } else {
      continue;  // a symbol's address, or an assignment
    }
    pending.clear();
    if (w.size() < first + 2 || !isHex(w[first]) || !isHex(w[first + 1])) continue;
    if (name.starts_with("*(") || name.find('(') == 0) continue;
    LinkMapSection section{output, name, hex(w[first]), hex(w[first + 1]), {}};
    if (w.size() > first + 2) section.object = w[first + 2];
    if (section.size > 0) sections.push_back(std::move(section));
  }
  return sections;
}

std::vector<ElfSection> parseSectionHeaders(const std::string& text) {
  // "  0 .text  0000bf70  00000000  00000000  00001000  2**3", then its flags.
  std::vector<ElfSection> sections;
  const std::vector<std::string> all = lines(text);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto w = words(all[i]);
    if (w.size() < 6 || !isPlainHex(w[2]) || !isPlainHex(w[3]) || !isPlainHex(w[4]) ||
        w[0].find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    ElfSection section{w[1], hex(w[2]), hex(w[3]), hex(w[4]), false, false};
    const std::string flags = i + 1 < all.size() ? all[i + 1] : std::string();
    section.allocated = flags.find("ALLOC") != std::string::npos;
    section.loaded = section.allocated && flags.find("CONTENTS") != std::string::npos &&
                     flags.find("LOAD") != std::string::npos;
    sections.push_back(std::move(section));
  }
  return sections;
}

FirmwarePart firmwarePartOf(const std::string& object, const std::string& section) {
  if (section == "*fill*") return FirmwarePart::Padding;
  if (object.find("model/src/") != std::string::npos) {
    return section.starts_with(".text") ? FirmwarePart::ModelCode : FirmwarePart::ModelConstants;
  }
  if (object.find("libloupe_crt.a") != std::string::npos ||
      object.find("runtime/src/") != std::string::npos) {
    return FirmwarePart::Runtime;
  }
  if (object.find("platform/") != std::string::npos) return FirmwarePart::BoardSupport;
  // libc, libm, libgcc, and what the linker makes itself (veneers, exidx).
  return FirmwarePart::CLibrary;
}

FirmwareFootprint firmwareFootprint(const std::string& map, const std::string& objdumpHeaders) {
  const std::vector<LinkMapRegion> regions = parseLinkMapRegions(map);
  const std::vector<ElfSection> headers = parseSectionHeaders(objdumpHeaders);
  FirmwareFootprint footprint;
  for (const LinkMapRegion& region : regions) {
    footprint.memories.push_back({region.name, region.origin, region.length, 0, {}, 0});
  }
  auto memoryAt = [&](std::uint64_t address) -> MemoryImage* {
    for (MemoryImage& m : footprint.memories) {
      if (address >= m.origin && address - m.origin < m.capacity) return &m;
    }
    return nullptr;
  };
  for (const ElfSection& s : headers) {
    if (!s.allocated || s.size == 0) continue;
    if (s.loaded) {
      if (MemoryImage* m = memoryAt(s.lma)) m->imageBytes += s.size;
      // .data: also RAM where it runs; .text in place: not twice.
      if (s.vma != s.lma) {
        if (MemoryImage* m = memoryAt(s.vma)) m->ramBytes += s.size;
      }
    } else if (MemoryImage* m = memoryAt(s.vma)) {
      m->ramBytes += s.size;
    }
  }
  // Charge each loaded output section's bytes to the parts its inputs come
  // from; what the map does not list (the section's own alignment) is padding.
  const std::vector<LinkMapSection> inputs = parseLinkMapSections(map);
  for (const ElfSection& s : headers) {
    if (!s.loaded || s.size == 0) continue;
    MemoryImage* m = memoryAt(s.lma);
    if (!m) continue;
    std::uint64_t listed = 0;
    for (const LinkMapSection& input : inputs) {
      if (input.outputSection != s.name) continue;
      m->bytesByPart[static_cast<int>(firmwarePartOf(input.object, input.name))] += input.size;
      listed += input.size;
    }
    if (listed < s.size) m->bytesByPart[static_cast<int>(FirmwarePart::Padding)] += s.size - listed;
  }
  std::erase_if(footprint.memories,
                [](const MemoryImage& m) { return m.imageBytes == 0 && m.ramBytes == 0; });
  return footprint;
}

std::optional<FirmwareFootprint> measureFirmware(const std::filesystem::path& elf,
                                                 const std::string& objdump) {
  const std::filesystem::path mapPath = elf.parent_path() / "firmware.map";
  std::ifstream mapFile(mapPath, std::ios::binary);
  if (!mapFile) return std::nullopt;
  std::ostringstream map;
  map << mapFile.rdbuf();
  ProcessResult headers;
  try {
    headers =
        runProcess({objdump, "-h", elf.string()}, elf.parent_path(), std::chrono::seconds(30));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (headers.exitCode != 0) return std::nullopt;
  FirmwareFootprint footprint = firmwareFootprint(map.str(), headers.output);
  if (footprint.memories.empty()) return std::nullopt;
  return footprint;
}

std::vector<std::string> footprintLines(const FirmwareFootprint& footprint) {
  std::vector<std::string> result;
  for (const MemoryImage& m : footprint.memories) {
    if (m.imageBytes == 0) continue;
    std::string line = m.memory + ": " + ir::groupDigits(static_cast<std::int64_t>(m.imageBytes)) +
                       " of " + ir::groupDigits(static_cast<std::int64_t>(m.capacity)) +
                       " bytes loaded (";
    const char* separator = "";
    for (int part = 0; part < 6; ++part) {
      if (m.bytesByPart[part] == 0) continue;
      line += separator;
      line += firmwarePartName(static_cast<FirmwarePart>(part));
      line += " " + ir::groupDigits(static_cast<std::int64_t>(m.bytesByPart[part]));
      separator = " \u00b7 ";
    }
    line += ")";
    if (m.ramBytes > 0) {
      line += "; " + ir::groupDigits(static_cast<std::int64_t>(m.ramBytes)) + " bytes of RAM";
    }
    result.push_back(std::move(line));
  }
  return result;
}

}  // namespace loupe::deploy
