// The only file that includes yaml-cpp: parsing, typed access with file:line:col errors, unknown-key checks.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "config_state.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/text.hpp"
#include "ppl/jobs/config.hpp"

namespace ppl {

struct config_node::impl {
  YAML::Node node;
};

namespace {

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const auto& k : s) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "(none)" : out;
}

// ": did you mean 'X'? " when `word` is close to one of `valid`, else "; ": what goes between "unknown key 'w'"
// and "valid keys: ...".
std::string suggestion(const std::string& word, const std::set<std::string>& valid) {
  const std::string guess = closest_match(word, std::vector<std::string>(valid.begin(), valid.end()));
  return guess.empty() ? "; " : ": did you mean '" + guess + "'? ";
}

// The entry of `m` (an override's path -> something) that covers `path`: the path itself or the nearest map above
// it ("input" covers "input.pqr" and "input.random.atoms"); m.end() when no override set it.
template <class M>
typename M::const_iterator covering(const M& m, const std::string& path) {
  if (m.empty()) return m.end();
  for (std::string p = path; !p.empty();) {
    if (const auto it = m.find(p); it != m.end()) return it;
    const auto cut = p.find_last_of(".[");
    if (cut == std::string::npos) break;
    p.resize(cut);
  }
  return m.end();
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, bool>) return "true or false";
  if constexpr (std::is_integral_v<T>) return "an integer";
  if constexpr (std::is_floating_point_v<T>) return "a number";
  if constexpr (std::is_same_v<T, std::string>) return "a string";
  if constexpr (std::is_same_v<T, std::vector<double>>) return "a list of numbers";
  if constexpr (std::is_same_v<T, std::vector<int>>) return "a list of integers";
  if constexpr (std::is_same_v<T, std::vector<std::string>>) return "a list of strings";
  return "a value";
}

std::string describe(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsMap()) return "a map";
  if (n.IsSequence()) return "a list";
  return "nothing";
}

// "stratgy" for "strategy" (ppl::closest_match's rule: case-insensitive, a limit growing with the length).
bool is_near_miss(const std::string& a, const std::string& b) {
  return !closest_match(a, {b}).empty();
}

// Integers are plain decimal: yaml-cpp reads "010" as octal 8 and "0x10" as 16 (YAML 1.1), while the same text
// read as a float is decimal 10, so a leading zero is refused rather than silently changing a count by 8x.
template <class T>
bool is_whole_number_text(const std::string& s) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    const std::size_t start = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
    if (start >= s.size() || (s[start] == '0' && s.size() > start + 1)) return false;
    return s.find_first_not_of("0123456789", start) == std::string::npos;
  }
  return true;
}

}  // namespace

config_node::config_node(std::shared_ptr<state> s, std::shared_ptr<impl> n, std::string path)
    : state_(std::move(s)), node_(std::move(n)), path_(std::move(path)) {}

