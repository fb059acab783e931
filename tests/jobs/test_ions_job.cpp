// `job: ions` end to end: real molecules neutralised (actin dimer: 24 cations; AChBP's -49.67 e: the rounding
// rule), salt from the solvent volume, the outputs read back (ppl's PQR reader, and the PDB by gemmi when Debian's
// python3-gemmi is installed), and a placement that runs out of room.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/io/atoms.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/jobs/job.hpp"
#include "support/ppl_test.hpp"

using ppl_test::read_json;
using ppl_test::run_command;
using ppl_test::run_job;
using ppl_test::temp_dir;

namespace {

// A coarse lattice keeps the map cheap (the placement is what these tests are about; the map's accuracy is the
// potential tests' business).
std::string job_text(const temp_dir& t, const std::string& molecule, const std::string& ions, double spacing = 3.0) {
  return "job: ions\n"
         "input: {pqr: " +
         ppl_test::data_path("molecules/" + molecule) +
         "}\n"
         "lattice: {spacing: " +
         std::to_string(spacing) +
         "}\n"
         "strategy: gather_coarsened\n"
         "ions: " +
         ions +
         "\n"
         "verification: {mode: sample, samples: 50}\n"
         "timing: {warmup: 0, repeats: 1}\n"
         "output: {pqr: " +
         t.file("out.pqr") + ", pdb: " + t.file("out.pdb") + ", summary: " + t.file("s.json") + "}\n";
}

// One PQR ATOM record (whitespace-separated fields, radius 1 A).
std::string fmt_atom(int serial, double x, double y, double z, double q) {
  char line[160];
  std::snprintf(line, sizeof line, "ATOM  %5d  C   MOL A   1    %8.3f%8.3f%8.3f %7.4f 1.0000\n", serial, x, y, z, q);
  return line;
}

double distance(const ppl::atoms& a, std::size_t m, std::size_t n) {
  return std::sqrt(std::pow(a.x[m] - a.x[n], 2) + std::pow(a.y[m] - a.y[n], 2) + std::pow(a.z[m] - a.z[n], 2));
}

// The PQR read back: solute unchanged, then `ions` ions of residue `residue`, at the distances asked for (the
// file's coordinates have 4 decimals).
void check_pqr(const std::string& path, const ppl::atoms& solute, std::size_t ions, double min_solute,
               double min_ions) {
  const auto a = ppl::read_pqr(path);
  ASSERT_EQ(a.size(), solute.size() + ions);
  for (std::size_t n = 0; n < solute.size(); ++n) {
    ASSERT_EQ(a.x[n], solute.x[n]) << n;  // shortest round-trip: exactly as read
    ASSERT_EQ(a.q[n], solute.q[n]) << n;
  }
  for (std::size_t m = solute.size(); m < a.size(); ++m) {
    EXPECT_EQ(a.labels[m].record, "HETATM");
    double nearest = 1e300;
    for (std::size_t n = 0; n < solute.size(); ++n) nearest = std::min(nearest, distance(a, m, n));
    EXPECT_GE(nearest, min_solute - 2e-4) << "ion " << m - solute.size();
    for (std::size_t o = solute.size(); o < m; ++o) EXPECT_GE(distance(a, m, o), min_ions - 2e-4);
  }
}

}  // namespace

