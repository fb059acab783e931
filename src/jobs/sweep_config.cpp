// Reading, expanding and checking a `job: sweep` configuration (ppl/jobs/sweep.hpp, docs/sweep.md).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "potential_config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/io/removed_on_signal.hpp"
#include "ppl/jobs/config_helpers.hpp"
#include "ppl/jobs/sweep.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/sparse/spmv_strategy.hpp"
#include "solve_config.hpp"

namespace ppl {
namespace {

// More points than anyone runs on one device in a day; a typo in a range (step 0.0001) is caught here.
constexpr std::size_t max_points = 10000;

// One axis of the product: a vary key alone, or a zip group's keys moving together.
struct axis {
  std::vector<std::size_t> keys;                 // indices into the vary keys
  std::vector<std::vector<std::string>> values;  // values[v][k]: the YAML text of key k at step v
};

std::string scalar_text_of(const std::string& yaml) {
  return config_node::from_string("v: " + yaml, "value").get<std::string>("v");
}

std::string json_of_yaml(const std::string& yaml) {
  const auto c = config_node::from_string("v: " + yaml, "value");
  const auto v = c.find("v");
  return v ? v->to_json() : "null";  // ~: the key is removed at this point
}

std::string number_text(double v, bool integer) {
  // 12 significant digits: what the user wrote (0.3), not the sum's binary residue (0.30000000000000004).
  return integer ? fmt::format("{}", static_cast<long long>(std::llround(v))) : fmt::format("{:.12g}", v);
}

bool whole(double v) {
  return std::isfinite(v) && std::floor(v) == v && std::abs(v) < 1e15;
}

// The values of one vary key: a list, {values: [...]}, {from, to, step} or {from, to, factor}.
std::vector<std::string> values_of(const config_node& vary, const std::string& key) {
  const auto node = vary.child(key);
  const std::string at = vary.where(key) + ": vary '" + key + "'";
  auto list = [&](const config_node& seq) {
    if (!seq.is_sequence()) throw input_error(at + ": must be a list of values or a range {from, to, step}");
    std::vector<std::string> out;
    for (const auto& item : seq.items()) out.push_back(item.to_yaml());
    seq.mark_used();
    if (out.empty()) throw input_error(at + ": empty list (a key varied over no values gives no points)");
    return out;
  };
  if (node.is_sequence()) return list(node);
  if (!node.is_map() || node.is_null())
    throw input_error(at + ": must be a list of values or a range {from, to, step}");
  if (node.has("values")) {
    for (const char* k : {"from", "to", "step", "factor"})
      if (node.has(k)) throw input_error(at + ": 'values' does not go with '" + k + "'");
    return list(node.child("values"));
  }
  const bool has_step = node.has("step"), has_factor = node.has("factor");
  if (!node.has("from") || !node.has("to") || has_step == has_factor)
    throw input_error(at + ": a range needs from, to and one of step or factor (or values: [...])");
  const double from = node.get<double>("from"), to = node.get<double>("to");
  const double by = has_step ? node.get<double>("step") : node.get<double>("factor");
  if (!std::isfinite(from) || !std::isfinite(to) || !std::isfinite(by))
    throw input_error(at + ": from, to, step and factor must be finite numbers");
  if (from > to) throw input_error(at + fmt::format(": from ({}) is greater than to ({})", from, to));
  if (has_step && !(by > 0)) throw input_error(at + fmt::format(": step must be > 0 (got {})", by));
  if (has_factor && (!(by > 1) || !(from > 0)))
    throw input_error(at + fmt::format(": factor must be > 1 and from > 0 (got factor {}, from {})", by, from));
  const bool integer = whole(from) && whole(to) && whole(by);
  std::vector<std::string> out;
  // A relative slack so that 0.1 + 0.1 + 0.1 still reaches 0.3.
  const double slack = 1e-9 * std::max({std::abs(from), std::abs(to), 1.0});
  for (std::size_t i = 0;; ++i) {
    const double v = has_step ? from + double(i) * by : from * std::pow(by, double(i));
    if (v > to + slack) break;
    if (out.size() >= max_points) throw input_error(at + fmt::format(": more than {} values", max_points));
    out.push_back(number_text(v, integer));
  }
  return out;
}

void check_key_syntax(const config_node& vary, const std::string& key) {
  const std::string at = vary.where(key) + ": vary '" + key + "'";
  if (key.empty() || key.front() == '.' || key.back() == '.' || key.find("..") != std::string::npos)
    throw input_error(at + ": a key is a dotted path like strategy_params.coarsening");
  const std::string first = key.substr(0, key.find('.'));
  if (first == "job") throw input_error(at + ": the job kind is the base's, not a parameter");
  if (first == "output") throw input_error(at + ": the base's outputs are not written by a sweep; nothing to vary");
  if (first == "timing") throw input_error(at + ": timing is the sweep's (warmup, repeats)");
}

// A zip group as written: its keys, and whether some vary block used it.
struct zip_group {
  std::vector<std::string> keys;
  std::string where, path;
  bool used = false;
};

std::vector<zip_group> read_zip(const config_node& root) {
  std::vector<zip_group> out;
  const auto zip = root.find("zip");
  if (!zip) return out;
  if (!zip->is_sequence()) throw input_error(zip->where() + ": 'zip' must be a list of lists of vary keys");
  for (const auto& g : zip->items()) {
    if (!g.is_sequence()) throw input_error(g.where() + ": '" + g.path() + "' must be a list of vary keys");
    zip_group z{g.as<std::vector<std::string>>(), g.where(), g.path()};
    if (z.keys.size() < 2) throw input_error(z.where + ": '" + z.path + "' needs at least two keys");
    for (std::size_t i = 0; i < z.keys.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (z.keys[i] == z.keys[j])
          throw input_error(z.where + ": '" + z.path + "': '" + z.keys[i] + "' is in the group twice");
    for (const auto& other : out)
      for (const auto& k : z.keys)
        if (std::find(other.keys.begin(), other.keys.end(), k) != other.keys.end())
          throw input_error(z.where + ": '" + z.path + "': '" + k + "' is already in another zip group");
    out.push_back(std::move(z));
  }
  return out;
}

// The axes of one vary map: its keys in document order, a zip group's keys stepping together (their lists equally
// long) as one axis standing at the group's first key.
std::vector<axis> block_axes(const config_node& vary, std::vector<zip_group>& zips, std::vector<std::string>& keys,
                             std::vector<std::string>& labels, std::vector<std::string>& folders) {
  std::vector<std::vector<std::string>> values;
  keys = vary.keys();
  for (const auto& k : keys) {
    check_key_syntax(vary, k);
    values.push_back(values_of(vary, k));
    labels.push_back(vary.where(k) + ": vary '" + k + "'");
    folders.push_back(vary.folder_of(k));
  }
  // A key and a map above it (lattice.spacing, then lattice) would both set the key, the later one winning, so
  // points would repeat each other while their records claimed settings that did not run.
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = 0; j < keys.size(); ++j)
      if (i != j && keys[j].size() > keys[i].size() && keys[j].compare(0, keys[i].size() + 1, keys[i] + ".") == 0)
        throw input_error(labels[std::max(i, j)] + ": overlaps vary '" + keys[std::min(i, j)] + "' (" +
                          vary.where(keys[std::min(i, j)]) + "): '" + keys[j] + "' is inside '" + keys[i] +
                          "'; vary one or the other");
  std::vector<int> group_of(keys.size(), -1);
  std::vector<std::vector<std::size_t>> groups;
  for (auto& z : zips) {
    std::vector<std::size_t> members;
    for (const auto& n : z.keys) {
      const auto it = std::find(keys.begin(), keys.end(), n);
      if (it != keys.end()) members.push_back(std::size_t(it - keys.begin()));
    }
    if (members.empty()) continue;  // a group of another vary block
    if (members.size() != z.keys.size())
      for (const auto& n : z.keys)
        if (std::find(keys.begin(), keys.end(), n) == keys.end())
          throw input_error(z.where + ": '" + z.path + "': '" + n + "' is not a key of 'vary'" +
                            (vary.path() == "vary" ? "" : " (" + vary.path() + ")"));
    for (auto i : members)
      if (values[i].size() != values[members[0]].size())
        throw input_error(z.where + ": '" + z.path +
                          fmt::format("': '{}' has {} values but '{}' has {}", keys[members[0]],
                                      values[members[0]].size(), keys[i], values[i].size()));
    for (auto i : members) group_of[i] = int(groups.size());
    groups.push_back(members);
    z.used = true;
  }
  std::vector<axis> axes;
  std::set<int> placed;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    axis a;
    if (group_of[i] < 0) {
      a.keys = {i};
    } else {
      if (!placed.insert(group_of[i]).second) continue;
      a.keys = groups[std::size_t(group_of[i])];
    }
    for (std::size_t v = 0; v < values[a.keys[0]].size(); ++v) {
      std::vector<std::string> step;
      for (auto k : a.keys) step.push_back(values[k][v]);
      a.values.push_back(step);
    }
    axes.push_back(a);
  }
  return axes;
}

// The cartesian product of the axes, the first axis slowest (as nested loops written in the file's order).
std::vector<sweep_point> product(const std::vector<axis>& axes, const std::vector<std::string>& keys,
                                 const std::vector<std::string>& labels, const std::vector<std::string>& folders,
                                 const std::string& where) {
  std::vector<sweep_point> out(1);
  for (const auto& a : axes) {
    if (out.size() * a.values.size() > max_points)
      throw input_error(where + fmt::format(": more than {} points", max_points));
    std::vector<sweep_point> next;
    for (const auto& p : out)
      for (const auto& step : a.values) {
        sweep_point q = p;
        for (std::size_t k = 0; k < a.keys.size(); ++k)
          q.settings.push_back(
              {keys[a.keys[k]], step[k], json_of_yaml(step[k]), labels[a.keys[k]], folders[a.keys[k]]});
        next.push_back(std::move(q));
      }
    out = std::move(next);
  }
  // Settings in the vary keys' order whatever the zip groups did to the axes.
  for (auto& p : out)
    std::stable_sort(p.settings.begin(), p.settings.end(), [&](const sweep_setting& x, const sweep_setting& y) {
      return std::find(keys.begin(), keys.end(), x.key) < std::find(keys.begin(), keys.end(), y.key);
    });
  return out;
}

const sweep_setting* setting(const sweep_point& p, const std::string& key) {
  for (const auto& s : p.settings)
    if (s.key == key) return &s;
  return nullptr;
}

// The value a point gives `key`: its setting, else the base's (a copy: the original's reads stay unmarked).
std::string point_string(const sweep_config& s, const sweep_point& p, const std::string& key,
                         const std::string& fallback) {
  if (const auto* v = setting(p, key)) return scalar_text_of(v->yaml);
  auto c = s.base->copy();
  const auto dot = key.find('.');
  if (dot == std::string::npos) return c.get<std::string>(key, fallback);
  const auto section = c.find(key.substr(0, dot));
  return section && section->is_map() ? section->get<std::string>(key.substr(dot + 1), fallback) : fallback;
}

// The declared parameters of a point's strategy (nullptr: an unknown name, reported by the point's check).
using declared_space_of = const parameter_space* (*)(const std::string& strategy);

// space: declared -- each point's strategy's declared parameters (`space_of`, set at `prefix` + name) with a finite
// set of values (choices, integer sets) become axes of their own; ranges keep their defaults (vary them explicitly),
// as do parameters in vary.
std::vector<sweep_point> with_declared_space(const std::vector<sweep_point>& points, const std::string& where,
                                             declared_space_of space_of, const std::string& prefix) {
  std::vector<sweep_point> out;
  for (const auto& p : points) {
    std::vector<sweep_point> expanded{p};
    if (const parameter_space* declared = space_of(p.strategy)) {
      for (const auto& spec : *declared) {
        const std::string key = prefix + spec.name;
        if (setting(p, key)) continue;
        // A map above it varied whole (strategy_params: [{...}, ...]) sets it already.
        if (std::any_of(p.settings.begin(), p.settings.end(),
                        [&](const sweep_setting& v) { return key.compare(0, v.key.size() + 1, v.key + ".") == 0; }))
          continue;
        if (spec.type != parameter_type::choice && !(spec.type == parameter_type::integer && !spec.allowed.empty()))
          continue;
        std::vector<sweep_point> next;
        for (const auto& q : expanded)
          for (const auto& v : spec.allowed) {
            sweep_point r = q;
            r.settings.push_back({key, v, json_of_yaml(v), where + ": space: declared (" + key + ")", ""});
            next.push_back(std::move(r));
          }
        expanded = std::move(next);
      }
    }
    for (auto& q : expanded) {
      if (out.size() >= max_points) throw input_error(where + fmt::format(": more than {} points", max_points));
      out.push_back(std::move(q));
    }
  }
  return out;
}

const parameter_space* potential_space_of(const std::string& strategy) {
  const auto* e = potential_strategies().lookup(strategy);
  return e ? &e->parameters : nullptr;
}

// A solve point's SpMV strategy: its parameters are the other keys of `spmv`.
const parameter_space* spmv_space_of(const std::string& strategy) {
  const auto* e = spmv_strategies().lookup(strategy);
  return e ? &e->parameters : nullptr;
}

}  // namespace

