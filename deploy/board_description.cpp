#include "deploy/board_description.h"

#include <algorithm>
#include <set>

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

std::vector<std::string> stringList(const json& object, const char* key, const std::string& source,
                                    const std::string& owner) {
  std::vector<std::string> list;
  const auto it = object.find(key);
  if (it == object.end()) return list;
  if (!it->is_array()) fail(source, owner + ": '" + key + "' is not a list");
  for (const json& item : *it) {
    if (!item.is_string()) fail(source, owner + ": '" + key + "' lists a non-string");
    list.push_back(item.get<std::string>());
  }
  return list;
}

// A name that becomes a file name (uarts/<driver>.c): no paths, no surprises.
bool isPlainName(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

BoardFlash parseFlash(const json& flash, const std::string& source) {
  if (!flash.is_object()) fail(source, "'flash' is not an object");
  BoardFlash result;
  result.origin = requiredAddress(flash, "origin", source);
  if (const auto port = flash.find("serial_port"); port != flash.end() && port->is_string()) {
    result.serialPort = port->get<std::string>();
  }
  const auto programmers = flash.find("programmers");
  if (programmers == flash.end() || !programmers->is_array() || programmers->empty()) {
    fail(source, "'flash' lists no programmers");
  }
  for (const json& entry : *programmers) {
    if (!entry.is_object()) fail(source, "a programmer is not an object");
    BoardProgrammer programmer;
    programmer.name = requiredString(entry, "name", source);
    programmer.arguments = stringList(entry, "arguments", source, "programmer " + programmer.name);
    result.programmers.push_back(std::move(programmer));
  }
  return result;
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

bool BoardMemory::holdsKind(std::string_view kind) const {
  return std::find(holds.begin(), holds.end(), kind) != holds.end();
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
  if (root.contains("uart")) {
    board.uartDriver = requiredString(root, "uart", source);
    if (!isPlainName(board.uartDriver))
      fail(source, "'uart' must be a driver name like stm32_usart_v2");
  }
  if (root.contains("fpu")) board.fpu = requiredString(root, "fpu", source);
  if (root.contains("rpc_arena_bytes")) {
    board.rpcArenaBytes = requiredCount(root, "rpc_arena_bytes", source);
  }
  if (root.contains("stack_bytes")) board.stackBytes = requiredCount(root, "stack_bytes", source);
  const auto qemu = root.find("qemu");
  const auto flash = root.find("flash");
  if (qemu != root.end()) {
    if (!qemu->is_object()) fail(source, "'qemu' is not an object");
    board.qemuExecutable = requiredString(*qemu, "executable", source);
    board.qemuMachine = requiredString(*qemu, "machine", source);
  }
  if (flash != root.end()) board.flash = parseFlash(*flash, source);
  if ((qemu == root.end()) == (flash == root.end())) {
    fail(source, "expected either 'qemu' (an emulated board) or 'flash' (a real board)");
  }
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
        const std::string kind = held.get<std::string>();
        static const std::set<std::string> kinds{"code", "data", "stack", "workspace", "constants"};
        if (!kinds.contains(kind)) {
          fail(source, "memory " + memory.name + ": 'holds' lists \"" + kind +
                           "\" (known: code, data, stack, workspace, constants)");
        }
        memory.holds.push_back(kind);
      }
    }
    board.memories.push_back(std::move(memory));
  }
  return board;
}

}  // namespace loupe::deploy
