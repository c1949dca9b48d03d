#include "deploy/board_description.h"

#include <nlohmann/json.hpp>

namespace loupe::deploy {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw std::runtime_error(source + ": " + what);
}

std::string requiredString(const json& object, const char* key, const std::string& source) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) {
    fail(source, std::string("expected a string '") + key + "'");
  }
  return it->get<std::string>();
}

// Addresses are written in hexadecimal ("0x20000000") to match the data sheets.
std::uint64_t requiredAddress(const json& object, const char* key, const std::string& source) {
  const std::string text = requiredString(object, key, source);
  std::size_t used = 0;
  std::uint64_t address = 0;
  try {
    address = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    fail(source, std::string("'") + key + "' is not an address");
  return address;
}

std::uint64_t requiredCount(const json& object, const char* key, const std::string& source) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_unsigned()) {
    fail(source, std::string("expected a non-negative integer '") + key + "'");
  }
  return it->get<std::uint64_t>();
}

}  // namespace

const BoardMemory& BoardDescription::memoryHolding(const std::string& what) const {
  for (const auto& memory : memories) {
    for (const auto& held : memory.holds) {
      if (held == what) return memory;
    }
  }
  throw std::runtime_error("board " + name + " has no memory holding " + what);
}

const BoardMemory* BoardDescription::memoryNamed(std::string_view region) const {
  for (const auto& memory : memories) {
    if (memory.name == region) return &memory;
  }
  return nullptr;
}

BoardDescription parseBoardDescription(std::string_view text, const std::string& source) {
  const json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!root.is_object()) fail(source, "not a JSON object");

  BoardDescription board;
  board.name = requiredString(root, "name", source);
  board.description = requiredString(root, "description", source);
  board.cpu = requiredString(root, "cpu", source);
  board.floatAbi = requiredString(root, "float_abi", source);
  board.clockHz = requiredCount(root, "clock_hz", source);
  board.uart0Base = requiredAddress(root, "uart0_base", source);
  const auto qemu = root.find("qemu");
  if (qemu == root.end() || !qemu->is_object()) fail(source, "expected an object 'qemu'");
  board.qemuExecutable = requiredString(*qemu, "executable", source);
  board.qemuMachine = requiredString(*qemu, "machine", source);
  const auto memories = root.find("memories");
  if (memories == root.end() || !memories->is_array() || memories->empty()) {
    fail(source, "lists no memories");
  }
  for (const json& entry : *memories) {
    if (!entry.is_object()) fail(source, "a memory is not an object");
    BoardMemory memory;
    memory.name = requiredString(entry, "name", source);
    memory.origin = requiredAddress(entry, "origin", source);
    memory.size = requiredCount(entry, "size", source);
    if (const auto holds = entry.find("holds"); holds != entry.end() && holds->is_array()) {
      for (const json& held : *holds) {
        if (!held.is_string())
          fail(source, "memory " + memory.name + ": 'holds' lists a non-string");
        memory.holds.push_back(held.get<std::string>());
      }
    }
    board.memories.push_back(std::move(memory));
  }
  return board;
}

}  // namespace loupe::deploy
