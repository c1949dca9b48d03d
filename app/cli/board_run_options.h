// The options that run and validate share for a run on a board: the
// connection (--port, --baud), the platform's project options (--option
// NAME=VALUE) and how the model is compiled for it (--model-name, --planner,
// --pools, --target, --tuning-log, --no-tuning-log), made into a
// deploy::BoardRunRequest.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/tuning_options.h"
#include "deploy/platform_registry.h"
#include "deploy/run_on_board.h"
#include "target/target_string.h"

namespace loupe::cli {

// Those options' specs, --platform among them, to append to a verb's own.
std::vector<OptionSpec> boardRunOptionSpecs();

// The platform called `name`; UsageError ("unknown platform 'mars' ...")
// when there is none.
std::shared_ptr<const deploy::Platform> platformNamed(const std::string& name,
                                                      const deploy::PlatformRegistry& platforms);

// A request to compile `graph` for `targets` with `schedules` and run it on
// `platform`, with the connection and project options the user gave (each
// --option checked against what the platform offers; UsageError if not). The
// caller adds the inputs and the progress report.
deploy::BoardRunRequest boardRunRequestFrom(const ParsedArguments& parsed,
                                            std::shared_ptr<const deploy::Platform> platform,
                                            const ir::Graph& graph,
                                            const target::TargetList& targets,
                                            const ScheduleChoice& schedules);

}  // namespace loupe::cli