namespace {

// Marks are positions in the text parsed: a job file's, or an override's value, whose positions mean nothing to the
// user (the value is one argument), so its messages name only the override ("--set a.b").
std::string place(const std::string& source, const YAML::Mark& m, bool with_marks = true) {
  return m.line < 0 || !with_marks ? source
                                   : source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// yaml-cpp keeps duplicate keys (and lookups return the first); a job file with `lattice:` twice is a mistake to
// report, not a choice to make silently. Keys must be plain scalars. Aliases can make a small file a huge tree (an
// alias bomb) or a cycle (an alias inside its own anchor, which every later walk would follow until the stack
// overflows), so the walk counts nodes with aliases expanded and refuses a node that contains itself.
struct structure_walk {
  std::string source;
  bool with_marks = true;
  std::size_t visited = 0;
  std::vector<YAML::Node> ancestors;

  void check(const YAML::Node& n) {
    // Job files nest a few levels; the depth bound keeps the recursion off the stack's end whatever the text.
    constexpr std::size_t max_depth = 64;
    if (++visited > config_node::max_yaml_nodes)
      throw input_error(source + ": more than " + std::to_string(config_node::max_yaml_nodes) +
                        " YAML nodes with aliases expanded (an alias bomb?); not a job");
    for (const auto& a : ancestors)
      if (a.is(n))
        throw input_error(place(source, n.Mark(), with_marks) +
                          ": a recursive alias (an alias inside its own anchor); not a job");
    if (ancestors.size() > max_depth)
      throw input_error(place(source, n.Mark(), with_marks) + ": nested more than " + std::to_string(max_depth) +
                        " levels deep; not a job");
    if (!n.IsMap() && !n.IsSequence()) return;
    ancestors.push_back(n);
    if (n.IsMap()) {
      std::map<std::string, YAML::Mark> seen;
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (!it->first.IsScalar())
          throw input_error(place(source, it->first.Mark(), with_marks) + ": a key must be a plain name, got " +
                            describe(it->first));
        const auto [at, fresh] = seen.emplace(it->first.Scalar(), it->first.Mark());
        if (!fresh)
          throw input_error(place(source, it->first.Mark(), with_marks) + ": duplicate key '" + it->first.Scalar() +
                            "'" + (with_marks ? " (first at line " + std::to_string(at->second.line + 1) + ")" : ""));
        check(it->second);
      }
    } else {
      for (const auto& e : n) check(e);
    }
    ancestors.pop_back();
  }
};

void check_structure(const YAML::Node& n, const std::string& source, bool with_marks = true) {
  structure_walk w{source, with_marks, 0, {}};
  w.check(n);
}

// Records whether a YAML document holds anything but a null root, and where that content starts.
class content_probe final : public YAML::EventHandler {
 public:
  bool has_content = false;
  YAML::Mark mark, null_mark;
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { null_mark = m; }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { note(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { note(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    note(m);
  }
  void OnMapEnd() override {}

 private:
  void note(const YAML::Mark& m) {
    if (!has_content) mark = m;
    has_content = true;
  }
};

// A second YAML document after '---' would be ignored silently, so it is an error. YAML::LoadAll is not used:
// yaml-cpp 0.7 (Debian 12) returns empty documents forever on some malformed streams (a ',' where a node should
// start: yaml-cpp issue #1040, fixed upstream in 0.8.1 by PR #1319), so the documents are walked here with a bound.
void check_single_document(const std::string& text, const std::string& source, bool with_marks = true) {
  constexpr int max_documents = 64;
  std::istringstream in(text);
  YAML::Parser parser(in);
  for (int d = 0;; ++d) {
    content_probe probe;
    if (!parser.HandleNextDocument(probe)) return;
    if (d > 0 && probe.has_content)
      throw input_error(place(source, probe.mark, with_marks) +
                        ": a second YAML document ('---'); a job file holds one job");
    if (d >= max_documents)  // in practice only the stalled parser gets here; it stalls at the stray token
      throw input_error(place(source, probe.null_mark, with_marks) + ": invalid YAML: more than " +
                        std::to_string(max_documents) + " documents (a stray ','?)");
  }
}

}  // namespace

config_node config_node::from_string(const std::string& text, const std::string& source_name) {
  auto s = std::make_shared<state>();
  s->source = source_name;
  auto n = std::make_shared<impl>();
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
    if (!doc.IsMap()) throw input_error(source_name + ":1:1: a job file must be a YAML map (key: value lines)");
    check_single_document(text, source_name);
  } catch (const YAML::Exception& e) {
    throw input_error(place(source_name, e.mark) + ": invalid YAML: " + e.msg);
  }
  n->node = doc;
  check_structure(n->node, source_name);
  s->text = text;
  return config_node(s, n, "");
}

config_node config_node::from_file(const std::string& path) {
  // A job file is a few hundred bytes; a cap keeps `ppl run /dev/zero` or a huge file from being read whole.
  constexpr std::uintmax_t max_bytes = 1 << 20;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (path.find('\0') != std::string::npos || ec || !std::filesystem::exists(status))
    throw input_error(path + ": cannot open the job file");
  if (!std::filesystem::is_regular_file(status)) throw input_error(path + ": the job file is not a regular file");
  if (std::filesystem::file_size(path, ec) > max_bytes) throw input_error(path + ": the job file is larger than 1 MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot open the job file");
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw input_error(path + ": cannot read the job file");
  const std::string text = ss.str();
  if (text.find('\0') != std::string::npos) throw input_error(path + ": not a text file (NUL byte)");
  auto root = from_string(text, path);
  root.state_->record_file(path, file_role::job, path);
  return root;
}

void config_node::apply_override(const std::string& assignment, const std::string& label,
                                 const std::optional<std::string>& relative_to) {
  state_->applied.push_back({assignment, label, relative_to});
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw input_error("--set " + assignment + ": expected key.path=value");
  const std::string key_path_text = assignment.substr(0, eq);
  const std::string full = path_.empty() ? key_path_text : path_ + "." + key_path_text;
  // The place of everything this override sets: its label, or the override as typed ("--set a.b", not the job
  // file's line 1 where the value's own text would put it).
  const std::string at = label.empty() ? "--set " + full : label;
  const std::string folder = relative_to     ? *relative_to
                             : label.empty() ? std::string()
                                             : std::filesystem::path(state_->source).parent_path().string();
  const std::string value_text = assignment.substr(eq + 1);
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
    check_single_document(value_text, at, false);
  } catch (const YAML::Exception& e) {
    throw input_error(at + ": invalid YAML value: " + e.msg);
  }
  check_structure(value, at, false);
  if (key_path_text.back() == '.')  // getline would drop the empty last key
    throw input_error(at + ": empty key in '" + key_path_text + "'");
  std::vector<std::string> parts;
  std::stringstream ss(key_path_text);
  for (std::string p; std::getline(ss, p, '.');) {
    if (p.empty()) throw input_error(at + ": empty key in '" + key_path_text + "'");
    parts.push_back(p);
  }
  YAML::Node cur = node_->node;
  std::string prefix;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    prefix += (prefix.empty() ? "" : ".") + parts[i];
    YAML::Node next = cur[parts[i]];
    if (!next.IsDefined() || next.IsNull()) {
      cur[parts[i]] = YAML::Node(YAML::NodeType::Map);
      next = cur[parts[i]];
      const std::string created = path_.empty() ? prefix : path_ + "." + prefix;
      state_->overridden[created] = label.empty() ? "--set " + created : label;
      state_->override_folder[created] = folder;
    } else if (!next.IsMap()) {
      throw input_error(at + ": '" + prefix + "' is not a map");
    }
    cur.reset(next);
  }
  cur[parts.back()] = value;
  state_->overridden[full] = at;
  state_->override_folder[full] = folder;
  // Overrides add up (a value may alias nothing outside itself, but many large values make a large tree).
  YAML::Node root = node_->node;
  check_structure(root, at, false);
}

