#include "ethosu/command_stream_writer.h"

#include <stdexcept>
#include <string>

namespace loupe::ethosu {

namespace {

bool isCmd1(std::uint32_t code) {
  return (code & LOUPE_ETHOSU_CMD1_FLAG) != 0;
}

void checkKnown(std::uint32_t code) {
  if (loupe_ethosu_find_command(code) == nullptr) {
    throw std::invalid_argument("no Ethos-U command has the code " + std::to_string(code));
  }
}

}  // namespace

std::pair<std::uint32_t, std::uint32_t> CommandStreamWriter::encode(std::uint32_t code,
                                                                    FieldValues fields) {
  checkKnown(code);
  std::uint32_t word0 = code, word1 = 0;
  for (const auto& [field, value] : fields) {
    if (field.width < 32 && (value >> field.width) != 0 &&
        (value | ((1u << field.width) - 1u)) != 0xffffffffu) {
      // Neither an unsigned value of the field's width nor a negative one
      // that two's complement fits into it.
      throw std::invalid_argument("value " + std::to_string(value) + " does not fit the " +
                                  std::to_string(field.width) + "-bit field at bit " +
                                  std::to_string(field.lsb) + " of " +
                                  loupe_ethosu_find_command(code)->name);
    }
    loupe_ethosu_field_set(&word0, &word1, field.lsb, field.width, value);
  }
  return {word0, word1};
}

void CommandStreamWriter::append(std::uint32_t code,
                                 std::pair<std::uint32_t, std::uint32_t> command) {
  words_.push_back(command.first);
  if (isCmd1(code)) words_.push_back(command.second);
}

void CommandStreamWriter::set(std::uint32_t code, FieldValues fields) {
  const auto command = encode(code, fields);
  const auto held = registers_.find(code);
  if (held != registers_.end() && held->second == command) {
    ++leftOut_;
    return;
  }
  registers_[code] = command;
  append(code, command);
}

void CommandStreamWriter::setValue(std::uint32_t code, std::uint64_t value) {
  checkKnown(code);
  if (isCmd1(code)) {
    // Addresses beyond 32 bits (the U65's) keep their high 8 bits in the
    // parameter, as every address command's addr_hi field says.
    if ((value >> 40) != 0) {
      throw std::invalid_argument(std::string(loupe_ethosu_find_command(code)->name) +
                                  ": value beyond 40 bits");
    }
    set(code, {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_BASE0, addr), static_cast<std::uint32_t>(value)},
               {LOUPE_ETHOSU_FIELD(NPU_SET_IFM_BASE0, addr_hi),
                static_cast<std::uint32_t>(value >> 32)}});
    return;
  }
  // A cmd0 of one field (a region, an extent, a bank): that field.
  const loupe_ethosu_field_info* only = nullptr;
  for (std::uint32_t i = 0; i < loupe_ethosu_field_count; ++i) {
    if (loupe_ethosu_fields[i].command_code != code) continue;
    if (only != nullptr) {
      throw std::invalid_argument(std::string(loupe_ethosu_find_command(code)->name) +
                                  " has several fields: set them by name");
    }
    only = &loupe_ethosu_fields[i];
  }
  const std::string name = loupe_ethosu_find_command(code)->name;
  if (only == nullptr) throw std::invalid_argument(name + " has no field to set");
  if (value >> only->width != 0) {
    throw std::invalid_argument(name + ": value " + std::to_string(value) + " does not fit its " +
                                std::to_string(only->width) + " bits");
  }
  set(code, {{RegisterField{only->lsb, only->width}, static_cast<std::uint32_t>(value)}});
}

void CommandStreamWriter::operation(std::uint32_t code, FieldValues fields) {
  append(code, encode(code, fields));
}

}  // namespace loupe::ethosu
