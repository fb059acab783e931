# `cmake --install`: the headers, the layer libraries (exported as ppl::core ... ppl::jobs and ppl::ppl), the `ppl`
# command, and a package configuration, so that an outside project writes `find_package(ppl)` and links ppl::ppl
# (examples/cpp is one; CI builds it against an install).
include(CMakePackageConfigHelpers)

set(PPL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ppl)
set(ppl_layer_targets)
foreach(layer ${PPL_LAYERS})
  list(APPEND ppl_layer_targets ppl_${layer})
endforeach()

install(TARGETS ${ppl_layer_targets} ppl EXPORT pplTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS ppl_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ppl DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT pplTargets NAMESPACE ppl:: DESTINATION ${PPL_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pplConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pplConfig.cmake INSTALL_DESTINATION ${PPL_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pplConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pplConfig.cmake ${PROJECT_BINARY_DIR}/pplConfigVersion.cmake
        DESTINATION ${PPL_INSTALL_CMAKEDIR})
