#include "deploy/firmware_build.h"

#include "deploy/build_cache.h"
#include "deploy/compiler_cache.h"
#include "deploy/deploy_error.h"
#include "deploy/interrupt_cleanup.h"
#include "deploy/platform_registry.h"
#include "deploy/process_runner.h"

namespace loupe::deploy {

namespace fs = std::filesystem;

void writeProject(const std::vector<ProjectFile>& files, const fs::path& directory) {
  for (const ProjectFile& file : files) {
    const fs::path relative(file.path);
    // Paths come from Loupe's own generators; refuse anything that would
    // leave the project folder all the same.
    if (relative.is_absolute() || file.path.find("..") != std::string::npos) {
      throw std::runtime_error("refusing to write project file outside the project: " + file.path);
    }
    writeTextFile(directory / relative, file.text);
  }
}

FirmwareBuild buildFirmware(const Platform& platform, const codegen::CompiledModel& model,
                            const FirmwareBuildOptions& options) {
  // Known before anything is generated, so a model far too large for the
  // board is refused at once, not after a build.
  if (auto problem = platform.checkFits(model)) {
    throw DeployError(DeployError::Kind::DoesNotFit, *problem);
  }
  requireTools(platform);
  if (!platform.buildsProjectItself() && !isOnPath("make")) {
    throw DeployError(DeployError::Kind::ToolMissing,
                      "building firmware needs make (install the Debian package make)");
  }
  auto clock = std::chrono::steady_clock::now();
  auto lap = [&clock] {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - clock).count();
    clock = now;
    return seconds;
  };
  const std::vector<ProjectFile> files = platform.projectFiles(model);
  const std::string platformName = platform.name();
  std::vector<std::string_view> parts = {platformName};
  for (const ProjectFile& file : files) parts.insert(parts.end(), {file.path, file.text});
  const bool external = platform.buildsProjectItself();
  if (external) {
    for (const auto& [name, value] : options.options) parts.insert(parts.end(), {name, value});
  }

  const fs::path root = (options.cacheRoot.empty() ? defaultCacheRoot() : options.cacheRoot) /
                        "firmware" / platformName;
  FirmwareBuild build;
  build.directory = root / contentKey(parts);
  build.firmware = build.directory / platform.firmwarePath();
  if (fs::exists(build.firmware)) {
    build.generateSeconds = lap();
    build.reused = true;
    return build;
  }
  // Build in a private folder and rename it into place, so concurrent and
  // interrupted builds never leave a half project in the cache; a folder of
  // a build whose Loupe was killed is removed here.
  sweepAbandonedFolders(root, kWorkFolderPrefix);
  const fs::path work = root / (std::string(kWorkFolderPrefix) + uniqueSuffix());
  const TemporaryFolderRegistration onInterrupt(work);
  struct RemoveOnFailure {
    fs::path path;
    bool keep = false;
    ~RemoveOnFailure() {
      std::error_code ignored;
      if (!keep) fs::remove_all(path, ignored);
    }
  } cleanup{work};
  if (external) {
    // The platform's server generates and builds the project from the model
    // folder; its project folder is the firmware start() gets.
    writeProject(files, work / "model");
    build.generateSeconds = lap();
    ProjectBuildContext context{
        options.options, [&build](const std::string& text) { build.log += text; }, options.stop};
    platform.buildProject(work / "model", work / platform.firmwarePath(), context);
    build.buildSeconds = lap();
    moveIntoCache(work, build.directory, build.firmware);
    cleanup.keep = true;
    return build;
  }
  writeProject(files, work);
  build.generateSeconds = lap();
  std::vector<std::string> argv = {"make", "-j" + std::to_string(std::max(1, options.jobs))};
  if (const auto cache = compilerCache()) argv.push_back("CCACHE=" + *cache);
  build.log = commandLineForDisplay(argv) + "\n";
  const ProcessResult result = runProcess(argv, work, options.timeLimit, options.stop);
  build.log += result.output;
  build.buildSeconds = lap();
  if (result.cancelled) {
    throw DeployError(DeployError::Kind::Cancelled,
                      "the build of the " + platformName + " project was cancelled");
  }
  if (result.timedOut) {
    throw DeployError(DeployError::Kind::BuildFailed,
                      "the build of the " + platformName + " project took too long:\n" + build.log);
  }
  if (result.exitCode != 0) {
    if (auto explanation = platform.explainBuildFailure(result.output)) {
      throw DeployError(DeployError::Kind::DoesNotFit, *explanation);
    }
    throw DeployError(DeployError::Kind::BuildFailed,
                      "the build of the " + platformName + " project failed:\n" + build.log);
  }
  moveIntoCache(work, build.directory, build.firmware);
  cleanup.keep = true;
  return build;
}

}  // namespace loupe::deploy