config_node config_node::copy() const {
  // A node reached through a misspelt key (child()'s near miss) has the key it was asked for in its path, not the
  // one in the text, so the copy could not find it again: report the misspelling now, as check_all_used would.
  throw_if_misspelt();
  config_node root = from_string(state_->text, state_->source);
  root.state_->files = state_->files;
  for (const auto& o : state_->applied) root.apply_override(o.assignment, o.label, o.relative_to);
  if (path_.empty()) return root;
  YAML::Node cur = root.node_->node;
  std::stringstream ss(path_);
  for (std::string part; std::getline(ss, part, '.');) {
    const YAML::Node& map = cur;  // const: operator[] must not insert
    if (!cur.IsMap() || !map[part].IsDefined())
      throw error(exit_code::failure, "config copy: no map at '" + path_ + "'");
    cur.reset(map[part]);
  }
  auto n = std::make_shared<impl>();
  n->node = cur;
  return config_node(root.state_, n, path_);
}

namespace {

nlohmann::ordered_json json_of(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return nullptr;
  if (n.IsSequence()) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& e : n) out.push_back(json_of(e));
    return out;
  }
  if (n.IsMap()) {
    auto out = nlohmann::ordered_json::object();
    for (auto it = n.begin(); it != n.end(); ++it) out[it->first.Scalar()] = json_of(it->second);
    return out;
  }
  const std::string& t = n.Scalar();
  if (n.Tag() == "!") return t;  // quoted: a string whatever it looks like
  if (t == "true" || t == "True" || t == "TRUE") return true;
  if (t == "false" || t == "False" || t == "FALSE") return false;
  if (t == "~" || t == "null" || t == "Null" || t == "NULL") return nullptr;
  if (is_whole_number_text<long>(t)) {
    try {
      return n.as<long>();
    } catch (const YAML::Exception&) {
    }
  }
  char* end = nullptr;
  const double d = std::strtod(t.c_str(), &end);
  if (!t.empty() && end == t.c_str() + t.size() && std::isfinite(d)) return d;
  return t;
}

}  // namespace

std::string config_node::to_yaml() const {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << node_->node;
  return e.c_str();
}

