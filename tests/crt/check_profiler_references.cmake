# ctest crt_profiler_compiled_out: the objects of profiler_macro_probe.c built
# without profiling (TVM_CRT_PROFILING undefined or 0) must not reference any
# profiler symbol; those built with it (1, or defined empty) must reference
# TVMProfilerOperatorDone, which shows the check would see a reference if
# there were one.
#   cmake -DNM=nm -DOFF=obj -DZERO=obj -DON=obj -DEMPTY=obj -P check_profiler_references.cmake
foreach(variable NM OFF ZERO ON EMPTY)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check_profiler_references.cmake needs -D${variable}=...")
  endif()
endforeach()

function(undefined_symbols object out)
  execute_process(COMMAND ${NM} -u ${object} OUTPUT_VARIABLE symbols RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${NM} -u ${object} failed")
  endif()
  set(${out} "${symbols}" PARENT_SCOPE)
endfunction()

foreach(build OFF ZERO)
  undefined_symbols(${${build}} symbols)
  if(symbols MATCHES "TVMProfiler|TVMPlatformProfiler|TVMPlatformTimer")
    message(FATAL_ERROR "TVM_CRT_PROFILING ${build}: the object references the profiler:\n${symbols}")
  endif()
  message(STATUS "TVM_CRT_PROFILING ${build}: no profiler reference")
endforeach()

foreach(build ON EMPTY)
  undefined_symbols(${${build}} symbols)
  if(NOT symbols MATCHES "TVMProfilerOperatorDone")
    message(FATAL_ERROR "TVM_CRT_PROFILING ${build}: expected calls to the profiler, got:\n${symbols}")
  endif()
  message(STATUS "TVM_CRT_PROFILING ${build}: calls TVMProfilerOperatorDone")
endforeach()