TEST(ions_job, actin_dimer_neutralised_with_24_cations) {
  temp_dir t;
  const auto job = t.write("job.yaml", job_text(t, "actin-dimer.pqr.gz", "{neutralize: true}"));
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const auto s = read_json(t.file("s.json"));
  EXPECT_EQ(s["job"], "ions");
  EXPECT_NEAR(s["ions"]["solute_charge"].get<double>(), -24.0, 1e-9);
  EXPECT_EQ(s["ions"]["counts"], nlohmann::json({{"Na+", 24}}));
  EXPECT_NEAR(s["ions"]["net_charge"].get<double>(), 0.0, 1e-9);
  // The job's own time covers its parts.
  EXPECT_GE(s["ions"]["job_s"].get<double>(), s["ions"]["mask_s"].get<double>() +
                                                  s["ions"]["placement_s"].get<double>() +
                                                  s["map"]["timing"]["median_s"].get<double>());
  ASSERT_EQ(s["ions"]["placed"].size(), 24u);
  const auto solute = ppl::read_pqr(ppl_test::data_path("molecules/actin-dimer.pqr.gz"));
  check_pqr(t.file("out.pqr"), solute, 24, 6.0, 10.0);
  const auto a = ppl::read_pqr(t.file("out.pqr"));
  EXPECT_EQ(a.labels.back().residue, "SOD");  // CHARMM names by default
  // Cations go where the potential is lowest. Each was allowed when the one before it was chosen (masks only
  // shrink), and a cation only raises the map, so the potentials met come in non-decreasing order, exactly.
  double previous = -1e300;
  for (const auto& ion : s["ions"]["placed"]) {
    EXPECT_LT(ion["potential"].get<double>(), 0.0);
    EXPECT_GE(ion["potential"].get<double>(), previous);
    EXPECT_GE(ion["nearest_solute_atom"].get<double>(), 6.0);
    previous = ion["potential"].get<double>();
  }
  EXPECT_NE(out.find("net charge: solute -24.0000 e"), std::string::npos) << out;
}

// The maps written before and after placement: the one before is the map the first ion was chosen on (its value
// there is the first ion's potential; the summary's extremes are its extremes) and the one after differs from it by
// the ions' own potentials (a float64 host sum), so neither map is the other, and neither is scaled twice.
TEST(ions_job, maps_before_and_after_placement_are_what_they_say) {
  temp_dir t;
  std::string text = job_text(t, "actin-dimer.pqr.gz", "{neutralize: true}");
  const std::string outputs = ", dx_before: " + t.file("before.dx") + ", dx_after: " + t.file("after.dx");
  text.replace(text.find(", summary: "), 0, outputs);
  text += "physics: {units: kT_per_e}\n";
  const auto job = t.write("job.yaml", text);
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const auto s = read_json(t.file("s.json"));
  const auto before = ppl::read_opendx(t.file("before.dx")), after = ppl::read_opendx(t.file("after.dx"));
  ASSERT_EQ(before.values.size(), after.values.size());
  const auto& placed = s["ions"]["placed"];
  ASSERT_EQ(placed.size(), 24u);
  const double first = placed[0]["potential"].get<double>();
  EXPECT_NEAR(before.values[placed[0]["point"].get<std::size_t>()], first, 1e-6 * std::abs(first));
  const auto [lo, hi] = std::minmax_element(before.values.begin(), before.values.end());
  EXPECT_NEAR(s["map"]["values"]["min"].get<double>(), *lo, 1e-6 * std::abs(*lo));
  EXPECT_NEAR(s["map"]["values"]["max"].get<double>(), *hi, 1e-6 * std::abs(*hi));
  // kT/e per e/A (permittivity 1).
  const auto& g = before.geometry;
  const double scale = s["map"]["physics"]["unit_factor"].get<double>();
  const std::size_t nx = std::size_t(g.dims[0]), ny = std::size_t(g.dims[1]);
  double worst = 0;
  for (std::size_t n = 0; n < before.values.size(); ++n) {
    const double px = g.origin[0] + double(n % nx) * g.delta[0], py = g.origin[1] + double(n / nx % ny) * g.delta[1],
                 pz = g.origin[2] + double(n / (nx * ny)) * g.delta[2];
    double sum = 0;
    for (const auto& ion : placed) {
      const auto& r = ion["position"];
      const double d2 = std::pow(px - r[0].get<double>(), 2) + std::pow(py - r[1].get<double>(), 2) +
                        std::pow(pz - r[2].get<double>(), 2);
      if (d2 >= 1e-8) sum += ion["charge"].get<double>() / std::sqrt(d2);
    }
    // Float32 sums, then 7 significant digits in each file.
    const double tol = 1e-5 * scale + 2e-6 * (std::abs(before.values[n]) + std::abs(after.values[n]));
    worst = std::max(worst, std::abs(after.values[n] - before.values[n] - sum * scale) / tol);
  }
  EXPECT_LE(worst, 1.0);
}