std::string config_node::to_json() const {
  // A YAML text may hold bytes that are not UTF-8 (JSON strings must be): they become U+FFFD, not an exception.
  return json_of(node_->node).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::vector<std::string> config_node::keys() const {
  std::vector<std::string> out;
  if (!node_->node.IsMap()) return out;
  for (auto it = node_->node.begin(); it != node_->node.end(); ++it) {
    out.push_back(it->first.Scalar());
    state_->known[path_].insert(out.back());
  }
  return out;
}

std::vector<std::string> config_node::unread_keys() const {
  std::vector<std::string> out;
  if (!node_->node.IsMap()) return out;
  const auto known = state_->known.find(path_);
  for (auto it = node_->node.begin(); it != node_->node.end(); ++it)
    if (known == state_->known.end() || !known->second.count(it->first.Scalar())) out.push_back(it->first.Scalar());
  return out;
}

std::string config_node::folder_of(const std::string& key) const {
  const auto o = covering(state_->override_folder, key.empty() ? path_ : key_path(key));
  if (o != state_->override_folder.end()) return o->second;
  return std::filesystem::path(state_->source).parent_path().string();
}

std::string config_node::key_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}
const std::string& config_node::source() const {
  return state_->source;
}

std::string config_node::job_file() const {
  for (const auto& f : state_->files)
    if (f.role == file_role::job) return f.shown;
  return "";
}

std::string config_node::where() const {
  if (const auto o = covering(state_->overridden, path_); o != state_->overridden.end()) return o->second;
  const auto m = node_->node.Mark();
  if (m.line < 0) return state_->source;
  return state_->source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string config_node::where(const std::string& key) const {
  if (const auto o = covering(state_->overridden, key_path(key)); o != state_->overridden.end()) return o->second;
  if (node_->node.IsMap()) {
    for (auto it = node_->node.begin(); it != node_->node.end(); ++it) {
      if (it->first.Scalar() == key) {
        const auto m = it->first.Mark();
        if (m.line >= 0) return state_->source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
      }
    }
  }
  return where();
}

bool config_node::has(const std::string& key) const {
  state_->known[path_].insert(key);
  if (!node_->node.IsMap()) return false;
  const YAML::Node& map = node_->node;  // const: operator[] must not insert
  const YAML::Node n = map[key];
  return n.IsDefined() && !n.IsNull();
}

std::optional<config_node> config_node::find(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  auto n = std::make_shared<impl>();
  const YAML::Node& map = node_->node;
  n->node = map[key];
  return config_node(state_, n, key_path(key));
}

config_node config_node::child(const std::string& key) const {
  if (!node_->node.IsMap()) throw input_error(where() + ": '" + path_ + "' must be a map");
  auto c = find(key);
  if (c) return *c;
  // A near miss among the keys nobody asked about is most likely this key misspelt: go on with it so the factory
  // can finish and every valid key of the map is known, then report the misspelling (check_all_used).
  const auto& known = state_->known[path_];
  for (auto it = node_->node.begin(); it != node_->node.end(); ++it) {
    const std::string candidate = it->first.Scalar();
    if (known.count(candidate) || !is_near_miss(candidate, key)) continue;
    if (!state_->misspelt)
      state_->misspelt = state::misspelling{path_, key, candidate, place(state_->source, it->first.Mark())};
    auto n = std::make_shared<impl>();
    n->node = it->second;
    state_->known[path_].insert(candidate);
    return config_node(state_, n, key_path(key));
  }
  throw input_error(where() + ": missing required key '" + key_path(key) + "'");
}

std::vector<config_node> config_node::items() const {
  if (!node_->node.IsSequence()) throw input_error(where() + ": '" + path_ + "' must be a list");
  std::vector<config_node> out;
  std::size_t i = 0;
  for (const auto& e : node_->node) {
    auto n = std::make_shared<impl>();
    n->node = YAML::Node(e);
    out.push_back(config_node(state_, n, path_ + "[" + std::to_string(i++) + "]"));
  }
  return out;
}

template <class T>
T config_node::as() const {
  state_->consumed.insert(path_);
  const YAML::Node& n = node_->node;
  const std::string what = path_.empty() ? std::string("value") : "'" + path_ + "'";
  try {
    if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<int>> ||
                  std::is_same_v<T, std::vector<std::string>>) {
      if (!n.IsSequence()) throw YAML::BadConversion(n.Mark());
      T out;
      for (const auto& e : n) {
        if (!e.IsScalar() || !is_whole_number_text<typename T::value_type>(e.Scalar()))
          throw YAML::BadConversion(n.Mark());
        out.push_back(e.as<typename T::value_type>());
      }
      return out;
    } else {
      if (!n.IsScalar() || !is_whole_number_text<T>(n.Scalar())) throw YAML::BadConversion(n.Mark());
      return n.as<T>();
    }
  } catch (const YAML::BadConversion&) {
    throw input_error(where() + ": " + what + " must be " + type_name<T>() + ", got " + describe(n));
  }
}

