# ctest "install-consumer": installs this build into a fresh prefix, then
# configures, builds and runs examples/consumer against it out of tree.
# -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=...
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE RC OUTPUT_VARIABLE OUT
                  ERROR_VARIABLE ERR)
  message("$ ${ARGV}\n${OUT}${ERR}")
  if(NOT RC EQUAL 0)
    message(FATAL_ERROR "failed (${RC})")
  endif()
  set(LAST_OUT "${OUT}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
foreach(F include/ptxlint/Builder.h include/ptxlint/ptxlint.h include/ptxlint/Rules.def
          lib/cmake/ptxlint/ptxlintConfig.cmake lib/cmake/ptxlint/ptxlintTargets.cmake)
  if(NOT EXISTS ${WORK_DIR}/prefix/${F})
    message(FATAL_ERROR "not installed: ${F}")
  endif()
endforeach()
# The library's own headers stay out of the package.
foreach(F SpecTables.h LintContext.h SymbolTable.h)
  if(EXISTS ${WORK_DIR}/prefix/include/ptxlint/${F})
    message(FATAL_ERROR "installed, but internal: include/ptxlint/${F}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${WORK_DIR}/build
    -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(NOT LAST_OUT MATCHES "consumer: ok")
  message(FATAL_ERROR "consumer did not report ok")
endif()
run(${WORK_DIR}/build/consumer_c)
if(NOT LAST_OUT MATCHES "consumer_c: ok")
  message(FATAL_ERROR "consumer_c did not report ok")
endif()
