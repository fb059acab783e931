// libFuzzer harness: the Matrix Market readers (sparse matrix and dense vector, host side, as `job: solve` uses
// them) on arbitrary bytes, plain or gzip-compressed.
#include "fuzz_support.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/matrix_market.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ppl_fuzz::scratch_file file;
  const std::string& path = file.write(data, size);
  try {
    ppl::read_matrix_market_host(path);
  } catch (const ppl::input_error&) {
  }
  try {
    ppl::read_matrix_market_vector_host(path);
  } catch (const ppl::input_error&) {
  }
  return 0;
}
