// Every target and platform Loupe's plugins provide, in the registries an app
// builds once at start-up (loupec's main, the GUI's main) and passes on.
#pragma once

#include "deploy/registries.h"

namespace loupe::plugins {

deploy::Registries builtinRegistries();

}  // namespace loupe::plugins
