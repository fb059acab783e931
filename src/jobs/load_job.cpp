#include "ppl/core/error.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "ppl/jobs/job.hpp"

namespace ppl {

std::unique_ptr<job> load_job(const std::string& path, const std::vector<std::string>& overrides) {
  config_node root = config_node::from_file(path);
  for (const auto& o : overrides) root.apply_override(o);
  const auto kind_node = [&] {
    try {
      return root.child("job");  // a misspelt 'job:' is found here and reported at the end
    } catch (const input_error&) {
      throw input_error(path + ":1:1: missing required key 'job' (one of: " + job_kinds().names_joined() + ")");
    }
  }();
  const auto kind = kind_node.as<std::string>();
  const auto& entry = registry_entry(job_kinds(), kind, kind_node.where() + ": job kind");
  std::unique_ptr<job> j;
  try {
    j = entry.factory(root);
  } catch (const input_error&) {
    root.throw_if_misspelt();  // a misspelt required key explains what failed after it
    throw;
  }
  root.check_all_used();
  return j;
}

}  // namespace ppl
