# Toolchain file for bare-metal Arm Cortex-M with the GNU Arm toolchain
# (arm-none-eabi-gcc), used to build the board runtime on its own:
#   cmake -S runtime_core/crt -B build/crt-m3 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake -DCRT_CPU=cortex-m3
# CRT_CPU is the -mcpu value (default cortex-m3). Cores without an FPU get
# -mfloat-abi=soft, cores with one hard (the FPU implied by -mcpu, -mfpu=auto);
# CRT_FLOAT_ABI overrides that. Both are read on the first configure of a
# build directory (they seed CMAKE_C_FLAGS): use a fresh directory per core.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# There is no start-up code or linker script for an unknown board, so
# CMake's compiler checks build a library instead of linking a program.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# The compiler checks run in their own projects: hand the core over to them.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES CRT_CPU CRT_FLOAT_ABI)

if(NOT CRT_CPU)
  set(CRT_CPU cortex-m3)
endif()
set(CRT_CPU "${CRT_CPU}" CACHE STRING "Arm core to build for (-mcpu)")
if(NOT CRT_FLOAT_ABI)
  if(CRT_CPU MATCHES "^cortex-m(0|0plus|1|3|23)$" OR CRT_CPU MATCHES "\\+nofp")
    set(CRT_FLOAT_ABI soft)
  else()
    set(CRT_FLOAT_ABI hard)
  endif()
endif()

set(LOUPE_ARM_CPU_FLAGS "-mcpu=${CRT_CPU} -mthumb -mfloat-abi=${CRT_FLOAT_ABI}")
set(CMAKE_C_FLAGS_INIT "${LOUPE_ARM_CPU_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${LOUPE_ARM_CPU_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${LOUPE_ARM_CPU_FLAGS}")

# Programs (cmake, code generators) come from the host, libraries and headers
# only from the toolchain.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
