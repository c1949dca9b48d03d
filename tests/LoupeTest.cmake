# loupe_add_test(NAME name LABELS label... SOURCES file... [LIBRARIES lib...])
# Builds one Qt Test executable and registers it with ctest.
#
# QtCore's module header (which <QtTest> includes), nlohmann/json and the
# standard library make up most of what a test's compile parses. They are
# precompiled once, with loupe_test_support, and every test reuses that
# header: none of them looks at the macros that differ between tests (each
# folder's QT_TESTCASE_SOURCEDIR, the QT_<MODULE>_LIB of the Qt modules a
# test links), so the one precompiled header is valid for all.
#
# A test's own code is compiled at -O1 in optimised builds: -O2 took a
# tenth to a fifth longer on it for no gain, as the work a test runs is in
# the product's libraries, compiled as they ship. The precompiled header is
# made at the same level (tests/support), or GCC would not use it.
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  set(LOUPE_TEST_OPTIMIZATION -O1)
endif()

function(loupe_add_test)
  cmake_parse_arguments(T "" "NAME" "LABELS;SOURCES;LIBRARIES" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE loupe_test_support Qt6::Test ${T_LIBRARIES})
  # Tests fill requests and options as aggregates and leave the trailing
  # members at their defaults, which is what the defaults are for.
  target_compile_options(${T_NAME} PRIVATE -Wall -Wextra -Wno-missing-field-initializers
                                           ${LOUPE_TEST_OPTIMIZATION})
  target_precompile_headers(${T_NAME} REUSE_FROM loupe_test_support)
  # moc gives the tests' .moc files byte for byte the same without the
  # compiler's predefined macros, and skipping them halves each test's
  # automoc step.
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC_COMPILER_PREDEFINES OFF)
  # The tests include their own .moc, so automoc's file is all but empty:
  # loading the precompiled header would cost it a second, compiling it none.
  set_source_files_properties(${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}_autogen/mocs_compilation.cpp
                              PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  # Firmware and host builds a test leaves in the default cache go to the
  # build tree, not the user's ~/.cache/loupe (tests that need a cache of
  # their own set XDG_CACHE_HOME themselves).
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}"
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/tests/cache")
endfunction()