std::string sweep_point::text() const {
  std::string out;
  for (const auto& s : settings) out += (out.empty() ? "" : " ") + s.key + "=" + s.yaml;
  return out.empty() ? "(base)" : out;
}

std::string sweep_csv_path(const std::string& results) {
  const std::string ext = ".jsonl";
  if (results.size() > ext.size() && results.compare(results.size() - ext.size(), ext.size(), ext) == 0)
    return results.substr(0, results.size() - ext.size()) + ".csv";
  return results + ".csv";
}

config_node sweep_point_config(const sweep_config& s, const sweep_point& p) {
  auto c = s.base->copy();
  if (s.base_kind == "potential") {
    // A sweep measures: without its own warmup and repeats, and without the base's timing, 1 and 3 (as for solve),
    // not the single map a potential job computes by default.
    const bool base_timing = s.base->has("timing");
    if (s.warmup || !base_timing)
      c.apply_override("timing.warmup=" + std::to_string(s.warmup.value_or(1)), s.warmup_label);
    if (s.repeats || !base_timing)
      c.apply_override("timing.repeats=" + std::to_string(s.repeats.value_or(3)), s.repeats_label);
  }
  for (const auto& v : p.settings) c.apply_override(v.key + "=" + v.yaml, v.label, v.folder);
  return c;
}

