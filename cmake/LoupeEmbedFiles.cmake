# loupe_embed_files(OUTPUT file ROOT dir FILES relative... HEADER h NAMESPACE ns
#                   FUNCTION fn COMMENT text)
# Adds the custom command that writes OUTPUT, a C++ source defining
# `std::span<const loupe::EmbeddedFile> ns::fn()` with the bytes of the FILES
# (paths relative to ROOT), regenerated when any of them changes. The work is
# done by cmake/EmbedFiles.cmake at build time.
function(loupe_embed_files)
  cmake_parse_arguments(E "" "OUTPUT;ROOT;HEADER;NAMESPACE;FUNCTION;COMMENT" "FILES" ${ARGN})
  list(TRANSFORM E_FILES PREPEND ${E_ROOT}/ OUTPUT_VARIABLE paths)
  list(JOIN E_FILES "|" file_list)
  add_custom_command(
    OUTPUT ${E_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DROOT=${E_ROOT} "-DFILES=${file_list}" -DOUTPUT=${E_OUTPUT}
            -DHEADER=${E_HEADER} -DNAMESPACE=${E_NAMESPACE} -DFUNCTION=${E_FUNCTION}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    DEPENDS ${paths} ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    COMMENT "${E_COMMENT}"
    VERBATIM)
endfunction()
