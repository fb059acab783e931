// cuSPARSE generic API: one CSR descriptor per matrix (32-bit offsets and indices, as ppl's CUDA CrsMatrix
// stores them), the work buffer sized and the preprocessing done once in prepare(), on Kokkos' CUDA stream.
#include "../cusparse_peer.hpp"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <stdexcept>
#include <string>

namespace ppl::bench {
namespace {

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE ") + what + ": " + cusparseGetErrorString(s));
}

class cusparse_peer final : public spmv_strategy {
 public:
  explicit cusparse_peer(int alg) : alg_(alg == 2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1), n_(alg) {
    check(cusparseCreate(&handle_), "create");
    check(cusparseSetStream(handle_, Kokkos::Cuda().cuda_stream()), "set stream");
  }
  ~cusparse_peer() override {
    release();
    cusparseDestroy(handle_);
  }

  void prepare(const crs_matrix& A) override {
    static_assert(sizeof(crs_matrix::size_type) == 4 && sizeof(crs_matrix::ordinal_type) == 4, "32-bit CSR");
    release();
    check(cusparseCreateConstCsr(&mat_, A.numRows(), A.numCols(), A.nnz(), A.graph.row_map.data(),
                                 A.graph.entries.data(), A.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
          "create CSR");
    x_ = vector_view("cusparse::x", A.numCols());
    y_ = vector_view("cusparse::y", A.numRows());
    check(cusparseCreateDnVec(&vx_, A.numCols(), x_.data(), CUDA_R_64F), "create x");
    check(cusparseCreateDnVec(&vy_, A.numRows(), y_.data(), CUDA_R_64F), "create y");
    std::size_t bytes = 0;
    check(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, vx_, &zero_, vy_, CUDA_R_64F,
                                  alg_, &bytes),
          "buffer size");
    if (cudaMalloc(&buffer_, bytes > 0 ? bytes : 1) != cudaSuccess) throw std::runtime_error("cudaMalloc failed");
    check(cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, vx_, &zero_, vy_, CUDA_R_64F,
                                  alg_, buffer_),
          "preprocess");
    prepared_for_ = A.values.data();
  }

  void apply(const execution& space, const crs_matrix& A, const_vector_view x, vector_view y) override {
    if (!space.is_default()) throw std::runtime_error("cusparse peer: the default execution space only");
    if (prepared_for_ != A.values.data()) prepare(A);
    // cuSPARSE only reads x; its generic descriptor has no const setter.
    check(cusparseDnVecSetValues(vx_, const_cast<double*>(x.data())), "set x");
    check(cusparseDnVecSetValues(vy_, y.data()), "set y");
    check(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, vx_, &zero_, vy_, CUDA_R_64F, alg_,
                       buffer_),
          "SpMV");
  }

  std::string describe() const override { return "cusparseSpMV CSR_ALG" + std::to_string(n_); }

 private:
  void release() {
    if (mat_) cusparseDestroySpMat(mat_);
    if (vx_) cusparseDestroyDnVec(vx_);
    if (vy_) cusparseDestroyDnVec(vy_);
    if (buffer_) cudaFree(buffer_);
    mat_ = nullptr, vx_ = nullptr, vy_ = nullptr, buffer_ = nullptr;
  }

  cusparseSpMVAlg_t alg_;
  int n_;
  cusparseHandle_t handle_ = nullptr;
  cusparseConstSpMatDescr_t mat_ = nullptr;
  cusparseDnVecDescr_t vx_ = nullptr;
  cusparseDnVecDescr_t vy_ = nullptr;
  void* buffer_ = nullptr;
  const void* prepared_for_ = nullptr;
  vector_view x_, y_;  // placeholders for the descriptors until apply sets the real pointers
  const double one_ = 1.0, zero_ = 0.0;
};

}  // namespace

std::unique_ptr<spmv_strategy> make_cusparse_peer(int alg) {
  return std::make_unique<cusparse_peer>(alg);
}

}  // namespace ppl::bench
