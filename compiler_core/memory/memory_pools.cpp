#include "memory/memory_pools.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <stdexcept>

namespace loupe::memory {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == separator) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return parts;
}

bool isIdentifier(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
}

std::int64_t parseBytes(std::string_view text, const std::string& what) {
  std::int64_t multiplier = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'k')) {
    multiplier = 1024;
    text.remove_suffix(1);
  } else if (!text.empty() && (text.back() == 'M' || text.back() == 'm')) {
    multiplier = 1024 * 1024;
    text.remove_suffix(1);
  }
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value <= 0 ||
      value > (std::int64_t{1} << 40) / multiplier) {
    throw std::invalid_argument(what +
                                " must be a positive number of bytes (optionally with K or "
                                "M), not \"" +
                                std::string(text) + "\"");
  }
  return value * multiplier;
}

}  // namespace

std::vector<MemoryPool> defaultPools() {
  return {MemoryPool{.name = "workspace", .size = 0, .alignment = kDefaultAlignment, .memory = {}}};
}

std::vector<MemoryPool> parsePoolSpec(std::string_view spec) {
  std::vector<MemoryPool> pools;
  std::set<std::string> names;
  for (std::string_view item : split(spec, ';')) {
    if (item.empty()) continue;  // tolerate "a:size=1;"
    const std::size_t colon = item.find(':');
    const std::string name(trim(item.substr(0, colon)));
    if (!isIdentifier(name)) {
      throw std::invalid_argument("pool name \"" + name +
                                  "\" must be a C identifier (letters, digits and _, not "
                                  "starting with a digit)");
    }
    if (!names.insert(name).second) {
      throw std::invalid_argument("pool \"" + name + "\" is given twice");
    }
    if (colon == std::string_view::npos) {
      throw std::invalid_argument("pool \"" + name + "\" needs a size, as in " + name +
                                  ":size=65536");
    }
    MemoryPool pool{.name = name, .size = 0, .alignment = kDefaultAlignment, .memory = {}};
    for (std::string_view field : split(item.substr(colon + 1), ',')) {
      const std::size_t equals = field.find('=');
      const std::string key(trim(field.substr(0, equals)));
      if (equals == std::string_view::npos) {
        throw std::invalid_argument("pool \"" + name + "\": \"" + std::string(field) +
                                    "\" is not key=value");
      }
      const std::string_view value = trim(field.substr(equals + 1));
      if (key == "size") {
        pool.size = parseBytes(value, "pool \"" + name + "\" size");
      } else if (key == "alignment") {
        pool.alignment = parseBytes(value, "pool \"" + name + "\" alignment");
        if ((pool.alignment & (pool.alignment - 1)) != 0) {
          throw std::invalid_argument("pool \"" + name + "\" alignment " +
                                      std::to_string(pool.alignment) + " is not a power of two");
        }
      } else if (key == "memory") {
        if (!isIdentifier(value)) {
          throw std::invalid_argument("pool \"" + name + "\" memory \"" + std::string(value) +
                                      "\" must be the board memory's name, as board.json and "
                                      "the linker script spell it");
        }
        pool.memory = std::string(value);
      } else {
        throw std::invalid_argument("pool \"" + name + "\": unknown field \"" + key +
                                    "\" (known: size, alignment, memory)");
      }
    }
    if (!pool.bounded()) {
      throw std::invalid_argument("pool \"" + name + "\" needs a size, as in " + name +
                                  ":size=65536");
    }
    pools.push_back(pool);
  }
  if (pools.empty()) throw std::invalid_argument("the pool specification names no pool");
  return pools;
}

std::int64_t largestAlignment(const std::vector<MemoryPool>& pools) {
  std::int64_t alignment = 1;
  for (const MemoryPool& p : pools) alignment = std::max(alignment, p.alignment);
  return alignment;
}

}  // namespace loupe::memory
