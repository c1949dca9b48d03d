#include "cli/command_line.h"

namespace loupe::cli {

std::optional<std::string> ParsedArguments::value(const std::string& name) const {
  auto it = options.find(name);
  if (it == options.end() || it->second.empty()) return std::nullopt;
  return it->second.front();
}

std::vector<std::string> ParsedArguments::list(const std::string& name) const {
  auto it = options.find(name);
  return it == options.end() ? std::vector<std::string>{} : it->second;
}

ParsedArguments parseArguments(const std::vector<std::string>& args,
                               const std::vector<OptionSpec>& specs) {
  ParsedArguments parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const OptionSpec* spec = nullptr;
    for (const auto& candidate : specs) {
      if (candidate.name == arg) spec = &candidate;
    }
    // Declared short options ("-o") are options; other single-dash words are
    // positional (a file may be called "-").
    if (spec == nullptr && (arg.size() < 2 || arg.rfind("--", 0) != 0)) {
      parsed.positional.push_back(arg);
      continue;
    }
    if (spec == nullptr) throw UsageError("unknown option " + arg);
    auto& values = parsed.options[arg];
    switch (spec->kind) {
      case OptionSpec::Kind::Flag:
        break;
      case OptionSpec::Kind::Value:
        if (i + 1 >= args.size()) throw UsageError(arg + " needs a value");
        values = {args[++i]};
        break;
      case OptionSpec::Kind::List:
        while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) values.push_back(args[++i]);
        if (values.empty()) throw UsageError(arg + " needs at least one value");
        break;
    }
  }
  return parsed;
}

}  // namespace loupe::cli
