#pragma once
// cuSPARSE cusparseSpMV on the same CSR arrays, behind the spmv_strategy interface so that bench_spmv times it
// exactly like the ppl strategies. Only in perf/ and only when Kokkos has CUDA (PPL_BENCH_CUSPARSE).
#include <memory>

#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::bench {

// alg: 1 = CUSPARSE_SPMV_CSR_ALG1 (the default CSR algorithm), 2 = CUSPARSE_SPMV_CSR_ALG2 (deterministic).
std::unique_ptr<spmv_strategy> make_cusparse_peer(int alg);

}  // namespace ppl::bench
