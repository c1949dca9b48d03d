// loupec operators: what Loupe supports, operator by operator, against the
// builtins TFLite Micro registers (the table of docs/operators.md).
#include <iostream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "ops/operator_table.h"

namespace loupe::cli {

const char* const kOperatorsUsage =
    "  loupec operators\n"
    "      prints, for every TFLite builtin TFLite Micro can run, whether Loupe's reference\n"
    "      interpreter and generated C support it and for which element types (Markdown)";

int runOperatorsCommand(const std::vector<std::string>& args) {
  const auto parsed = parseArguments(args, {});
  if (!parsed.positional.empty()) throw UsageError("operators takes no arguments");
  std::cout << ops::operatorTableMarkdown();
  return 0;
}

}  // namespace loupe::cli