// ions.algorithm: the bounded placement (the default) and the full pass place the same ions at the same points and
// leave the same map bits (the summary's checksum of the map after placement); only the bounded one counts blocks.
TEST(ions_job, both_placement_algorithms_place_the_same_ions_and_leave_the_same_map) {
  temp_dir t;
  nlohmann::json s[2];
  const char* algorithms[2] = {"bounded", "full_pass"};
  for (int a = 0; a < 2; ++a) {
    const auto job =
        t.write(std::string("job_") + algorithms[a] + ".yaml",
                job_text(t, "actin-dimer.pqr.gz",
                         std::string("{neutralize: true, salt_molar: 0.15, algorithm: ") + algorithms[a] + "}"));
    std::string out;
    ASSERT_EQ(run_job(job, &out), 0) << out;
    s[a] = read_json(t.file("s.json"));
    EXPECT_EQ(s[a]["ions"]["algorithm"], algorithms[a]);
  }
  const auto &b = s[0]["ions"], &f = s[1]["ions"];
  ASSERT_EQ(b["placed"].size(), f["placed"].size());
  ASSERT_GT(b["placed"].size(), 30u);
  for (std::size_t n = 0; n < b["placed"].size(); ++n) {
    EXPECT_EQ(b["placed"][n]["point"], f["placed"][n]["point"]) << "ion " << n;
    EXPECT_EQ(b["placed"][n]["potential"], f["placed"][n]["potential"]) << "ion " << n;
    EXPECT_TRUE(b["placed"][n]["blocks"].is_number_integer());
    EXPECT_TRUE(f["placed"][n]["blocks"].is_null());
  }
  EXPECT_EQ(b["map_after_checksum"], f["map_after_checksum"]);
  EXPECT_EQ(b["map_after_checksum"].get<std::string>().size(), 16u);
  EXPECT_GT(b["blocks"]["count"].get<int>(), 1);
  EXPECT_LE(b["blocks"]["per_ion"]["median"].get<int>(), b["blocks"]["count"].get<int>());
  EXPECT_TRUE(f["blocks"].is_null());
  EXPECT_TRUE(f["finish_s"].is_null());
  EXPECT_GE(b["finish_s"].get<double>(), 0.0);
}

TEST(ions_job, achbp_non_integer_charge_rounds_to_the_nearest_counter_ion_count) {
  // -49.67 e: round(49.67) = 50 Na+ (net +0.33 e); with Mg2+, round(49.67 / 2) = round(24.835) = 25 (net +0.33 e).
  for (const auto& [cation, count, residue] : {std::tuple{"Na+", 50, "Na+"}, std::tuple{"Mg2+", 25, "MG"}}) {
    temp_dir t;
    const auto job = t.write(
        "job.yaml",
        job_text(t, "achbp.pqr.gz", std::string("{neutralize: true, convention: amber, cation: ") + cation + "}", 4.0));
    std::string out;
    ASSERT_EQ(run_job(job, &out), 0) << out;
    const auto s = read_json(t.file("s.json"));
    EXPECT_NEAR(s["ions"]["solute_charge"].get<double>(), -49.67, 1e-6);
    EXPECT_EQ(s["ions"]["counts"], nlohmann::json({{cation, count}}));
    EXPECT_NEAR(s["ions"]["net_charge"].get<double>(), 0.33, 1e-6);
    const auto a = ppl::read_pqr(t.file("out.pqr"));
    EXPECT_EQ(a.labels.back().residue, residue);
    double q = 0;
    for (double c : a.q) q += c;
    EXPECT_NEAR(q, 0.33, 1e-6);
  }
}

