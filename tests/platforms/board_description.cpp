#include "board_description.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <stdexcept>

namespace loupe::test {

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw std::runtime_error(file.string() + ": " + what);
}

std::string requiredString(const QJsonObject& object, const char* key,
                           const std::filesystem::path& file) {
  const QJsonValue value = object.value(QLatin1String(key));
  if (!value.isString()) fail(file, std::string("expected a string '") + key + "'");
  return value.toString().toStdString();
}

// Origins are written in hexadecimal ("0x20000000") to match the data sheets.
std::uint64_t requiredAddress(const QJsonObject& object, const char* key,
                              const std::filesystem::path& file) {
  bool ok = false;
  const std::uint64_t address =
      QString::fromStdString(requiredString(object, key, file)).toULongLong(&ok, 0);
  if (!ok) fail(file, std::string("'") + key + "' is not an address");
  return address;
}

std::uint64_t requiredCount(const QJsonObject& object, const char* key,
                            const std::filesystem::path& file) {
  const QJsonValue value = object.value(QLatin1String(key));
  if (!value.isDouble() || value.toDouble() < 0)
    fail(file, std::string("expected a non-negative number '") + key + "'");
  return static_cast<std::uint64_t>(value.toDouble());
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

BoardDescription loadBoardDescription(const std::filesystem::path& boardDirectory) {
  const std::filesystem::path file = boardDirectory / "board.json";
  QFile input(QString::fromStdString(file.string()));
  if (!input.open(QIODevice::ReadOnly)) fail(file, "cannot be read");
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(input.readAll(), &error);
  if (!document.isObject()) fail(file, "not a JSON object: " + error.errorString().toStdString());
  const QJsonObject root = document.object();

  BoardDescription board;
  board.directory = boardDirectory;
  board.name = requiredString(root, "name", file);
  board.cpu = requiredString(root, "cpu", file);
  board.floatAbi = requiredString(root, "float_abi", file);
  board.clockHz = requiredCount(root, "clock_hz", file);
  board.uart0Base = requiredAddress(root, "uart0_base", file);
  const QJsonObject qemu = root.value(QLatin1String("qemu")).toObject();
  board.qemuExecutable = requiredString(qemu, "executable", file);
  board.qemuMachine = requiredString(qemu, "machine", file);
  for (const QJsonValue& entry : root.value(QLatin1String("memories")).toArray()) {
    const QJsonObject object = entry.toObject();
    BoardMemory memory;
    memory.name = requiredString(object, "name", file);
    memory.origin = requiredAddress(object, "origin", file);
    memory.size = requiredCount(object, "size", file);
    for (const QJsonValue& held : object.value(QLatin1String("holds")).toArray())
      memory.holds.push_back(held.toString().toStdString());
    board.memories.push_back(memory);
  }
  if (board.memories.empty()) fail(file, "lists no memories");
  return board;
}

}  // namespace loupe::test
