#pragma once
// Shared readers for job configurations (potential, solve, info; next ion placement and sweeps). Each builds on
// config_node's checked access and reports bad input as an input_error naming file:line:col and the dotted key, so
// every job words the same mistake the same way. Files named by a job: config_node::input_file / output_file.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/core/text.hpp"
#include "ppl/jobs/config.hpp"

namespace ppl {

// A section that, when present, must be a map (a scalar or list there would otherwise be silently ignored).
// Absent or null: nullopt. Otherwise "<where>: '<section>' must be a map".
std::optional<config_node> optional_map(const config_node& parent, const std::string& key);

// A section that names exactly one of `alternatives` as its keys (input: {pqr | random | water_box}); returns the
// one given. `section` must be a map ("'input' must be a map with one of: pqr, random, water_box"), and exactly one
// alternative must be present ("'input' needs exactly one of: pqr, random, water_box (2 given)"; none given but a
// misspelling of one: throw_if_misspelt_among).
std::string exactly_one_of(const config_node& section, const std::vector<std::string>& alternatives);

// Before a "needs one of" error: a key of `section` that no reader has asked about and that is close to one of
// `expected` is that key misspelt, and the error says so at the typo: "job.yaml:3:10: unknown key 'pqrr' in 'input':
// did you mean 'pqr'? ('input' needs one of: pqr, random, water_box)". Nothing when there is no such key.
void throw_if_misspelt_among(const config_node& section, const std::vector<std::string>& expected);

// registry.get(name, where), with a suggestion for an unknown name: "<where>: unknown potential strategy 'gathr':
// did you mean 'gather'? available in this build: ..." (a registered name this build cannot run: get()'s error).
template <class Registry>
const typename Registry::entry& registry_entry(const Registry& reg, const std::string& name, const std::string& where) {
  if (reg.lookup(name) == nullptr) {
    const std::string guess = closest_match(name, reg.names());
    if (!guess.empty())
      throw input_error(where + ": unknown " + reg.family() + " '" + name + "': did you mean '" + guess +
                        "'? available in this build: " + reg.names_joined());
  }
  return reg.get(name, where);
}

// A list of exactly `n` numbers, each finite and within +-max_abs (box corners, sizes, ranges). Absent: `fallback`,
// or, when `fallback` is empty, "missing required key". Errors name the key's file:line:col and dotted path.
std::vector<double> fixed_number_list(const config_node& c, const std::string& key, std::size_t n, double max_abs,
                                      const std::vector<double>& fallback = {});

// An output file under an optional key: nullopt when absent, else config_node::output_file(key, sidecars), which
// checks it now (writable folder, not a folder or special file, not an input, the job file or another output).
std::optional<std::string> optional_output_file(const config_node& c, const std::string& key,
                                                const std::vector<std::string>& sidecars = {}, bool may_gzip = false);

// Runs `f` and returns its result; an input_error it throws is rethrown as "<context>: <message>". For a reader of
// a file named by the job, context is "<where of the key>: <dotted key>", so the message names the job file's line
// and the input file's line: "job.yaml:2:9: input.pqr: atoms.pqr:3: field 'z' is not a number".
template <class F>
auto prefix_input_errors(const std::string& context, F&& f) {
  try {
    return f();
  } catch (const input_error& e) {
    throw input_error(context + ": " + e.what());
  }
}

}  // namespace ppl