void check_sweep_point(const sweep_config& s, const sweep_point& p) {
  auto c = sweep_point_config(s, p);
  // The results, their CSV view and the lock are written beside the base job's inputs: none may be one of them.
  for (const auto& f : {s.results, s.csv, s.lock}) c.reserve_output(f, s.results_where, "output.results");
  try {
    c.get<std::string>("job");
    if (const auto o = c.find("output")) o->mark_used();
    if (s.base_kind == "potential") {
      potential_map_config m;
      read_potential_map(c, m);
    } else {
      read_solve_config(c);
    }
  } catch (const input_error&) {
    c.throw_if_misspelt();  // a misspelt required key explains what failed after it
    throw;
  }
  c.check_all_used();
}

std::vector<std::string> read_sweep_records(const std::string& results) {
  std::vector<std::string> records;
  std::ifstream in(results, std::ios::binary);
  if (!in) return records;
  std::string line;
  for (std::size_t n = 1;; ++n) {
    // Bounded: a corrupt file with one huge line is refused at that line, not read into memory whole.
    line.clear();
    bool ended = false;
    for (int ch; (ch = in.get()) != std::char_traits<char>::eof();) {
      if (ch == '\n') {
        ended = true;
        break;
      }
      if (line.size() >= max_record_bytes)
        throw input_error(
            fmt::format("{}:{}: a line longer than {} bytes (not one of ppl's records)", results, n, max_record_bytes));
      line.push_back(char(ch));
    }
    if (!ended && line.empty()) break;
    if (line.empty()) continue;
    nlohmann::json r;
    try {
      r = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
      throw input_error(
          fmt::format("{}:{}: not a JSON record (output.results holds ppl's records; edited by hand?)", results, n));
    }
    if (!r.is_object() || !r.contains("key") || !r["key"].is_string())
      throw input_error(
          fmt::format("{}:{}: a record without a \"key\" (output.results holds ppl's records)", results, n));
    records.push_back(line);
    if (!ended) break;
  }
  return records;
}

