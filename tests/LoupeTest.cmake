# loupe_add_test(NAME name LABELS label... SOURCES file... [LIBRARIES lib...])
# Builds one Qt Test executable and registers it with ctest.
function(loupe_add_test)
  cmake_parse_arguments(T "" "NAME" "LABELS;SOURCES;LIBRARIES" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE loupe_test_support Qt6::Test ${T_LIBRARIES})
  target_compile_options(${T_NAME} PRIVATE -Wall -Wextra)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}"
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
endfunction()
