// What the board tests share: failing clearly when a tool is missing, and
// the boards every test runs on.
#pragma once

namespace loupe::test {

// Whether `tool` is on PATH; when not, fails the current test naming the
// Debian package that provides it.
bool requireTool(const char* tool, const char* debianPackage);

// The data rows of a test run once per board folder: column "board"
// (QString). Every board, or only those QEMU emulates.
void addBoardRows();
void addEmulatedBoardRows();

}  // namespace loupe::test