struct sweep_lock::impl {
  int fd = -1;
  std::string path;
  std::optional<removed_on_signal> cleanup;
};

namespace {

// "the process ..." from the pid the holder wrote into the lock file.
std::string holder_of(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  const std::string pid = n > 0 ? std::string(buf, std::size_t(n)) : "";
  return pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos ? "another process" : "process " + pid;
}

[[noreturn]] void in_use(const std::string& where, const std::string& results_lock, int fd) {
  const std::string who = holder_of(fd);
  ::close(fd);
  throw input_error(where + ": the results file is in use by another sweep (" + who + " holds '" + results_lock +
                    "'); wait for it to end or give this sweep another output.results");
}

}  // namespace

sweep_lock::sweep_lock(const std::string& lock_path, const std::string& where) : impl_(std::make_unique<impl>()) {
  impl_->path = lock_path;
  // The lock file is removed when the sweep ends, so the file at the path may be one a finishing sweep has just
  // unlinked: lock, then check that the path still names the locked file, else start again.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) throw error(exit_code::failure, where + ": cannot create the lock file '" + lock_path + "'");
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno == EWOULDBLOCK) in_use(where, lock_path, fd);
      ::close(fd);
      throw error(exit_code::failure, where + ": cannot lock '" + lock_path + "'");
    }
    struct stat held {};
    struct stat named {};
    if (::fstat(fd, &held) == 0 && ::stat(lock_path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      impl_->fd = fd;
      break;
    }
    ::close(fd);
    if (attempt > 100) throw error(exit_code::failure, where + ": cannot lock '" + lock_path + "'");
  }
  impl_->cleanup.emplace(lock_path);
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(impl_->fd, 0) != 0 || ::pwrite(impl_->fd, pid.data(), pid.size(), 0) < 0) {
    // The pid only makes the other sweep's message more helpful; the lock holds without it.
  }
}

