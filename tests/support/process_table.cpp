#include "process_table.h"

#include <fstream>
#include <sstream>

namespace loupe::test {

namespace fs = std::filesystem;

std::optional<ProcessStat> readProcessStat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
  const auto open = line.find('('), close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close + 2 > line.size()) {
    return std::nullopt;
  }
  ProcessStat stat;
  stat.pid = pid;
  stat.command = line.substr(open + 1, close - open - 1);
  std::istringstream rest(line.substr(close + 2));
  rest >> stat.state >> stat.parent >> stat.group;
  std::string skip;
  for (int field = 6; field < 22; ++field) rest >> skip;  // up to field 22, starttime
  rest >> stat.startTime;
  return stat;
}

std::vector<ProcessStat> allProcesses() {
  std::vector<ProcessStat> processes;
  std::error_code error;
  for (fs::directory_iterator it("/proc", error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (auto stat = readProcessStat(std::stoi(name))) processes.push_back(*stat);
  }
  return processes;
}

std::optional<ProcessStat> liveChild(pid_t parent, const std::string& command) {
  for (const ProcessStat& p : allProcesses()) {
    if (p.parent == parent && p.command == command && p.state != 'Z') return p;
  }
  return std::nullopt;
}

bool isGone(const ProcessStat& process) {
  const auto now = readProcessStat(process.pid);
  return !now || now->state == 'Z' || now->state == 'X' || now->startTime != process.startTime;
}

int liveGroupMembers(pid_t group) {
  int count = 0;
  for (const ProcessStat& p : allProcesses()) count += p.group == group && p.state != 'Z';
  return count;
}

std::vector<fs::path> entriesStartingWith(const fs::path& folder, const std::string& prefix) {
  std::vector<fs::path> found;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename().string().starts_with(prefix)) found.push_back(it->path());
  }
  return found;
}

}  // namespace loupe::test
