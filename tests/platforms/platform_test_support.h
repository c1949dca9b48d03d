// What the board tests share: failing clearly when a tool is missing, the
// boards every test runs on, and reading a firmware's section sizes.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace loupe::test {

// Whether `tool` is on PATH; when not, fails the current test naming the
// Debian package that provides it.
bool requireTool(const char* tool, const char* debianPackage);

// The data rows of a test run once per board folder: column "board"
// (QString). Every board, or only those QEMU emulates.
void addBoardRows();
void addEmulatedBoardRows();

// The sizes `arm-none-eabi-size -A` reports, by section name.
std::map<std::string, std::uint64_t> sectionSizes(const std::string& sizeOutput);

}  // namespace loupe::test