sweep_lock::~sweep_lock() {
  // Unlinked while still held: a sweep waiting to lock the old file finds the path gone and creates a new one.
  ::unlink(impl_->path.c_str());
  impl_->cleanup.reset();
  ::close(impl_->fd);
}

void sweep_lock::check_free(const std::string& lock_path, const std::string& where) {
  const int fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;  // no lock file: no sweep holds it
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) in_use(where, lock_path, fd);
  }
  ::close(fd);  // releases the probe's lock
}

sweep_config read_sweep_config(const config_node& root) {
  sweep_config s;
  s.file = root.source();
  s.name = root.get<std::string>("name", std::filesystem::path(s.file).stem().string());
  if (s.name.empty() || s.name.find_first_of("/\\\n\r\t") != std::string::npos)
    throw input_error(root.where("name") + ": 'name' must be a non-empty name without slashes or control characters");
  if (const auto d = root.find("description")) d->as<std::string>();

  // base: inline, or a job file beside the sweep file.
  const auto base = root.child("base");
  if (base.is_map()) {
    s.base = base.copy();
    base.mark_used();  // each point's copy is checked on its own
  } else if (base.is_scalar()) {
    s.base_file = root.input_file("base");
    s.base = config_node::from_file(s.base_file);
  } else {
    throw input_error(base.where() + ": 'base' must be a job (a map) or the path of a job file");
  }
  {
    const auto probe = s.base->copy();
    const auto kind = probe.find("job");
    if (!kind) throw input_error(probe.where() + ": the base has no 'job' key (potential or solve)");
    s.base_kind = kind->as<std::string>();
    if (s.base_kind != "potential" && s.base_kind != "solve")
      throw input_error(kind->where() + ": a sweep runs a potential or solve job, not '" + s.base_kind + "'");
  }

  if (root.has("warmup")) {
    s.warmup = root.get_in<int>("warmup", 1, 0, 1000);
    s.warmup_label = root.where("warmup") + ": warmup";
  }
  if (root.has("repeats")) {
    s.repeats = root.get_in<int>("repeats", 3, 1, 10000);
    s.repeats_label = root.where("repeats") + ": repeats";
  }

  // vary: one map (its product), or a list of maps (the union of their products: strategies with different
  // parameters in one study).
  auto zips = read_zip(root);
  std::vector<sweep_point> points;
  if (const auto vary = root.find("vary")) {
    std::vector<config_node> blocks;
    if (vary->is_map()) {
      blocks.push_back(*vary);
    } else if (vary->is_sequence() && !vary->items().empty()) {
      blocks = vary->items();
    } else {
      throw input_error(vary->where() + ": 'vary' must be a map of keys and their values, or a list of such maps");
    }
    for (const auto& block : blocks) {
      if (!block.is_map())
        throw input_error(block.where() + ": '" + block.path() + "' must be a map of keys and their values");
      std::vector<std::string> keys, labels, folders;
      const auto axes = block_axes(block, zips, keys, labels, folders);
      auto more = product(axes, keys, labels, folders, s.file);
      if (points.size() + more.size() > max_points)
        throw input_error(s.file + fmt::format(": more than {} points", max_points));
      points.insert(points.end(), more.begin(), more.end());
      for (const auto& k : keys)
        if (std::find(s.varied.begin(), s.varied.end(), k) == s.varied.end()) s.varied.push_back(k);
    }
  }
  for (const auto& z : zips)
    if (!z.used) throw input_error(z.where + ": '" + z.path + "': '" + z.keys[0] + "' is not a key of 'vary'");
  if (points.empty()) points.emplace_back();  // space: declared alone starts from the base
  const std::string strategy_key = s.base_kind == "potential" ? "strategy" : "spmv.strategy";
  for (auto& p : points) p.strategy = point_string(s, p, strategy_key, "auto");

  const std::string space = root.get_choice("space", "", {"declared"});
  if (space == "declared") {
    if (s.base_kind == "potential")
      points = with_declared_space(points, root.where("space"), potential_space_of, "strategy_params.");
    else
      points = with_declared_space(points, root.where("space"), spmv_space_of, "spmv.");
  }
  if (s.varied.empty() && space.empty())
    throw input_error(root.where() + ": a sweep needs 'vary' (keys and their values) or 'space: declared'");

  const auto out = root.child("output");
  if (!out.is_map()) throw input_error(out.where() + ": 'output' must be a map with 'results'");
  s.csv = sweep_csv_path(out.get<std::string>("results"));
  s.lock = out.get<std::string>("results") + ".lock";
  s.results = out.output_file("results", {s.csv, s.lock});
  s.results_where = out.where("results");

  // A point whose strategy needs another build (a _cuda strategy here) is listed, not an error: one study file
  // serves the CPU and the GPU builds.
  for (auto& p : points) {
    const bool potential = s.base_kind == "potential";
    const bool unavailable =
        potential
            ? (potential_strategies().lookup(p.strategy) && !potential_strategies().lookup(p.strategy)->available())
            : (spmv_strategies().lookup(p.strategy) && !spmv_strategies().lookup(p.strategy)->available());
    if (unavailable) {
      s.skipped.push_back(p.text() + ": " + p.strategy + " needs a CUDA build");
      continue;
    }
    p.index = s.points.size() + s.skipped.size();
    s.points.push_back(p);
  }
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    try {
      check_sweep_point(s, s.points[i]);
    } catch (const input_error& e) {
      throw input_error(
          fmt::format("{}: point {} of {} ({}): {}", s.file, i + 1, s.points.size(), s.points[i].text(), e.what()));
    }
  }
  // After the points: a results file that is one of the base's inputs is reported as that, not as a file of
  // unexpected lines.
  sweep_lock::check_free(s.lock, s.results_where + ": 'output.results'");
  s.records = read_sweep_records(s.results);
  return s;
}

}  // namespace ppl
