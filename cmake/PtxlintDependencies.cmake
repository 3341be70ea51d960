# Finds every dependency from Debian packages (scripts/setup.sh installs them).

find_package(LLVM 14 REQUIRED CONFIG
  HINTS /usr/lib/llvm-14/lib/cmake/llvm)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
add_library(ptxlint_llvm INTERFACE)
target_include_directories(ptxlint_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(ptxlint_llvm INTERFACE ${LLVM_DEFINITIONS})
# Debian ships libLLVM-14.so; linking it is much faster than the static libs.
if(TARGET LLVM)
  target_link_libraries(ptxlint_llvm INTERFACE LLVM)
else()
  target_link_libraries(ptxlint_llvm INTERFACE LLVMSupport)
endif()

find_path(ANTLR4_RUNTIME_INCLUDE antlr4-runtime.h
  PATHS /usr/include/antlr4-runtime /usr/local/include/antlr4-runtime
  REQUIRED)
find_library(ANTLR4_RUNTIME_LIB NAMES antlr4-runtime REQUIRED)
add_library(ptxlint_antlr_runtime INTERFACE)
target_include_directories(ptxlint_antlr_runtime SYSTEM INTERFACE
  ${ANTLR4_RUNTIME_INCLUDE})
target_link_libraries(ptxlint_antlr_runtime INTERFACE ${ANTLR4_RUNTIME_LIB})

find_program(ANTLR4_TOOL NAMES antlr4 REQUIRED)

find_path(DOCTEST_INCLUDE doctest/doctest.h PATHS /usr/include)
find_package(Threads REQUIRED)
