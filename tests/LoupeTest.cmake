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

# moc for the tests, without automoc: each test source with a Q_OBJECT class
# includes its own <name>.moc, made by running moc on that file alone. Automoc
# spent over half a second per test executable (130 s of a cold build for the
# ~180 of them) starting up, scanning every source and running moc with the
# target's include paths, which moc follows into QtCore without changing a
# byte of a test's output; moc on the file alone takes milliseconds.
function(loupe_test_moc target)
  set(moc_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_moc)
  foreach(source IN LISTS ARGN)
    get_filename_component(source ${source} ABSOLUTE)
    file(STRINGS ${source} declares_object REGEX "Q_OBJECT" LIMIT_COUNT 1)
    if(NOT declares_object)
      continue()
    endif()
    get_filename_component(stem ${source} NAME_WE)
    add_custom_command(OUTPUT ${moc_dir}/${stem}.moc
      COMMAND Qt6::moc ${source} -o ${moc_dir}/${stem}.moc
      DEPENDS ${source} Qt6::moc
      COMMENT "moc ${stem}.cpp" VERBATIM)
    # A generated source of the target: made before any of its objects compiles.
    target_sources(${target} PRIVATE ${moc_dir}/${stem}.moc)
  endforeach()
  target_include_directories(${target} PRIVATE ${moc_dir})
  set_target_properties(${target} PROPERTIES AUTOMOC OFF)
endfunction()

# loupe_add_test_library(NAME name SOURCES file... [LIBRARIES lib...])
# Helpers that several tests of a folder link, compiled once with the tests'
# flags and precompiled header instead of once in each test executable.
function(loupe_add_test_library)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${T_NAME} STATIC ${T_SOURCES})
  target_link_libraries(${T_NAME} PUBLIC loupe_test_support Qt6::Test ${T_LIBRARIES})
  target_include_directories(${T_NAME} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(${T_NAME} PRIVATE -Wall -Wextra -Wno-missing-field-initializers
                                           ${LOUPE_TEST_OPTIMIZATION})
  target_precompile_headers(${T_NAME} REUSE_FROM loupe_test_support)
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC OFF)
endfunction()

function(loupe_add_test)
  cmake_parse_arguments(T "" "NAME" "LABELS;SOURCES;LIBRARIES" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE loupe_test_support Qt6::Test ${T_LIBRARIES})
  # Tests fill requests and options as aggregates and leave the trailing
  # members at their defaults, which is what the defaults are for.
  target_compile_options(${T_NAME} PRIVATE -Wall -Wextra -Wno-missing-field-initializers
                                           ${LOUPE_TEST_OPTIMIZATION})
  target_precompile_headers(${T_NAME} REUSE_FROM loupe_test_support)
  loupe_test_moc(${T_NAME} ${T_SOURCES})
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  # Firmware and host builds a test leaves in the default cache go to the
  # build tree, not the user's ~/.cache/loupe (tests that need a cache of
  # their own set XDG_CACHE_HOME themselves).
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}"
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/tests/cache")
endfunction()
