#include <fmt/format.h>

#include <string>
#include <utility>

#include "ppl/core/error.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "ppl/jobs/job.hpp"
#if PPL_HAVE_MPI
#include "mpi/split_map.hpp"
#endif

namespace ppl {
namespace {

std::unique_ptr<job> build_job(config_node& root, const std::string& where_missing) {
  const auto kind_node = [&] {
    try {
      return root.child("job");  // a misspelt 'job:' is found here and reported at the end
    } catch (const input_error&) {
      throw input_error(where_missing + ": missing required key 'job' (one of: " + job_kinds().names_joined() + ")");
    }
  }();
  const auto kind = kind_node.as<std::string>();
  const auto& entry = registry_entry(job_kinds(), kind, kind_node.where() + ": job kind");
#if PPL_HAVE_MPI
  // Only the potential map (of job: potential and job: ions) is split over ranks (docs/mpi.md); any other job
  // would run whole on every rank, each writing the same files.
  if (mpi::ranks() > 1 && entry.name != "potential" && entry.name != "ions")
    throw input_error(kind_node.where() + ": job: " + entry.name + " is not split over MPI ranks (" +
                      std::to_string(mpi::ranks()) +
                      " ranks; only job: potential and job: ions are): run it with one rank");
#endif
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

// A YAML double-quoted scalar: any file name (spaces, ':', '#', quotes, a leading '[') stays one string.
std::string yaml_quoted(const std::string& s) {
  std::string q = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\')
      q += std::string("\\") + c;
    else if (static_cast<unsigned char>(c) < 0x20)
      q += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));  // a newline stays in the name
    else
      q += c;
  }
  return q + "\"";
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::unique_ptr<job> load_job(const std::string& path, const std::vector<std::string>& overrides) {
  config_node root = config_node::from_file(path);
  for (const auto& o : overrides) root.apply_override(o);
  return build_job(root, path + ":1:1");
}

std::string map_output_key(const std::string& map) {
  std::string lower;
  for (const char c : map) lower += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const auto& [ext, key] : {std::pair<const char*, const char*>{".dx", "dx"},
                                 {".dx.gz", "dx"},
                                 {".mrc", "mrc"},
                                 {".map", "mrc"},
                                 {".raw", "raw"},
                                 {".raw.gz", "raw"}})
    if (ends_with(lower, ext) && lower.size() > std::string(ext).size()) return key;
  throw input_error("ppl map -o '" + map +
                    "': unknown map format (the extension decides: .dx or .dx.gz OpenDX, .mrc or .map MRC, .raw or "
                    ".raw.gz float32 with a JSON sidecar)");
}

std::unique_ptr<job> make_map_job(const std::string& molecule, const std::string& map, const std::string& summary,
                                  const std::vector<std::string>& overrides) {
  const std::string key = map_output_key(map);
  // No job file: the molecule and the outputs are relative to the current folder, as --set values are.
  config_node root = config_node::from_string("job: potential\n", "ppl map");
  root.apply_override("input.pqr=" + yaml_quoted(molecule), "ppl map " + molecule);
  root.apply_override("output." + key + "=" + yaml_quoted(map), "ppl map -o");
  if (!summary.empty()) root.apply_override("output.summary=" + yaml_quoted(summary), "ppl map --summary");
  for (const auto& o : overrides) root.apply_override(o);
  return build_job(root, "ppl map");
}

}  // namespace ppl