template <class T>
T config_node::get(const std::string& key) const {
  return child(key).as<T>();
}

template <class T>
T config_node::get(const std::string& key, const T& fallback) const {
  auto c = find(key);
  return c ? c->as<T>() : fallback;
}

template <class T>
T config_node::get_in(const std::string& key, const T& fallback, const T& lo, const T& hi) const {
  auto c = find(key);
  if (!c) return fallback;
  const T v = c->as<T>();
  if (!(v >= lo && v <= hi)) {
    std::ostringstream os;
    os << c->where() << ": '" << c->path() << "' = " << v << " is out of range [" << lo << ", " << hi << "]";
    throw input_error(os.str());
  }
  return v;
}

std::string config_node::get_choice(const std::string& key, const std::string& fallback,
                                    const std::vector<std::string>& choices) const {
  auto c = find(key);
  if (!c) return fallback;
  const auto v = c->as<std::string>();
  if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
    std::string list;
    for (const auto& ch : choices) list += (list.empty() ? "" : ", ") + ch;
    const std::string guess = closest_match(v, choices);
    throw input_error(c->where() + ": '" + c->path() + "' = '" + v + "' is not one of: " + list +
                      (guess.empty() ? "" : ": did you mean '" + guess + "'?"));
  }
  return v;
}

bool config_node::is_map() const {
  return node_->node.IsMap();
}
bool config_node::is_sequence() const {
  return node_->node.IsSequence();
}
bool config_node::is_scalar() const {
  return node_->node.IsScalar();
}
bool config_node::is_null() const {
  return !node_->node.IsDefined() || node_->node.IsNull();
}

void config_node::mark_used() const {
  state_->consumed.insert(path_);
}

namespace {

void check_tree(const YAML::Node& n, const std::string& path, const config_node::state& s) {
  if (s.consumed.count(path)) return;
  if (n.IsMap()) {
    const auto known_it = s.known.find(path);
    static const std::set<std::string> none;
    const auto& known = known_it == s.known.end() ? none : known_it->second;
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      const std::string child = path.empty() ? key : path + "." + key;
      if (!known.count(key)) {
        const auto m = it->first.Mark();
        std::string place = s.source;
        if (const auto o = covering(s.overridden, child); o != s.overridden.end())
          place = o->second;
        else if (m.line >= 0)
          place += ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
        throw input_error(place + ": unknown key '" + key + "'" + (path.empty() ? "" : " in '" + path + "'") +
                          suggestion(key, known) + "valid keys: " + join(known));
      }
      check_tree(it->second, child, s);
    }
  } else if (n.IsSequence()) {
    std::size_t i = 0;
    for (const auto& e : n) check_tree(e, path + "[" + std::to_string(i++) + "]", s);
  }
}

}  // namespace

void config_node::check_all_used() const {
  throw_if_misspelt();
  check_tree(node_->node, path_, *state_);
}

void config_node::throw_if_misspelt() const {
  if (!state_->misspelt) return;
  const auto& m = *state_->misspelt;
  auto known = state_->known[m.map_path];
  known.erase(m.found);
  throw input_error(m.where + ": unknown key '" + m.found + "'" +
                    (m.map_path.empty() ? "" : " in '" + m.map_path + "'") + ": did you mean '" + m.missing +
                    "' (required)? valid keys: " + join(known));
}

#define PPL_CONFIG_INSTANTIATE(T)                           \
  template T config_node::as<T>() const;                    \
  template T config_node::get<T>(const std::string&) const; \
  template T config_node::get<T>(const std::string&, const T&) const;
PPL_CONFIG_INSTANTIATE(bool)
PPL_CONFIG_INSTANTIATE(int)
PPL_CONFIG_INSTANTIATE(long)
PPL_CONFIG_INSTANTIATE(unsigned long)
PPL_CONFIG_INSTANTIATE(double)
PPL_CONFIG_INSTANTIATE(std::string)
PPL_CONFIG_INSTANTIATE(std::vector<double>)
PPL_CONFIG_INSTANTIATE(std::vector<int>)
PPL_CONFIG_INSTANTIATE(std::vector<std::string>)
#undef PPL_CONFIG_INSTANTIATE
template int config_node::get_in<int>(const std::string&, const int&, const int&, const int&) const;
template long config_node::get_in<long>(const std::string&, const long&, const long&, const long&) const;
template double config_node::get_in<double>(const std::string&, const double&, const double&, const double&) const;

}  // namespace ppl
