// What a built firmware puts in each memory of its board, measured rather
// than estimated: the linker's map says which object file every input
// section came from and how big it is, the ELF's section headers say which
// output sections are loaded (the image written to flash, or to a QEMU
// board's code memory) and where. Each loaded byte is charged to a part:
// the model's code, the model's constant arrays (weights, biases, tables),
// Loupe's runtime, the board support code (start-up, UART, RPC main) and
// the C library, or alignment padding.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace loupe::deploy {

enum class FirmwarePart { ModelCode, ModelConstants, Runtime, BoardSupport, CLibrary, Padding };

// "model code", "model constants", "runtime", "board support", "C library", "padding"
const char* firmwarePartName(FirmwarePart part);

struct MemoryImage {
  std::string memory;  // the linker script's region: "FLASH", "ITCM"
  std::uint64_t origin = 0;
  std::uint64_t capacity = 0;
  std::uint64_t imageBytes = 0;       // loaded into it (code, constants, .data's initial values)
  std::uint64_t bytesByPart[6] = {};  // of imageBytes, indexed by FirmwarePart
  std::uint64_t ramBytes = 0;         // allocated in it at run time and not loaded (.bss, pools)
};

struct FirmwareFootprint {
  std::vector<MemoryImage> memories;  // the map's order; those the firmware uses

  std::uint64_t bytes(FirmwarePart part) const;  // over every memory
  std::uint64_t imageBytes() const;
};

// An input section of the map's memory map.
struct LinkMapSection {
  std::string outputSection;  // ".text"
  std::string name;           // ".text.tvmgen_default_run", "*fill*"
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  std::string
      object;  // "build/model/src/lib0.o", "build/libloupe_crt.a(session.o)"; empty for fill
};

struct LinkMapRegion {
  std::string name;
  std::uint64_t origin = 0;
  std::uint64_t length = 0;
};

// An output section as `objdump -h` lists it.
struct ElfSection {
  std::string name;
  std::uint64_t size = 0;
  std::uint64_t vma = 0;
  std::uint64_t lma = 0;
  bool allocated = false;  // ALLOC: takes memory on the board
  bool loaded = false;     // CONTENTS and LOAD: part of the image
};

// The parts of GNU ld's map (-Wl,-Map) and of `objdump -h` the footprint
// needs; lines they do not recognise are skipped.
std::vector<LinkMapRegion> parseLinkMapRegions(const std::string& map);
std::vector<LinkMapSection> parseLinkMapSections(const std::string& map);
std::vector<ElfSection> parseSectionHeaders(const std::string& objdumpHeaders);

// Which part an input section from `object` named `section` belongs to.
FirmwarePart firmwarePartOf(const std::string& object, const std::string& section);

FirmwareFootprint firmwareFootprint(const std::string& map, const std::string& objdumpHeaders);

// The footprint of `elf`, built with a map beside it (firmware.map, as the
// board platforms link), read with `objdump` (the toolchain's); nothing
// when there is no map (a host build) or objdump cannot read it.
std::optional<FirmwareFootprint> measureFirmware(const std::filesystem::path& elf,
                                                 const std::string& objdump);

// One line per memory with an image: "ITCM: 49,032 of 524,288 bytes loaded
// (model code 4,224 · model constants 29,000 · runtime 9,100 · ...); 94,372
// bytes of RAM".
std::vector<std::string> footprintLines(const FirmwareFootprint& footprint);

}  // namespace loupe::deploy
