// ppl_test::run_job (support/ppl_test.hpp): a job file run in this process, as `ppl run` would. Apart from the
// rest of the support so that only the job layer's tests link the job layer.
#include <chrono>
#include <sstream>

#include "ppl/jobs/job.hpp"
#include "support/ppl_test.hpp"

namespace ppl_test {

int run_job(const std::string& path, std::string* output) {
  const auto started = std::chrono::steady_clock::now();  // as ppl's main: the job's time includes its loading
  auto j = ppl::load_job(path, {});
  std::ostringstream out;
  ppl::job_context ctx{out};
  ctx.started = started;
  const int rc = j->run(ctx);
  if (output) *output = out.str();
  return rc;
}

}  // namespace ppl_test
