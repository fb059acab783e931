# bench_petsc (included by perf/sparse/CMakeLists.txt): PETSc's KSP beside ppl's solvers on the same systems. Built
# only when PETSc is found through pkg-config (Debian petsc-dev; perf/sparse/petsc_side_by_side.sh installs it).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PETSC QUIET IMPORTED_TARGET PETSc)
endif()
# MPI is looked for only beside PETSc: a machine with Open MPI's runtime but not its headers (a FreeFem++ install
# brings that) would otherwise fail FindMPI's test compile.
if(TARGET PkgConfig::PETSC)
  find_package(MPI QUIET COMPONENTS CXX)
endif()
if(NOT TARGET PkgConfig::PETSC OR NOT TARGET MPI::MPI_CXX)
  message(STATUS "ppl: PETSc (pkg-config PETSc) or MPI not found: bench_petsc is not built (apt-get install petsc-dev)")
  return()
endif()
add_executable(bench_petsc ${CMAKE_CURRENT_SOURCE_DIR}/petsc/bench_petsc.cpp)
target_link_libraries(bench_petsc PRIVATE ppl ppl_warnings PkgConfig::PETSC MPI::MPI_CXX nlohmann_json::nlohmann_json)
