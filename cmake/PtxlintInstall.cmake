# Installs libptxlint, its headers under include/ptxlint/, a CMake package and
# a pkg-config file (README "Use as a library"):
#   find_package(ptxlint CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE ptxlint::ptxlint)
#   cc app.c $(pkg-config --cflags --libs ptxlint)
include(CMakePackageConfigHelpers)
set(PTXLINT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptxlint)

# Only the public API: SpecTables.h, LintContext.h and SymbolTable.h are the
# library's own (no installed header includes them).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ptxlint
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def"
  PATTERN "SpecTables.h" EXCLUDE PATTERN "LintContext.h" EXCLUDE
  PATTERN "SymbolTable.h" EXCLUDE)
# Builder.h's enums, generated from spec-tables/ (spec-tables/CMakeLists.txt).
install(FILES ${PTXLINT_PUBLIC_GEN_DIR}/ptxlint/BuilderEnums.inc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptxlint)

if(NOT PTXLINT_SHARED_LIB)
  # A static libptxlint would have to export the generated parser, the ANTLR
  # runtime and LLVM too; only the shared library is packaged.
  install(TARGETS ptxlint ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  return()
endif()

install(TARGETS ptxlint EXPORT ptxlintTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ptxlintTargets NAMESPACE ptxlint:: DESTINATION ${PTXLINT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ptxlintConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ptxlintConfig.cmake
  INSTALL_DESTINATION ${PTXLINT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptxlintConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
configure_file(${PROJECT_SOURCE_DIR}/cmake/ptxlint.pc.in ${PROJECT_BINARY_DIR}/ptxlint.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ptxlint.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_BINARY_DIR}/ptxlintConfig.cmake
              ${PROJECT_BINARY_DIR}/ptxlintConfigVersion.cmake
  DESTINATION ${PTXLINT_CMAKE_DIR})
