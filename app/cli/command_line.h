// Parsing of loupec's command line: a verb, positional arguments and
// --options, some of which take one value or a list of values.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace loupe::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;  // "--inputs"
  enum class Kind { Flag, Value, List } kind;
};

class ParsedArguments {
 public:
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> options;

  bool has(const std::string& name) const { return options.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> list(const std::string& name) const;
};

// Throws UsageError for an unknown option or a missing value.
ParsedArguments parseArguments(const std::vector<std::string>& args,
                               const std::vector<OptionSpec>& specs);

}  // namespace loupe::cli
