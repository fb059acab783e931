#include "ppl/core/error.hpp"
#include "ppl/jobs/job.hpp"

namespace ppl {

std::unique_ptr<job> load_job(const std::string& path, const std::vector<std::string>& overrides) {
  config_node root = config_node::from_file(path);
  for (const auto& o : overrides) root.apply_override(o);
  if (!root.has("job"))
    throw input_error(path + ":1:1: missing required key 'job' (one of: " + job_kinds().names_joined() + ")");
  const auto kind_node = root.child("job");
  const auto kind = kind_node.as<std::string>();
  const auto& entry = job_kinds().get(kind, kind_node.where() + ": job kind");
  auto j = entry.factory(root);
  root.check_all_used();
  return j;
}

}  // namespace ppl
