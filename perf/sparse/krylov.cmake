# bench_krylov (included by perf/sparse/CMakeLists.txt): Krylov time per iteration vs its memory floor, with
# Eigen's BiCGSTAB (header-only, Debian libeigen3-dev) as the CPU peer when Eigen is found.
find_package(Eigen3 3.3 NO_MODULE)
if(NOT TARGET Eigen3::Eigen)
  message(WARNING "ppl: Eigen3 not found: bench_krylov is not built (apt-get install libeigen3-dev)")
  return()
endif()
add_executable(bench_krylov ${CMAKE_CURRENT_SOURCE_DIR}/bench_krylov.cpp ${CMAKE_CURRENT_SOURCE_DIR}/eigen_bicgstab.cpp)
target_link_libraries(bench_krylov PRIVATE ppl_perf_main ppl_warnings Eigen3::Eigen)
