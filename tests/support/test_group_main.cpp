// main() of a test group (test_group.h): runs the one test its first
// argument names and hands the rest of the arguments to Qt Test.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "test_group.h"

namespace loupe::test {

namespace {

// By the stem of the test's source file. A function-local static: the
// registrations run during static initialisation, in any order.
std::map<std::string, GroupedTestRun>& groupedTests() {
  static std::map<std::string, GroupedTestRun> tests;
  return tests;
}

}  // namespace

bool registerGroupedTest(const char* sourceFile, GroupedTestRun run) {
  const std::string name = std::filesystem::path(sourceFile).stem().string();
  if (!groupedTests().emplace(name, run).second) {
    std::fprintf(stderr, "two grouped tests are named %s\n", name.c_str());
    std::abort();
  }
  return true;
}

}  // namespace loupe::test

int main(int argc, char** argv) {
  const auto& tests = loupe::test::groupedTests();
  const auto test = argc >= 2 ? tests.find(argv[1]) : tests.end();
  if (test == tests.end()) {
    std::fprintf(stderr, "usage: %s TEST [Qt Test options]\n%s%s. The tests here:\n", argv[0],
                 argc >= 2 ? "there is no test named " : "name the test to run",
                 argc >= 2 ? argv[1] : "");
    for (const auto& [name, run] : tests) std::fprintf(stderr, "  %s\n", name.c_str());
    return 2;
  }
  // Qt Test sees the executable's name and the arguments after the test's.
  std::vector<char*> arguments = {argv[0]};
  arguments.insert(arguments.end(), argv + 2, argv + argc);
  arguments.push_back(nullptr);
  return test->second(argc - 1, arguments.data());
}
