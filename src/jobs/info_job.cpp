// `job: info`: the diagnostic job. Prints what `ppl info` prints and optionally writes it as JSON.
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/job_kinds.hpp"

namespace ppl {
namespace {

class info_job final : public job {
 public:
  explicit info_job(const config_node& c) : output_(optional_output_file(c, "output")), job_file_(c.job_file()) {}
  int run(job_context& ctx) override {
    const auto s = query_system_info();
    ctx.out << to_text(s);
    if (output_) {
      auto j = nlohmann::ordered_json::parse(to_json(s, *output_));
      j["job_file"] = job_file_.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(job_file_);
      write_file_atomically(*output_, [&](std::ostream& o) { o << j.dump(2) << "\n"; });
      ctx.out << "wrote " << *output_ << "\n";
    }
    return 0;
  }

 private:
  std::optional<std::string> output_;
  std::string job_file_;
};

}  // namespace

std::unique_ptr<job> make_info_job(const config_node& c) {
  return std::make_unique<info_job>(c);
}

}  // namespace ppl
