# Shorter builds, used automatically when the tools are installed
# (scripts/setup.sh installs both):
# - ccache: a rebuild after `git pull`, a second clone or a CI run on a
#   machine that built before compiles only what changed. base_dir makes the
#   cache shared between clones in different folders; the sloppiness lets it
#   cache the tests' precompiled header (LoupeTest.cmake). Depend mode takes
#   the headers from the compiler's -MD output (Ninja asks for it) instead of
#   preprocessing each file first, which cost an eighth of a cold build.
# - mold: links the ~200 test executables several times faster than GNU ld.
# Either can be turned off: -DLOUPE_USE_CCACHE=OFF, -DLOUPE_USE_MOLD=OFF.
option(LOUPE_USE_CCACHE "Compile through ccache when it is installed" ON)
option(LOUPE_USE_MOLD "Link with mold when it is installed" ON)

if(LOUPE_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(LOUPE_CCACHE_PROGRAM ccache)
  if(LOUPE_CCACHE_PROGRAM)
    set(launcher ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_DEPEND=1
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${LOUPE_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
    message(STATUS "Compiling through ccache (${LOUPE_CCACHE_PROGRAM})")
  endif()
endif()

if(LOUPE_USE_MOLD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12.1)
  find_program(LOUPE_MOLD_PROGRAM mold)
  if(LOUPE_MOLD_PROGRAM)
    add_link_options(-fuse-ld=mold)
    message(STATUS "Linking with mold (${LOUPE_MOLD_PROGRAM})")
  endif()
endif()

# Release at -O2, as Debian builds its packages: -O3 compiled the compiler's
# files 10-15% slower for no measured gain (the instruction counts the
# benches report are the generated C's, built by the boards' own flags).
foreach(lang C CXX)
  string(REPLACE "-O3" "-O2" CMAKE_${lang}_FLAGS_RELEASE "${CMAKE_${lang}_FLAGS_RELEASE}")
endforeach()

# Unity builds of the product's libraries: each compiler, deploy, plugin and
# GUI source file reparses the same standard library, TIR and graph headers,
# which cost more than the file's own code; compiled in batches the compiler
# library takes a fifth of the CPU time. A batch of 16 keeps a one-line change
# rebuilding in well under a minute. -DLOUPE_UNITY_BUILD=OFF for file-by-file
# builds (a unity batch hides a missing #include).
option(LOUPE_UNITY_BUILD "Compile the product's libraries in unity batches" ON)
function(loupe_unity_build target)
  if(LOUPE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
  endif()
endfunction()
