#pragma once
// The defaults the SpMV strategies choose when a job does not set them (docs/solver.md states each rule), as plain
// functions so that the documented rules are tested as such. `gpu`: the rule for a GPU execution space; host
// backends run one team per thread and have their own.

namespace ppl {

// `vector`: threads_per_row when not given.
constexpr int vector_default_threads_per_row = 8;

// `vector`, `auto`: rows per team when not given: 256 / threads_per_row on a GPU (256-thread teams), 128 on the host.
int vector_rows_per_team(int threads_per_row, bool gpu);

// `auto`: the power of two nearest (in log2) to mean_nnz / 2, in [2, 32] (27 per row: 16, 81: 32).
int auto_threads_per_row(double mean_nnz);

// `vector_cuda`: the largest power of two <= mean_nnz / 3, in [1, 32] (27 per row: 8, 81: 16).
int cuda_threads_per_row(double mean_nnz);
// `auto` on a CUDA build: stream_cuda (true) or vector_cuda (false). Kokkos 3.x: always stream_cuda; Kokkos 4.x:
// stream_cuda below 47 nonzeros per row on average.
bool cuda_prefers_stream(double mean_nnz);

// `stream`: rows per team R when not given: on a GPU the largest power of two in [8, 128] with R x mean_nnz <= 2048
// (27 per row: 64, 81: 16; 8 when even 8 rows exceed it); on the host 256.
int stream_rows_per_team(double mean_nnz, bool gpu);

}  // namespace ppl
