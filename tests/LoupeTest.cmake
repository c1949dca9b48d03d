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

# ctest's test `name` with its labels, running the command after them.
function(loupe_register_test name labels)
  add_test(NAME ${name} COMMAND ${ARGN})
  # Firmware and host builds a test leaves in the default cache go to the
  # build tree, not the user's ~/.cache/loupe (tests that need a cache of
  # their own set XDG_CACHE_HOME themselves).
  set_tests_properties(${name} PROPERTIES LABELS "${labels}"
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/tests/cache")
endfunction()

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

# The flags every test target compiles with, and the precompiled header.
# Tests fill requests and options as aggregates and leave the trailing members
# at their defaults, which is what the defaults are for.
function(loupe_test_compile_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-missing-field-initializers
                                           ${ARGN} ${LOUPE_TEST_OPTIMIZATION})
  target_precompile_headers(${target} REUSE_FROM loupe_test_support)
endfunction()

# loupe_add_test_library(NAME name SOURCES file... [LIBRARIES lib...])
# Helpers that several tests of a folder link, compiled once with the tests'
# flags and precompiled header instead of once in each test executable.
function(loupe_add_test_library)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${T_NAME} STATIC ${T_SOURCES})
  target_link_libraries(${T_NAME} PUBLIC loupe_test_support Qt6::Test ${T_LIBRARIES})
  target_include_directories(${T_NAME} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  loupe_test_compile_options(${T_NAME})
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC OFF)
endfunction()

function(loupe_add_test)
  cmake_parse_arguments(T "" "NAME" "LABELS;SOURCES;LIBRARIES" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE loupe_test_support Qt6::Test ${T_LIBRARIES})
  loupe_test_compile_options(${T_NAME})
  loupe_test_moc(${T_NAME} ${T_SOURCES})
  loupe_register_test(${T_NAME} "${T_LABELS}" ${T_NAME})
endfunction()

# loupe_add_test_group(NAME executable [PREFIX prefix | TEST name] LABELS label...
#                      SOURCES file... [LIBRARIES lib...])
# Test files compiled together into one executable in unity batches
# (tests/support/test_group.h says how a file takes part), and each file
# registered with ctest as a test of its own, named PREFIX<file's stem> (or
# TEST, for a group of one file), that runs `executable <stem>`. Eight files
# compiled as one took a quarter of the time they took one by one: the
# precompiled header's load, the project's headers and the templates the
# tests instantiate are then paid once per batch.
function(loupe_add_test_group)
  cmake_parse_arguments(G "" "NAME;PREFIX;TEST" "LABELS;SOURCES;LIBRARIES" ${ARGN})
  add_executable(${G_NAME} ${G_SOURCES})
  target_link_libraries(${G_NAME} PRIVATE loupe_test_group_main loupe_test_support Qt6::Test
                                          ${G_LIBRARIES})
  # A test class is in its file's namespace, no longer an anonymous one, and
  # GCC warns when such a class holds a type of the anonymous namespace: that
  # would break if two translation units defined the class, which one file's
  # class never is.
  loupe_test_compile_options(${G_NAME} -Wno-subobject-linkage)
  loupe_test_moc(${G_NAME} ${G_SOURCES})
  if(LOUPE_UNITY_BUILD)
    set_target_properties(${G_NAME} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
  foreach(source IN LISTS G_SOURCES)
    get_filename_component(stem ${source} NAME_WE)
    if(G_TEST)
      set(test ${G_TEST})
    else()
      set(test ${G_PREFIX}${stem})
    endif()
    loupe_register_test(${test} "${G_LABELS}" ${G_NAME} ${stem})
  endforeach()
endfunction()
