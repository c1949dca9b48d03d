#include "tuning/tuning_log.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

namespace loupe::tuning {

using nlohmann::json;

std::string tuningRecordLine(const TuningRecord& record) {
  json line = {{"workload", record.workload}, {"operator", record.op}, {"knobs", record.knobs},
               {"unit", record.unit},         {"board", record.board}, {"loupe", record.version}};
  if (record.cost) line["cost"] = *record.cost;
  if (!record.error.empty()) line["error"] = record.error;
  // Replace, not throw, on invalid UTF-8: a record must never be lost to
  // an odd byte in an error message.
  return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

TuningRecord parseRecord(const json& line) {
  TuningRecord record;
  record.workload = line.at("workload").get<std::string>();
  record.op = line.value("operator", "");
  record.knobs = line.at("knobs").get<lowering::Schedule>();
  if (line.contains("cost") && !line.at("cost").is_null()) {
    record.cost = line.at("cost").get<double>();
  }
  record.unit = line.value("unit", "");
  record.board = line.value("board", "");
  record.version = line.value("loupe", "");
  record.error = line.value("error", "");
  if (!record.cost && record.error.empty()) {
    throw std::invalid_argument("a record needs a cost or an error");
  }
  return record;
}

}  // namespace

std::vector<TuningRecord> readTuningLog(std::istream& in, const std::string& source) {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<TuningRecord> records;
  std::size_t begin = 0;
  for (int lineNumber = 1; begin < text.size(); ++lineNumber) {
    const std::size_t newline = text.find('\n', begin);
    const bool complete = newline != std::string::npos;
    const std::string line = text.substr(begin, complete ? newline - begin : std::string::npos);
    begin = complete ? newline + 1 : text.size();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      records.push_back(parseRecord(json::parse(line)));
    } catch (const std::exception& error) {
      // A last line without its newline was cut short by an interrupted
      // tuning: what it held was never measured to the end. Skip it.
      if (!complete) break;
      throw TuningLogError(source + ":" + std::to_string(lineNumber) + ": not a tuning record (" +
                           error.what() + ")");
    }
  }
  return records;
}

std::vector<TuningRecord> readTuningLogFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TuningLogError("cannot open tuning log " + path);
  return readTuningLog(in, path);
}

std::vector<TuningRecord> bestRecords(const std::vector<TuningRecord>& records) {
  std::map<std::string, double> least;
  std::vector<std::string> order;
  for (const TuningRecord& record : records) {
    if (!record.cost) continue;
    auto [it, added] = least.try_emplace(record.workload, *record.cost);
    if (added) {
      order.push_back(record.workload);
    } else {
      it->second = std::min(it->second, *record.cost);
    }
  }
  std::map<std::string, const TuningRecord*> best;
  for (const TuningRecord& record : records) {
    if (record.cost && *record.cost <= least.at(record.workload) * (1 + kNearTie)) {
      best.try_emplace(record.workload, &record);
    }
  }
  std::vector<TuningRecord> result;
  for (const std::string& workload : order) result.push_back(*best.at(workload));
  return result;
}

lowering::ScheduleTable bestSchedules(const std::vector<TuningRecord>& records) {
  lowering::ScheduleTable table;
  for (const TuningRecord& record : bestRecords(records)) table[record.workload] = record.knobs;
  return table;
}

}  // namespace loupe::tuning
