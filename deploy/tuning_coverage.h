// How much of a compiled model tuned schedules cover: its distinct C
// workloads (deploy::findWorkloads) and how many were lowered with a
// schedule from a tuning log (driver::Compilation::schedules), for the line
// loupec prints after --tuning-log or the bundled logs and for the GUI's
// status bar.
#pragma once

#include <string>

#include "driver/compile_driver.h"

namespace loupe::deploy {

struct TuningCoverage {
  int tuned = 0;      // workloads lowered with a tuned schedule
  int workloads = 0;  // the model's distinct C workloads
};

TuningCoverage tuningCoverage(const driver::Compilation& compilation);

// "5 of 7 workloads tuned; 2 keep their default schedule".
std::string tuningCoverageText(const TuningCoverage& coverage);

}  // namespace loupe::deploy
