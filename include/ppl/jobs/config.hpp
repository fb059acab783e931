#pragma once
// A checked view of a YAML job file. Every key a reader asks about is remembered; after a job has read its
// configuration, check_all_used() reports any key nobody asked about, with file:line:column and the valid keys.
// Wrong types and out-of-range values are reported the same way. yaml-cpp stays inside src/jobs/config_yaml.cpp.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ppl {

class config_node {
 public:
  static config_node from_file(const std::string& path);
  static config_node from_string(const std::string& text, const std::string& source_name);

  // "a.b.c=value": the value is parsed as YAML (so "[1,2,3]" is a list); missing maps on the way are created.
  // Errors about the key, and about anything inside the value, name `label` as their place ("--set a.b.c" when
  // empty; a sweep names its `vary` entry). The value is one YAML document without duplicate keys, recursive aliases
  // or more than max_yaml_nodes nodes once aliases are expanded. Relative paths in the value resolve against
  // `relative_to` when given, else against the current folder for a command-line override (no label) and the job
  // file's folder for a labelled one.
  void apply_override(const std::string& assignment, const std::string& label = "",
                      const std::optional<std::string>& relative_to = std::nullopt);
  // The most YAML nodes (aliases expanded) a job file, or a job file with its overrides, may hold; a job has a few
  // hundred. Also the limit on each override's value.
  static constexpr std::size_t max_yaml_nodes = 100000;

  // A fresh tree from the same text with the same overrides applied, at this node's path, with no key marked as
  // read and the files named so far still recorded: a job can read one configuration many times (a sweep's
  // points), each read checked on its own.
  config_node copy() const;
  // This subtree as one line of flow YAML (what apply_override takes) and as JSON (plain scalars typed as YAML
  // reads them: null, bool, integer, number, else string). Marks nothing as read.
  std::string to_yaml() const;
  std::string to_json() const;
  // A map's keys in document order, each marked valid (a map whose keys are data, like a sweep's `vary`).
  std::vector<std::string> keys() const;
  // A map's keys that no reader has asked about yet, in document order (marks nothing).
  std::vector<std::string> unread_keys() const;
  // The folder a relative path written at `key` resolves against: the job file's ("" for the current folder when the
  // key was set on the command line).
  std::string folder_of(const std::string& key) const;

  bool has(const std::string& key) const;  // marks `key` as a valid key of this map
  config_node child(const std::string& key) const;
  std::optional<config_node> find(const std::string& key) const;
  std::vector<config_node> items() const;  // elements of a sequence

  template <class T>
  T get(const std::string& key) const;  // required
  template <class T>
  T get(const std::string& key, const T& fallback) const;
  template <class T>
  T as() const;  // this node as a scalar / list

  // Numbers with an inclusive range check.
  template <class T>
  T get_in(const std::string& key, const T& fallback, const T& lo, const T& hi) const;
  // A string that must be one of `choices`.
  std::string get_choice(const std::string& key, const std::string& fallback,
                         const std::vector<std::string>& choices) const;

  bool is_map() const;
  bool is_sequence() const;
  bool is_scalar() const;
  bool is_null() const;

  std::string where() const;                         // "file:line:col" (or "--set a.b" for overrides)
  std::string where(const std::string& key) const;   // of a key of this map
  const std::string& path() const { return path_; }  // dotted path from the root ("" for the root)
  std::string key_path(const std::string& key) const;
  const std::string& source() const;  // the file name
  // The job file as read (from_file); "" for a job built from text (`ppl map`), whose summary names no file.
  std::string job_file() const;

  // Fails with an input_error on the first key (in document order) that no reader asked about, or on a required
  // key that was only present misspelt.
  void check_all_used() const;
  // The misspelt-required-key error alone (a factory that failed after the misspelling reports this instead).
  void throw_if_misspelt() const;

  // Records `path`, an output named outside this tree (a sweep's results beside its base job), so that no input read
  // through this tree may be it: fails now or when such an input is read. `where` and `key` name it in the message.
  void reserve_output(const std::string& path, const std::string& where, const std::string& key) const;

  // Files named by the job. An input is relative to the job file's folder (to the current folder when set by --set:
  // folder_of) and must be a readable regular file now;
  // an output is relative to the current folder and is checked now: its folder exists and is writable, it is not a
  // folder or special file (/proc, /dev), and it is none of the job's inputs, the job file or another output, in
  // whichever order the keys are read. `sidecars` are files written beside the output (checked the same way). Each
  // file name leaves room for the writer's temporary suffix below NAME_MAX (at most 243 bytes). A name ending in a
  // compression suffix is refused unless it is ".gz" and the key's writer compresses (`may_gzip`: maps).
  std::string input_file(const std::string& key) const;
  std::string output_file(const std::string& key, const std::vector<std::string>& sidecars = {},
                          bool may_gzip = false) const;

  // Marks this whole subtree as used (for free-form maps like metadata).
  void mark_used() const;

  struct impl;
  struct state;

 private:
  config_node(std::shared_ptr<state> s, std::shared_ptr<impl> n, std::string path);
  std::shared_ptr<state> state_;
  std::shared_ptr<impl> node_;
  std::string path_;
};

}  // namespace ppl
