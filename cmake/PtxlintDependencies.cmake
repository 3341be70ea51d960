# Finds every dependency from Debian packages (scripts/setup.sh installs them).

find_package(LLVM 14 REQUIRED CONFIG
  HINTS /usr/lib/llvm-14/lib/cmake/llvm)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
add_library(ptxlint_llvm INTERFACE)
target_include_directories(ptxlint_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(ptxlint_llvm INTERFACE ${LLVM_DEFINITIONS})
# Only LLVM Support is used (command line, SourceMgr, raw_ostream, YAML).
# Link it statically: loading the shared libLLVM-14.so costs every ptxlint
# process about 50 MB of resident memory and 60 ms of start-up (relocations of
# the whole of LLVM), against 3 MB and under 1 ms for libLLVMSupport.a; that
# start-up dominated linting small files and the baseline dominated peak
# memory on a 10 MB module (bench/PROFILE.md). PTXLINT_LLVM_SHARED=ON links
# the shared library instead (faster links while developing).
option(PTXLINT_LLVM_SHARED "Link the shared libLLVM instead of static LLVMSupport" OFF)

# The ptxlint command is one static executable where the C library's and
# terminfo's archives are there (tools/ptxlint/CMakeLists.txt says why): not
# in instrumented builds, whose runtimes are shared libraries. It links
# LLVMSupport's archive with only what that needs (terminfo's setupterm), not
# LLVM's exported link interface, which names shared libraries (libz3.so,
# libz.so, libtinfo.so) that a static link cannot take. PTXLINT_STATIC_EXE=OFF
# links the shared C library instead: valgrind's memcheck reports the static
# C library's own start-up as errors.
option(PTXLINT_STATIC_EXE "Link the ptxlint command as one static executable where libc.a exists" ON)
set(PTXLINT_STATIC_COMMAND OFF)
if(PTXLINT_STATIC_EXE AND
   CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND
   TARGET LLVMSupport AND NOT PTXLINT_LLVM_SHARED AND
   NOT PTXLINT_SANITIZE AND NOT PTXLINT_FUZZ)
  find_library(PTXLINT_LIBC_STATIC NAMES libc.a)
  find_library(PTXLINT_TINFO_STATIC NAMES libtinfo.a)
  if(PTXLINT_LIBC_STATIC AND PTXLINT_TINFO_STATIC)
    set(PTXLINT_STATIC_COMMAND ON)
  endif()
endif()
set(_static $<BOOL:$<TARGET_PROPERTY:PTXLINT_STATIC_RUNTIME>>)

if(TARGET LLVMSupport AND NOT PTXLINT_LLVM_SHARED AND PTXLINT_STATIC_COMMAND)
  target_link_libraries(ptxlint_llvm INTERFACE
    $<$<NOT:${_static}>:LLVMSupport>
    $<${_static}:$<TARGET_FILE:LLVMSupport>> $<${_static}:$<TARGET_FILE:LLVMDemangle>>
    $<${_static}:${PTXLINT_TINFO_STATIC}>)
elseif(TARGET LLVMSupport AND NOT PTXLINT_LLVM_SHARED)
  target_link_libraries(ptxlint_llvm INTERFACE LLVMSupport)
elseif(TARGET LLVM)
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
# A program that sets PTXLINT_STATIC_RUNTIME (the ptxlint command) links the
# runtime's static archive where there is one (tools/ptxlint/CMakeLists.txt
# says why); libptxlint.so and the rest link the shared runtime.
find_library(ANTLR4_RUNTIME_STATIC_LIB NAMES libantlr4-runtime.a)
if(ANTLR4_RUNTIME_STATIC_LIB)
  target_link_libraries(ptxlint_antlr_runtime INTERFACE
    $<IF:$<BOOL:$<TARGET_PROPERTY:PTXLINT_STATIC_RUNTIME>>,${ANTLR4_RUNTIME_STATIC_LIB},${ANTLR4_RUNTIME_LIB}>)
else()
  target_link_libraries(ptxlint_antlr_runtime INTERFACE ${ANTLR4_RUNTIME_LIB})
endif()
# Debian's ANTLR 4.9 headers do not compile with clang + libstdc++:
# misc/InterpreterDataReader.h defines InterpreterData() {} although
# dfa::Vocabulary's default constructor is implicitly deleted under clang's
# rules (const std::vector members). For clang builds (the fuzz preset) a shim
# copy of antlr4-runtime.h sits in front of the system one; its quoted include
# of misc/InterpreterDataReader.h resolves to a patched copy next to it (same
# layout, constructor defaulted), everything else to the system headers.
# Written in every build: scripts/clang-syntax.py (ctest clang14-syntax) puts
# it in front of the system headers when it checks a gcc build with clang.
set(_shim ${CMAKE_BINARY_DIR}/antlr4-clang-shim)
file(READ ${ANTLR4_RUNTIME_INCLUDE}/misc/InterpreterDataReader.h _idr)
string(REPLACE "InterpreterData() {};" "InterpreterData() = default;" _idr "${_idr}")
# (configure_file rewrites it only when its text changes: a re-run of cmake
# must not rebuild every source that includes the ANTLR runtime.)
file(WRITE ${CMAKE_BINARY_DIR}/CMakeFiles/InterpreterDataReader.h.in "${_idr}")
configure_file(${CMAKE_BINARY_DIR}/CMakeFiles/InterpreterDataReader.h.in
               ${_shim}/misc/InterpreterDataReader.h COPYONLY)
configure_file(${ANTLR4_RUNTIME_INCLUDE}/antlr4-runtime.h
               ${_shim}/antlr4-runtime.h COPYONLY)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  target_include_directories(ptxlint_antlr_runtime SYSTEM BEFORE INTERFACE ${_shim})
endif()

find_program(ANTLR4_TOOL NAMES antlr4 REQUIRED)

find_path(DOCTEST_INCLUDE doctest/doctest.h PATHS /usr/include)
find_package(Threads REQUIRED)