TEST(ions_job, salt_from_the_solvent_volume_alternates_and_reads_back_with_gemmi) {
  temp_dir t;
  const auto job = t.write("job.yaml", job_text(t, "ubq.pqr",
                                                "{neutralize: true, salt_molar: 0.15, "
                                                "convention: amber, min_distance_ions: 5}"));
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const auto s = read_json(t.file("s.json"));
  const double volume = s["ions"]["solvent_volume_A3"].get<double>();
  EXPECT_LT(volume, s["ions"]["box_volume_A3"].get<double>());
  const int units = int(std::llround(0.15 * 6.02214076e-4 * volume));
  ASSERT_GT(units, 2);
  EXPECT_EQ(s["ions"]["salt_units"].get<int>(), units);
  EXPECT_EQ(s["ions"]["counts"], nlohmann::json({{"Na+", units}, {"Cl-", units}}));  // ubiquitin is neutral
  const auto& placed = s["ions"]["placed"];
  for (std::size_t n = 0; n < placed.size(); ++n) EXPECT_EQ(placed[n]["charge"].get<int>(), n % 2 ? -1 : 1) << n;
  EXPECT_NEAR(s["ions"]["net_charge"].get<double>(), 0.0, 1e-9);

  int status = 0;
  run_command("/usr/bin/python3 -c 'import gemmi' 2>/dev/null", status);
  if (status != 0) GTEST_SKIP() << "/usr/bin/python3 cannot import gemmi (Debian python3-gemmi): PDB not read back";
  const std::string script =
      "import json, sys, gemmi\n"
      "st = gemmi.read_structure(sys.argv[1])\n"
      "out = {'atoms': st[0].count_atom_sites(), 'ions': []}\n"
      "for ch in st[0]:\n"
      "  for r in ch:\n"
      "    if r.het_flag == 'H':\n"
      "      a = r[0]\n"
      "      out['ions'].append([ch.name, r.name, r.seqid.num, a.name, a.element.name, a.charge,\n"
      "                          a.pos.x, a.pos.y, a.pos.z])\n"
      "print(json.dumps(out))\n";
  const auto script_path = t.write("read.py", script);
  const auto text = run_command("/usr/bin/python3 " + script_path + " " + t.file("out.pdb"), status);
  ASSERT_EQ(status, 0) << text;
  const auto g = nlohmann::json::parse(text);
  EXPECT_EQ(g["atoms"].get<std::size_t>(), 1231 + placed.size());
  ASSERT_EQ(g["ions"].size(), placed.size());
  for (std::size_t n = 0; n < placed.size(); ++n) {
    const auto& r = g["ions"][n];
    const bool na = placed[n]["species"] == "Na+";
    EXPECT_EQ(r[0], "I");
    EXPECT_EQ(r[1], na ? "Na+" : "Cl-");  // AMBER residue names
    EXPECT_EQ(r[2].get<int>(), int(n + 1));
    EXPECT_EQ(r[4], na ? "Na" : "Cl");
    EXPECT_EQ(r[5].get<int>(), na ? 1 : -1);
    for (int d = 0; d < 3; ++d) EXPECT_NEAR(r[6 + d].get<double>(), placed[n]["position"][d].get<double>(), 5e-4) << n;
  }
}

TEST(ions_job, running_out_of_room_is_an_input_error_and_writes_nothing) {
  // No solute, a 21 x 3 x 3 A line of points: three ions 10 A apart fit along x, a fourth does not; the packing bound
  // read with the job lets it through, the placement finds it.
  temp_dir t;
  const auto job = t.write("job.yaml",
                           "job: ions\n"
                           "input: {random: {atoms: 0}}\n"
                           "lattice: {dims: [21, 3, 3], spacing: 1.0}\n"
                           "strategy: gather\n"
                           "ions: {counts: {K+: 4}}\n"
                           "output: {pqr: " +
                               t.file("out.pqr") + "}\n");
  const auto message = ppl_test::error_of<ppl::input_error>([&] { run_job(job); });
  EXPECT_NE(message.find("no allowed lattice point is left for ion 4 of 4 (K+)"), std::string::npos) << message;
  EXPECT_NE(message.find("job.yaml:5:"), std::string::npos) << message;  // the key that asked for the ions
  EXPECT_FALSE(std::filesystem::exists(t.file("out.pqr")));
  temp_dir u;
  const auto three = u.write("job.yaml",
                             "job: ions\n"
                             "input: {random: {atoms: 0}}\n"
                             "lattice: {dims: [21, 3, 3], spacing: 1.0}\n"
                             "strategy: gather\n"
                             "ions: {counts: {K+: 3}}\n"
                             "output: {summary: " +
                                 u.file("s.json") + "}\n");
  ASSERT_EQ(run_job(three), 0);
  const auto s = read_json(u.file("s.json"));
  // The first ion on the zero map: every point ties, the lowest index wins. The second K+ goes where the first's
  // potential is lowest, the farthest point (20, 2, 2).
  EXPECT_EQ(s["ions"]["placed"][0]["point"].get<int>(), 0);
  EXPECT_EQ(s["ions"]["placed"][1]["point"].get<int>(), 20 + 21 * (2 + 3 * 2));
}

