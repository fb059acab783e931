// libFuzzer harness: the PQR reader (ppl::read_pqr) on arbitrary bytes, plain or gzip-compressed.
#include "fuzz_support.hpp"
#include "ppl/core/error.hpp"
#include "ppl/io/atoms.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ppl_fuzz::scratch_file file;
  try {
    ppl::read_pqr(file.write(data, size));
  } catch (const ppl::input_error&) {
  }
  return 0;
}
