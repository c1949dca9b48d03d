#include "platforms/project_api_platform.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "deploy/deploy_error.h"
#include "deploy/model_project_files.h"
#include "deploy/project_api_client.h"
#include "deploy/project_api_transport.h"
#include "platforms/platform_files.h"

namespace loupe::platforms {

namespace fs = std::filesystem;
using deploy::DeployError;
using deploy::ProjectApiError;
using nlohmann::json;

namespace {

json optionsJson(const std::map<std::string, std::string>& options) {
  json object = json::object();
  for (const auto& [name, value] : options) object[name] = value;
  return object;
}

DeployError::Kind kindOf(const ProjectApiError& error, DeployError::Kind otherwise) {
  return error.kind() == ProjectApiError::Kind::Cancelled ? DeployError::Kind::Cancelled
                                                          : otherwise;
}

// A "log" string in a result goes to the build log.
void logResult(const json& result, const std::function<void(const std::string&)>& log) {
  if (!log || !result.is_object()) return;
  if (const auto text = result.find("log"); text != result.end() && text->is_string()) {
    std::string line = text->get<std::string>();
    if (!line.empty() && line.back() != '\n') line += '\n';
    log(line);
  }
}

}  // namespace

ProjectApiPlatform::ProjectApiPlatform(fs::path folder, Timeouts timeouts)
    : folder_(std::move(folder)), timeouts_(timeouts) {
  std::ifstream in(folder_ / "platform.json", std::ios::binary);
  if (!in) throw std::runtime_error("cannot read platform.json");
  const json root = json::parse(std::istreambuf_iterator<char>(in),
                                std::istreambuf_iterator<char>(), nullptr, false);
  if (!root.is_object()) throw std::runtime_error("platform.json is not a JSON object");
  auto text = [&](const char* key) {
    const auto it = root.find(key);
    if (it == root.end() || !it->is_string() || it->get<std::string>().empty()) {
      throw std::runtime_error(std::string("platform.json: expected a string '") + key + "'");
    }
    return it->get<std::string>();
  };
  name_ = text("name");
  description_ = text("description");
  const auto server = root.find("server");
  if (server == root.end() || !server->is_array() || server->empty()) {
    throw std::runtime_error("platform.json: expected 'server', the API server's argument list");
  }
  for (const json& argument : *server) {
    if (!argument.is_string())
      throw std::runtime_error("platform.json: 'server' lists a non-string");
    server_.push_back(argument.get<std::string>());
  }
  // A program named with a path is the folder's own: resolve it and check
  // it can run; a bare name (python3) is looked up on PATH when started.
  if (server_.front().find('/') != std::string::npos) {
    const fs::path program = fs::absolute(folder_ / server_.front());
    if (::access(program.c_str(), X_OK) != 0) {
      throw std::runtime_error("its API server " + program.string() + " is not an executable file");
    }
    server_.front() = program.string();
  }
}

const ProjectApiPlatform::Info& ProjectApiPlatform::info() const {
  std::call_once(infoOnce_, [this] {
    try {
      deploy::ProjectApiClient server(name_, server_, folder_);
      const json result = server.call("server_info_query", json::object(), timeouts_.info);
      if (!result.is_object())
        throw std::runtime_error("server_info_query: the result is not an object");
      info_.cpu = result.value("cpu", "");
      for (const json& entry : result.value("project_options", json::array())) {
        if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string()) {
          throw std::runtime_error("server_info_query: a project option without a name");
        }
        deploy::ProjectOption option;
        option.name = entry["name"].get<std::string>();
        option.help = entry.value("help", "");
        option.defaultValue = entry.value("default", "");
        for (const json& choice : entry.value("choices", json::array())) {
          if (choice.is_string()) option.choices.push_back(choice.get<std::string>());
        }
        info_.options.push_back(std::move(option));
      }
    } catch (const std::exception& e) {
      info_ = {};
      info_.problem = e.what();
    }
  });
  return info_;
}

std::string ProjectApiPlatform::cpu() const {
  return info().cpu;
}

std::vector<deploy::ProjectOption> ProjectApiPlatform::projectOptions() const {
  return info().options;
}

std::string ProjectApiPlatform::problem() const {
  return info().problem;
}

std::vector<deploy::ProjectFile> ProjectApiPlatform::projectFiles(
    const codegen::CompiledModel& model) const {
  std::vector<deploy::ProjectFile> files = deploy::modelProjectFiles(model);
  deploy::ProjectFile descriptor = deploy::modelDescriptorFile(model);
  descriptor.path = "model_descriptor.c";
  files.push_back(std::move(descriptor));
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    if (path.starts_with("templates/model_rpc/") || path.starts_with("common/") ||
        path.starts_with("uarts/")) {
      files.push_back({"firmware/" + std::string(path), std::string(file.bytes)});
    }
  }
  return files;
}

void ProjectApiPlatform::buildProject(const fs::path& modelDirectory,
                                      const fs::path& projectDirectory,
                                      const deploy::ProjectBuildContext& context) const {
  try {
    deploy::ProjectApiClient server(name_, server_, folder_);
    const json options = optionsJson(context.options);
    if (context.log) context.log("[" + name_ + "] generate_project\n");
    logResult(server.call("generate_project",
                          {{"model_dir", fs::absolute(modelDirectory).string()},
                           {"project_dir", fs::absolute(projectDirectory).string()},
                           {"options", options}},
                          timeouts_.generate, context.stop),
              context.log);
    if (!fs::is_directory(projectDirectory)) {
      throw DeployError(DeployError::Kind::BuildFailed,
                        "platform " + name_ + ": generate_project made no project folder " +
                            projectDirectory.string());
    }
    if (context.log) context.log("[" + name_ + "] build\n");
    logResult(server.call(
                  "build",
                  {{"project_dir", fs::absolute(projectDirectory).string()}, {"options", options}},
                  timeouts_.build, context.stop),
              context.log);
  } catch (const ProjectApiError& error) {
    throw DeployError(kindOf(error, DeployError::Kind::BuildFailed), error.what());
  }
}

std::unique_ptr<host::Transport> ProjectApiPlatform::start(
    const fs::path& firmware, const deploy::StartOptions& startOptions) const {
  if (!fs::is_directory(firmware)) {
    throw DeployError(DeployError::Kind::StartFailed, "cannot start " + name_ + ": its project " +
                                                          firmware.string() + " does not exist");
  }
  const json options = optionsJson(startOptions.options);
  const json where = {{"project_dir", fs::absolute(firmware).string()}, {"options", options}};
  std::unique_ptr<deploy::ProjectApiClient> server;
  try {
    server = std::make_unique<deploy::ProjectApiClient>(name_, server_, folder_);
    if (startOptions.log) startOptions.log("[" + name_ + "] flash\n");
    logResult(server->call("flash", where, timeouts_.flash, startOptions.stop), startOptions.log);
  } catch (const ProjectApiError& error) {
    throw DeployError(kindOf(error, DeployError::Kind::FlashFailed), error.what());
  }
  try {
    server->call("open_transport", where, timeouts_.open, startOptions.stop);
  } catch (const ProjectApiError& error) {
    throw DeployError(kindOf(error, DeployError::Kind::StartFailed), error.what());
  }
  return std::make_unique<deploy::ProjectApiTransport>(std::move(server));
}

}  // namespace loupe::platforms