TEST(ions_job, a_round_off_net_charge_is_neutral_whatever_the_atom_order) {
  // Charges summing to 0 exactly, whose float64 sum in file order is +1.1e-16 and in the shuffled order -2.8e-17:
  // unrounded, the sign rule put the anions first in one order and the cations first in the other.
  const double q[8] = {0.1, 0.2, -0.3, 0.4, -0.7, 0.3, 0.6, -0.6};
  const double xyz[8][3] = {{0.0, 0.0, 0.0},  {1.5, 0.2, 0.1},  {0.3, 1.4, -0.2},   {-1.2, 0.5, 0.8},
                            {0.7, -1.1, 1.3}, {2.2, 1.9, -0.9}, {-0.6, -1.7, -1.4}, {1.1, 0.9, 2.1}};
  auto placed = [&](const std::vector<int>& order) {
    temp_dir t;
    std::string pqr;
    for (int n : order) pqr += fmt_atom(n + 1, xyz[n][0], xyz[n][1], xyz[n][2], q[n]);
    t.write("m.pqr", pqr);
    const auto job = t.write("job.yaml",
                             "job: ions\ninput: {pqr: m.pqr}\nlattice: {spacing: 1.0, padding: 8}\n"
                             "strategy: reference\nions: {counts: {Na+: 2, Cl-: 2}, min_distance_solute: 2, "
                             "min_distance_ions: 4}\noutput: {summary: " +
                                 t.file("s.json") + "}\n");
    EXPECT_EQ(run_job(job), 0);
    const auto s = read_json(t.file("s.json"));
    EXPECT_EQ(s["ions"]["solute_charge"].get<double>(), 0.0);
    return s["ions"]["placed"];
  };
  const auto in_order = placed({0, 1, 2, 3, 4, 5, 6, 7});
  const auto shuffled = placed({0, 1, 3, 5, 2, 6, 4, 7});
  ASSERT_EQ(in_order.size(), 4u);
  EXPECT_EQ(in_order[0]["species"], "Na+");  // a neutral solute: cations first
  EXPECT_EQ(in_order[2]["species"], "Cl-");
  for (std::size_t n = 0; n < 4; ++n) {
    EXPECT_EQ(in_order[n]["species"], shuffled[n]["species"]) << n;
    EXPECT_EQ(in_order[n]["position"], shuffled[n]["position"]) << n;
  }
}

TEST(ions_job, the_mask_of_a_reach_beyond_the_lattice_is_quick_to_validate) {
  // 20,000 atoms with min_distance_solute 1000 A: per atom, every atom visits every point (5e10 tests, minutes); the
  // per-point mask stops at the first atom, so validation refuses the job at once.
  temp_dir t;
  const auto job = t.write("job.yaml",
                           "job: ions\ninput: {random: {atoms: 20000, box_hi: [40, 40, 40]}}\n"
                           "lattice: {spacing: 0.5}\nstrategy: gather\n"
                           "ions: {neutralize: true, min_distance_solute: 1000}\n");
  const auto t0 = std::chrono::steady_clock::now();
  const auto message = ppl_test::error_of<ppl::input_error>([&] { ppl::load_job(job, {}); });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(message.find("exclude every point of the lattice"), std::string::npos) << message;
  EXPECT_LT(seconds, 20.0);
}
