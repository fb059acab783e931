#pragma once
// What a config_node tree shares (internal to src/core): the source name, which keys readers asked about, and the
// files the job reads and writes, so outputs can be checked against inputs wherever in the file they are named.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ppl/jobs/config.hpp"

namespace ppl {

enum class file_role { job, input, output };

struct config_node::state {
  std::string source;
  std::map<std::string, std::set<std::string>> known;        // map path -> keys asked about
  std::set<std::string> consumed;                            // paths taken whole
  std::map<std::string, std::string> overridden;             // paths set by overrides -> their place in messages
  // Paths set by overrides -> the folder relative paths in their values resolve against ("": the current folder).
  std::map<std::string, std::string> override_folder;
  std::string text;  // the parsed text, for copy()
  struct override_text {
    std::string assignment, label;
    std::optional<std::string> relative_to;
  };
  std::vector<override_text> applied;  // overrides in order, for copy()

  struct file {
    std::string canonical;  // weakly_canonical absolute path
    std::string shown;      // as the user wrote it (resolved)
    file_role role;
    std::string where;  // file:line:col of the key, or the job file's name
    std::string key;    // dotted key path ("" for the job file)
  };
  std::vector<file> files;
  // Checks `path` against every file recorded so far (an output may not be an input, the job file or another
  // output; two inputs may coincide) and records it.
  void record_file(const std::string& path, file_role role, const std::string& where, const std::string& key = "");

  // A required key that was missing while a near-miss spelling sat in the same map: reported by check_all_used()
  // (or instead of whatever error the factory hit next) with the full list of valid keys.
  struct misspelling {
    std::string map_path, missing, found, where;
  };
  std::optional<misspelling> misspelt;
};

}  // namespace ppl
