// `job: sweep`: the base job (potential or solve) at every point of a parameter space, each point measured with
// the base job's own code (compute_map + verify_potential + describe_map; load_solve_system + run_solve) and
// appended as one JSON-lines record to the results file, with a CSV view beside it. docs/sweep.md.
//
// Records are made durable one by one by rewriting the whole file to a temporary name, fsync and rename
// (write_file_atomically) rather than by appending: a reader (a plot, a resumed run) never sees a half line even
// after a power loss, the temporary file is removed on SIGINT/SIGTERM/SIGHUP by the handler that already guards
// every output, and the cost (a few kB per record, rewritten once per point) is nothing beside a point's run.
#include <fmt/format.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "potential_config.hpp"
#include "ppl/core/error.hpp"
#include "ppl/core/progress.hpp"
#include "ppl/core/system_info.hpp"
#include "ppl/io/atomic_file.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/jobs/job_kinds.hpp"
#include "ppl/jobs/sweep.hpp"
#include "ppl/potential/summary.hpp"
#include "solve_config.hpp"
#include "solve_run.hpp"

namespace ppl {
namespace {

using json = nlohmann::ordered_json;

// FNV-1a, 64 bits: a stable key across builds and platforms (std::hash is neither).
std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", h);
}

// Device-to-device copy bandwidth (bytes read + written per second), best of five after a warm-up: the ceiling of
// a memory-bound kernel on this device, measured in the same process as the points it judges.
double measure_copy_bandwidth() {
  const std::size_t n = default_space_is_gpu() ? std::size_t(1) << 27 : std::size_t(1) << 23;  // 1 GiB / 64 MiB
  Kokkos::View<double*> a(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::sweep::copy_a"), n);
  Kokkos::View<double*> b(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::sweep::copy_b"), n);
  Kokkos::deep_copy(a, 1.0);
  double best = 0;
  for (int r = 0; r < 6; ++r) {
    Kokkos::fence();
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(b, a);
    Kokkos::fence();
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0 && dt > 0) best = std::max(best, 2.0 * double(n) * sizeof(double) / dt);
  }
  return best;
}

json times_json(const timing_stats& t) {
  return json::parse(timing_json(t));
}

// The results file: one record per line, each with a unique "key".
class results_file {
 public:
  // `records`: the file's lines as read and checked with the sweep (read_sweep_config).
  results_file(std::string path, std::string csv, const std::vector<std::string>& records)
      : path_(std::move(path)), csv_(std::move(csv)) {
    for (const auto& line : records) {
      json r = json::parse(line);
      index_[r["key"].get<std::string>()] = lines_.size();
      lines_.push_back(line);
      records_.push_back(std::move(r));
    }
  }
  bool has(const std::string& key) const { return index_.count(key) > 0; }
  std::size_t size() const { return lines_.size(); }

  // Adds the record, or replaces the first with its key in place (and drops any later one with that key: a
  // duplicate left by an older ppl or by hand), and rewrites both files, renamed into place together (output_set)
  // once both are on disk, with signals held until then, so the CSV never lags the records.
  void put(const json& record) {
    const std::string key = record["key"].get<std::string>();
    const std::string line = record.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    if (index_.count(key)) {
      bool replaced = false;
      std::vector<std::string> lines;
      std::vector<json> records;
      for (std::size_t i = 0; i < lines_.size(); ++i) {
        const bool same = records_[i].contains("key") && records_[i]["key"] == key;
        if (same && replaced) continue;
        lines.push_back(same ? line : lines_[i]);
        records.push_back(same ? record : records_[i]);
        replaced = replaced || same;
      }
      lines_ = std::move(lines);
      records_ = std::move(records);
      index_.clear();
      for (std::size_t i = 0; i < records_.size(); ++i) index_.emplace(records_[i]["key"].get<std::string>(), i);
    } else {
      index_[key] = lines_.size();
      lines_.push_back(line);
      records_.push_back(record);
    }
    deferred_signals hold;  // a signal waits for both files: the point just measured is not lost
    output_set both;        // renamed together: the CSV never lags the records, a failure changes neither
    write_file_atomically(path_, [&](std::ostream& o) {
      for (const auto& l : lines_) o << l << "\n";
    });
    write_file_atomically(csv_, [&](std::ostream& o) { write_csv(o); });
    both.commit();
  }

  // The CSV is a view of the records: rewritten when it is not what the records give (a process killed between the
  // two files, a CSV edited or deleted). Nothing is written for a results file without records.
  void refresh_csv() const {
    if (records_.empty()) return;
    std::ostringstream want;
    write_csv(want);
    std::ifstream in(csv_, std::ios::binary);
    std::ostringstream have;
    if (in) have << in.rdbuf();
    if (in && have.str() == want.str()) return;
    deferred_signals hold;
    write_file_atomically(csv_, [&](std::ostream& o) { o << want.str(); });
  }

 private:
  // RFC 4180 quoting for text with a comma, quote or line break; text a spreadsheet would take for a formula
  // (starting with =, +, -, @, a tab or a carriage return: a study named "=cmd|..." ) also gets a leading ' inside
  // the quotes, OWASP's advice, since quotes alone do not stop a spreadsheet evaluating it. Numbers are as JSON
  // writes them (a negative number is a number, not a formula).
  static std::string cell(const json& v) {
    if (v.is_null()) return "";
    std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    const bool formula = v.is_string() && !s.empty() && std::string("=+-@\t\r").find(s[0]) != std::string::npos;
    if (!formula && s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = formula ? "\"'" : "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  }
  static json at(const json& r, const std::vector<const char*>& path) {
    const json* cur = &r;
    for (const char* p : path) {
      if (!cur->is_object() || !cur->contains(p)) return nullptr;
      cur = &(*cur)[p];
    }
    return *cur;
  }
  // Fixed columns, then one per varied key (the union over the records, first seen first; `strategy` is a fixed
  // column already).
  void write_csv(std::ostream& o) const {
    std::vector<std::string> varied;
    for (const auto& r : records_)
      if (const json settings = at(r, {"sweep", "settings"}); settings.is_object())
        for (const auto& [k, v] : settings.items())
          if (std::find(varied.begin(), varied.end(), k) == varied.end() && k != "strategy") varied.push_back(k);
    const std::vector<std::pair<std::string, std::vector<const char*>>> fixed = {
        {"key", {"key"}},
        {"study", {"sweep", "study"}},
        {"point", {"sweep", "point"}},
        {"job", {"sweep", "base_job"}},
        {"strategy", {"measurement", "strategy"}},
        {"median_s", {"measurement", "timing", "median_s"}},
        {"min_s", {"measurement", "timing", "min_s"}},
        {"max_s", {"measurement", "timing", "max_s"}},
        {"time_per", {"measurement", "time_per"}},
        {"throughput", {"measurement", "throughput", "value"}},
        {"throughput_unit", {"measurement", "throughput", "unit"}},
        {"ceiling", {"measurement", "ceiling", "value"}},
        {"fraction_of_ceiling", {"measurement", "ceiling", "fraction"}},
        {"verification_error", {"measurement", "verification", "error"}},
        {"verification_passed", {"measurement", "verification", "passed"}},
        {"atoms", {"measurement", "problem", "atoms"}},
        {"points", {"measurement", "problem", "points"}},
        {"evaluations", {"measurement", "problem", "evaluations"}},
        {"pairs_within", {"measurement", "problem", "pairs_within"}},
        {"pairs_loaded", {"measurement", "problem", "pairs_loaded"}},
        {"rows", {"measurement", "problem", "rows"}},
        {"nnz", {"measurement", "problem", "nnz"}},
        {"nnz_per_row", {"measurement", "problem", "nnz_per_row"}},
        {"iterations", {"measurement", "problem", "iterations"}},
        {"device", {"device", "name"}},
        {"git_revision", {"ppl", "git_revision"}},
        {"timestamp", {"timestamp"}}};
    std::string header;
    for (const auto& [name, path] : fixed) header += (header.empty() ? "" : ",") + name;
    for (const auto& k : varied) header += "," + cell(json(k));
    o << header << "\n";
    for (const auto& r : records_) {
      std::string row;
      bool first = true;
      for (const auto& [name, path] : fixed) {
        row += (first ? "" : ",") + cell(at(r, path));
        first = false;
      }
      const json settings = at(r, {"sweep", "settings"});
      for (const auto& k : varied)
        row += "," + cell(settings.is_object() && settings.contains(k) ? settings[k] : json(nullptr));
      o << row << "\n";
    }
  }

  std::string path_, csv_;
  std::vector<std::string> lines_;
  std::vector<json> records_;
  std::map<std::string, std::size_t> index_;
};

class sweep_job final : public job {
 public:
  explicit sweep_job(const config_node& c) : cfg_(read_sweep_config(c)) {}
  int run(job_context& ctx) override;

 private:
  // The measurement of one point: what the base job measures, in the record's terms.
  json measure_potential(const config_node& c);
  json measure_solve(const config_node& c);

  sweep_config cfg_;
  system_info system_;
  double copy_bandwidth_ = 0;  // bytes/s, measured before the first solve point
};

json sweep_job::measure_potential(const config_node& c) {
  potential_map_config m;
  read_potential_map(c, m);
  if (const auto o = c.find("output")) o->mark_used();
  potential_view out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "ppl::sweep::lattice"), m.grid.size());
  const map_timing t = compute_map(m, out, [](const std::string&) {});
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  potential_summary s;
  s.verification = verify_potential(m.verification, m.input, m.grid, m.pair, host.data());
  describe_map(s, m, t);
  const double ceiling = rsqrt_ceiling_per_s(system_);
  json r;
  r["strategy"] = m.strategy_name;
  r["timing"] = times_json(s.timing);
  r["time_per"] = "map";
  r["setup_s"] = s.setup_seconds;
  r["throughput"] = {{"value", s.evaluations_per_s}, {"unit", "atom-evaluations/s"}};
  r["ceiling"] = {{"kind", "rsqrt: 16 per clock per SM x SMs x SM clock"},
                  {"value", ceiling > 0 ? json(ceiling) : json(nullptr)},
                  {"fraction", ceiling > 0 ? json(s.evaluations_per_s / ceiling) : json(nullptr)}};
  r["problem"] = {{"atoms", s.atoms},
                  {"points", m.grid.size()},
                  {"dims", m.grid.dims},
                  {"single_plane", m.single_plane},
                  {"interaction", m.pair.describe()},
                  {"evaluations", s.evaluations},
                  {"pairs_within", s.pairs_within > 0 ? json(s.pairs_within) : json(nullptr)},
                  {"pairs_loaded", s.pairs_within > 0 ? json(s.pairs_loaded) : json(nullptr)}};
  json breakdown = json::object();
  for (const auto& [k, v] : s.breakdown) breakdown[k] = v;
  r["breakdown"] = breakdown;
  r["verification"] = {{"kind", "relative L2 error against float64 sums"},
                       {"mode", s.verification.mode},
                       {"points", s.verification.points},
                       {"error", s.verification.error},
                       {"max_abs_error_e_per_A", s.verification.max_abs_error},
                       {"tolerance", s.verification.tolerance},
                       {"passed", s.verification.passed}};
  return r;
}

// SpMV traffic per iteration, the model behind a solve point's GB/s: each SpMV reads the values, column indices
// and row offsets once, x once (ideal caching) and writes y; BiCGSTAB and BiCG make two SpMVs per iteration (BiCG's
// second with A^T), GMRES one. Vector updates and dots are left out, so the figure is a lower bound of the traffic.
double spmv_bytes_per_iteration(const crs_matrix& A, const std::string& method) {
  const double rows = double(A.numRows()), nnz = double(A.nnz());
  const double per_spmv = nnz * (sizeof(crs_matrix::value_type) + sizeof(crs_matrix::ordinal_type)) +
                          (rows + 1) * sizeof(crs_matrix::size_type) + 2 * rows * sizeof(double);
  return (method == "gmres" ? 1.0 : 2.0) * per_spmv;
}

json sweep_job::measure_solve(const config_node& c) {
  solve_config cfg = read_solve_config(c);
  if (copy_bandwidth_ == 0) copy_bandwidth_ = measure_copy_bandwidth();
  const auto sys = load_solve_system(cfg);
  auto options = cfg.options;
  options.progress_every = 0;
  const int warmup = cfg_.warmup.value_or(1), repeats = cfg_.repeats.value_or(3);
  std::vector<double> per_iteration, totals;
  solve_run last;
  for (int r = 0; r < warmup + repeats; ++r) {
    last = run_solve(cfg, sys, options);
    if (r < warmup) continue;
    const auto& res = last.result;
    per_iteration.push_back(res.iterations ? res.times.iterate / res.iterations : 0.0);
    totals.push_back(res.times.total);
  }
  const auto t = summarize_times(warmup, per_iteration);
  const auto total = summarize_times(warmup, totals);
  const auto& res = last.result;
  const double bytes = spmv_bytes_per_iteration(sys.A, cfg.method);
  const double gbps = t.median > 0 ? bytes / t.median * 1e-9 : 0.0;
  const std::size_t n = sys.A.numRows();
  json r;
  r["strategy"] = cfg.spmv_name;
  r["mapping"] = cfg.spmv->describe();
  r["timing"] = times_json(t);
  r["time_per"] = "iteration";
  r["total_timing"] = times_json(total);
  r["setup_s"] = sys.seconds;
  r["throughput"] = {{"value", gbps}, {"unit", "GB/s (SpMV traffic model)"}};
  r["ceiling"] = {{"kind", "copy bandwidth (Kokkos::deep_copy, bytes read + written), GB/s"},
                  {"value", copy_bandwidth_ > 0 ? json(copy_bandwidth_ * 1e-9) : json(nullptr)},
                  {"fraction", copy_bandwidth_ > 0 ? json(gbps / (copy_bandwidth_ * 1e-9)) : json(nullptr)}};
  r["problem"] = {{"matrix", sys.description},
                  {"rows", n},
                  {"nnz", sys.A.nnz()},
                  {"nnz_per_row", n ? double(sys.A.nnz()) / double(n) : 0.0},
                  {"method", cfg.method},
                  {"preconditioner", cfg.options.preconditioner},
                  {"preconditioner_built", res.preconditioner},
                  {"precond_setup_s", res.times.precond_setup},
                  {"iterations", res.iterations},
                  {"outcome", to_string(res.outcome)},
                  {"spmv_bytes_per_iteration", bytes}};
  r["verification"] = {{"kind", "true relative residual ||b - Ax|| / ||b||"},
                       {"error", res.true_residual},
                       {"error_vs_exact", last.error_l2 >= 0 ? json(last.error_l2) : json(nullptr)},
                       {"tolerance", cfg.options.rtol},
                       {"passed", is_converged(res.outcome)}};
  return r;
}

int sweep_job::run(job_context& ctx) {
  system_ = query_system_info();
  // What the points run on, part of every record's key: the header less its timestamp.
  json identity = json::parse(summary_header_json(system_, "sweep", cfg_.file));
  identity.erase("timestamp");
  // One sweep per results file from here to the end; the records are read again under the lock (another sweep may
  // have added some since the job was read) and the CSV view made to agree with them.
  const sweep_lock lock(cfg_.lock, cfg_.results_where + ": 'output.results'");
  cfg_.records = read_sweep_records(cfg_.results);
  results_file results(cfg_.results, cfg_.csv, cfg_.records);
  results.refresh_csv();

  auto say = [&](const std::string& line) {
    if (!ctx.quiet) ctx.out << "sweep: " << line << "\n" << std::flush;
  };
  say(fmt::format("{}: {} points of a {} job ({}), results {}", cfg_.name, cfg_.points.size(), cfg_.base_kind,
                  cfg_.base_file.empty() ? "inline base" : cfg_.base_file, cfg_.results));
  for (const auto& s : cfg_.skipped) say("not runnable in this build: " + s);

  std::optional<progress_bar> bar;
  if (!ctx.quiet) bar.emplace(std::cerr, cfg_.points.size(), is_terminal(2));
  std::size_t measured = 0, kept = 0, repeated = 0, failed = 0, not_converged = 0;
  std::set<std::string> done;  // keys measured by this run
  for (const auto& p : cfg_.points) {
    auto c = sweep_point_config(cfg_, p);
    c.get<std::string>("job");
    json config = json::parse(c.to_json());
    config.erase("output");  // never written by a sweep: not part of what is measured
    json settings = json::object();
    for (const auto& s : p.settings) settings[s.key] = json::parse(s.json);
    // The key: what was run (the resolved job, the sweep's timing), the study, and what it ran on.
    const std::string key = fnv1a_hex(
        config.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n" + cfg_.name + "\n" +
        fmt::format("{} {}", cfg_.warmup.value_or(-1), cfg_.repeats.value_or(-1)) + "\n" + identity["ppl"].dump() +
        "\n" + identity["build"].dump() + "\n" + identity["backend"].dump() + "\n" + identity["device"].dump());
    // A point that runs the same job as an earlier one (two vary blocks that meet) has one record, not two.
    if (done.count(key)) {
      ++repeated;
      if (bar) bar->skip();
      continue;
    }
    if (results.has(key) && !ctx.overwrite) {
      ++kept;
      done.insert(key);
      if (bar) bar->skip();
      continue;
    }
    done.insert(key);
    // The record (docs/summary.schema.json, job "sweep"): the common header (timestamped after the measurement),
    // its key, where it sits in the sweep, and what was measured.
    const json m = cfg_.base_kind == "potential" ? measure_potential(c) : measure_solve(c);
    json r = json::parse(summary_header_json(system_, "sweep", cfg_.file));
    r["outputs"] = json::array();  // a record writes no file of its own
    r["key"] = key;
    r["sweep"] = {
        {"study", cfg_.name},         {"point", p.index},
        {"base_job", cfg_.base_kind}, {"base_file", cfg_.base_file.empty() ? json(nullptr) : json(cfg_.base_file)},
        {"settings", settings},       {"config", config}};
    r["measurement"] = m;
    results.put(r);
    ++measured;
    if (!m["verification"]["passed"].get<bool>()) ++(cfg_.base_kind == "solve" ? not_converged : failed);
    if (bar)
      bar->step(fmt::format("{}: {:.4g} s per {}", p.text(), m["timing"]["median_s"].get<double>(),
                            m["time_per"].get<std::string>()));
  }
  if (bar) bar->finish();
  ctx.out << fmt::format(
      "sweep {}: {} points measured, {} already in {} (kept; --overwrite measures them again), {}{} not runnable in "
      "this build; {} records in {} and {}\n",
      cfg_.name, measured, kept, cfg_.results,
      repeated ? fmt::format("{} the same job as an earlier point (one record), ", repeated) : "", cfg_.skipped.size(),
      results.size(), cfg_.results, cfg_.csv);
  if (failed) ctx.out << fmt::format("sweep {}: {} points failed verification\n", cfg_.name, failed);
  if (not_converged) ctx.out << fmt::format("sweep {}: {} points did not converge\n", cfg_.name, not_converged);
  if (failed) return int(exit_code::verification_failed);
  if (not_converged) return int(exit_code::not_converged);
  return 0;
}

}  // namespace

std::unique_ptr<job> make_sweep_job(const config_node& c) {
  return std::make_unique<sweep_job>(c);
}

}  // namespace ppl
