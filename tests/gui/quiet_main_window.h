// The main window as the GUI tests open it: no message boxes (nobody could
// close them), no settings read or written, the built-in registries.
#pragma once

#include "gui/main_window.h"
#include "gui_test_files.h"

inline loupe::gui::MainWindow::Options quietOptions() {
  return loupe::gui::MainWindow::Options{
      .interactive = false, .persistSettings = false, .registries = loupe::test::registries()};
}
