#include "target/target_string.h"

#include <sstream>

namespace loupe::target {

namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::vector<std::string> optionKeys(const TargetKind& kind) {
  std::vector<std::string> keys;
  for (const TargetOptionSpec& spec : kind.options) keys.push_back("-" + spec.key);
  return keys;
}

std::shared_ptr<const Target> parseEntry(const std::string& entry, const TargetRegistry& registry) {
  std::istringstream words(entry);
  std::string name;
  words >> name;
  const TargetKind* kind = registry.find(name);
  if (kind == nullptr) {
    throw TargetStringError("unknown target '" + name +
                            "' (known targets: " + joined(registry.names()) + ")");
  }
  TargetOptions options;
  for (std::string word; words >> word;) {
    const auto equals = word.find('=');
    if (word.size() < 2 || word[0] != '-' || equals == std::string::npos || equals < 2) {
      throw TargetStringError("target '" + name + "': expected an option -key=value, found '" +
                              word + "'");
    }
    const std::string key = word.substr(1, equals - 1);
    const std::string value = word.substr(equals + 1);
    const TargetOptionSpec* spec = nullptr;
    for (const TargetOptionSpec& candidate : kind->options) {
      if (candidate.key == key) spec = &candidate;
    }
    if (spec == nullptr) {
      const auto keys = optionKeys(*kind);
      throw TargetStringError(
          "target '" + name + "' has no option -" + key +
          (keys.empty() ? " (it takes none)" : " (options: " + joined(keys) + ")"));
    }
    if (options.count(key) != 0) {
      throw TargetStringError("target '" + name + "': option -" + key + " is given twice");
    }
    bool allowed = false;
    for (const std::string& candidate : spec->allowedValues) allowed |= candidate == value;
    if (!allowed) {
      throw TargetStringError("target '" + name + "': -" + key + "=" + value + " is not one of " +
                              joined(spec->allowedValues));
    }
    options[key] = value;
  }
  for (const TargetOptionSpec& spec : kind->options)
    options.try_emplace(spec.key, spec.defaultValue);
  return kind->create(options);
}

}  // namespace

TargetList parseTargetString(std::string_view text, const TargetRegistry& registry) {
  if (trim(text).empty()) {
    throw TargetStringError(
        "the target string is empty: name at least one target, e.g. \"c\" or "
        "\"ethos-u -accelerator_config=ethos-u55-128, c\"");
  }
  TargetList targets;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string entry = trim(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (entry.empty()) {
      throw TargetStringError("the target string \"" + std::string(text) +
                              "\" has an empty entry between commas");
    }
    auto parsed = parseEntry(entry, registry);
    for (const auto& earlier : targets) {
      if (earlier->name() == parsed->name()) {
        throw TargetStringError("target '" + parsed->name() + "' is given twice");
      }
    }
    targets.push_back(std::move(parsed));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return targets;
}

std::string targetListString(const TargetList& targets) {
  std::string text;
  for (const auto& t : targets) text += (text.empty() ? "" : ", ") + t->toString();
  return text;
}

}  // namespace loupe::target
