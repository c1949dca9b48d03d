#include "deploy/bundled_tuning.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iterator>

namespace loupe::deploy {

namespace fs = std::filesystem;

fs::path bundledTuningDirectory() {
  if (const char* own = std::getenv("LOUPE_TUNING_DIR"); own != nullptr && *own != '\0') {
    return own;
  }
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  // bin/ of an installation is one level down; the build tree's binaries
  // are one to three (app/loupec, app/gui/loupe, tests/<area>/<test>).
  for (fs::path folder = executable.parent_path(); !folder.empty(); folder = folder.parent_path()) {
    const fs::path tuning = folder / "share" / "loupe" / "tuning";
    if (fs::is_directory(tuning, error)) return tuning;
    if (folder == folder.root_path()) break;
  }
  return {};
}

BundledTuningLogs readBundledTuningLogs(const fs::path& directory) {
  BundledTuningLogs logs;
  std::error_code error;
  if (directory.empty() || !fs::is_directory(directory, error)) return logs;
  logs.directory = directory;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (entry.path().extension() == ".jsonl" && entry.is_regular_file(error)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());  // the same order on every file system
  for (const fs::path& file : files) {
    try {
      std::vector<tuning::TuningRecord> records = tuning::readTuningLogFile(file.string());
      logs.records.insert(logs.records.end(), std::make_move_iterator(records.begin()),
                          std::make_move_iterator(records.end()));
    } catch (const std::exception& e) {
      logs.problems.push_back(e.what());  // it names the file and the line
    }
  }
  return logs;
}

const BundledTuningLogs& bundledTuningLogs() {
  static const BundledTuningLogs logs = readBundledTuningLogs(bundledTuningDirectory());
  return logs;
}

lowering::ScheduleTable bundledSchedules(const std::vector<tuning::TuningRecord>& records,
                                         const std::string& board) {
  std::vector<tuning::TuningRecord> onBoard;
  std::copy_if(records.begin(), records.end(), std::back_inserter(onBoard),
               [&board](const tuning::TuningRecord& record) { return record.board == board; });
  return tuning::bestSchedules(onBoard);
}

}  // namespace loupe::deploy
