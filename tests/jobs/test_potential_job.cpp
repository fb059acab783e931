// `job: potential` end to end: YAML in a temp folder -> load_job -> run -> .dx, raw, summary JSON; and its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/jobs/job.hpp"
#include "ppl/potential/physics.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/potential/summary.hpp"
#include "ppl/potential/verification.hpp"
#include "support/ppl_test.hpp"

using ppl_test::error_of;
using ppl_test::read_json;
using ppl_test::run_job;
using ppl_test::temp_dir;

namespace {

// The random input of the jobs below, as the generator makes it.
ppl::atoms job_atoms() {
  const double lo[3] = {0, 0, 0}, hi[3] = {6, 5, 4};
  return ppl::random_atoms(60, lo, hi, -2.0, 2.0, 42);
}

}  // namespace

TEST(potential_job, random_atoms_explicit_lattice_kT_units_all_outputs) {
  temp_dir t;
  const auto job =
      t.write("job.yaml",
              "job: potential\n"
              "input:\n"
              "  random: {atoms: 60, box_lo: [0, 0, 0], box_hi: [6, 5, 4], charge_range: [-2, 2], seed: 42}\n"
              "lattice: {origin: [-1.0, -0.5, 0.25], spacing: 0.5, dims: [17, 13, 11]}\n"
              "physics: {units: kT_per_e, permittivity: 2.0}\n"
              "strategy: reference\n"
              "output: {dx: " +
                  t.file("v.dx") + ", raw: " + t.file("v.f32") + ", summary: " + t.file("v.json") +
                  "}\n"
                  "verification: {mode: full, tolerance: 1e-6}\n"
                  "timing: {warmup: 0, repeats: 2}\n");
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  EXPECT_NE(out.find("verification (full"), std::string::npos) << out;
  EXPECT_NE(out.find("passed"), std::string::npos) << out;

  // The map equals the float64 sum x 560.47254 / 2 at every point (float32 storage, 6 digits in the file).
  const auto dx = ppl::read_opendx(t.file("v.dx"));
  EXPECT_EQ(dx.geometry.dims, (std::array<int, 3>{17, 13, 11}));
  EXPECT_DOUBLE_EQ(dx.geometry.origin[2], 0.25);
  const auto a = job_atoms();
  ppl::lattice g;
  g.origin = {-1.0, -0.5, 0.25};
  g.dims = {17, 13, 11};
  double vmin = 1e300, vmax = -1e300, sum = 0;
  for (int k = 0; k < 11; ++k)
    for (int j = 0; j < 13; ++j)
      for (int i = 0; i < 17; ++i) {
        const double expect =
            ppl::potential_f64(a, g.coord(0, i), g.coord(1, j), g.coord(2, k), ppl::coulomb_interaction()) * 560.47254 /
            2.0;
        const double got = dx.values[g.index(i, j, k)];
        ASSERT_NEAR(got, expect, 2e-6 * std::abs(expect) + 1e-9) << i << " " << j << " " << k;
        vmin = std::min(vmin, got), vmax = std::max(vmax, got), sum += got;
      }

  const auto s = read_json(t.file("v.json"));
  EXPECT_EQ(s["map"]["atoms"]["count"], 60);
  EXPECT_EQ(s["map"]["lattice"]["dims"], (std::vector<int>{17, 13, 11}));
  EXPECT_EQ(s["map"]["strategy"]["requested"], "reference");
  EXPECT_EQ(s["map"]["physics"]["units"], "kT_per_e");
  EXPECT_EQ(s["map"]["verification"]["mode"], "full");
  EXPECT_EQ(s["map"]["verification"]["points"], 17 * 13 * 11);
  EXPECT_TRUE(s["map"]["verification"]["passed"].get<bool>());
  EXPECT_LE(s["map"]["verification"]["relative_l2_error"].get<double>(), 1e-6);
  EXPECT_NEAR(s["map"]["values"]["min"].get<double>(), vmin, 1e-6 * std::abs(vmin));
  EXPECT_NEAR(s["map"]["values"]["max"].get<double>(), vmax, 1e-6 * std::abs(vmax));
  EXPECT_NEAR(s["map"]["values"]["mean"].get<double>(), sum / (17 * 13 * 11), 1e-5 * std::abs(vmax));
  // The reported position of the maximum holds the maximum.
  const auto pos = s["map"]["values"]["max_position"].get<std::vector<double>>();
  const int im = int(std::lround((pos[0] + 1.0) / 0.5)), jm = int(std::lround((pos[1] + 0.5) / 0.5)),
            km = int(std::lround((pos[2] - 0.25) / 0.5));
  EXPECT_NEAR(dx.values[g.index(im, jm, km)], vmax, 1e-6 * std::abs(vmax));
  EXPECT_EQ(s["map"]["timing"]["repeats"], 2);
  EXPECT_GT(s["map"]["work"]["atom_evaluations_per_s"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(s["map"]["work"]["evaluations"].get<double>(), 60.0 * 17 * 13 * 11);
  EXPECT_EQ(s["schema"], "ppl.summary/1");
  EXPECT_EQ(s["job"], "potential");
  EXPECT_TRUE(s["device"].contains("name"));
  EXPECT_TRUE(std::filesystem::exists(t.file("v.f32")));
  EXPECT_EQ(std::filesystem::file_size(t.file("v.f32")), 4u * 17 * 13 * 11);
  EXPECT_EQ(read_json(t.file("v.f32.json"))["units"], "kT/e");
}

// output.mrc beside the other formats: the MRC map holds the same float32 values as the raw one, with the lattice's
// geometry and the job's labels; the progress lines and the summary (text and JSON) give each output's size and the
// time its writing took.
TEST(potential_job, defaults_by_intent_one_map_in_kT_per_e_with_10_A_of_padding) {
  // No timing, physics or padding: one compute, kT/e at 298.15 K, the lattice 10 A beyond the atoms.
  temp_dir t;
  t.write("one.pqr", "ATOM      1  NA  NA  A   1       1.000   2.000   3.000  1.0000 1.0\n");
  const auto job = t.write("job.yaml",
                           "job: potential\ninput: {pqr: one.pqr}\nlattice: {spacing: 1.0}\n"
                           "strategy: reference\noutput: {summary: " +
                               t.file("s.json") + "}\n");
  ASSERT_EQ(run_job(job), 0);
  const auto s = read_json(t.file("s.json"));
  EXPECT_EQ(s["map"]["timing"]["warmup"], 0);
  EXPECT_EQ(s["map"]["timing"]["repeats"], 1);
  EXPECT_EQ(s["map"]["physics"]["units"], "kT_per_e");
  EXPECT_EQ(s["map"]["physics"]["temperature"], 298.15);
  EXPECT_EQ(s["map"]["physics"]["unit_factor"], 560.47254);
  EXPECT_EQ(s["map"]["lattice"]["origin"], (std::vector<double>{-9.0, -8.0, -7.0}));
  EXPECT_EQ(s["map"]["lattice"]["dims"], (std::vector<int>{21, 21, 21}));
  // The point 1 A from the ion along x: 1 e / 1 A in kT/e.
  EXPECT_NEAR(s["map"]["values"]["max"].get<double>(), 560.47254, 560.47254 * 1e-6);
}

TEST(potential_job, temperature_scales_kT_per_e_and_kJ_is_4_184_kcal) {
  temp_dir t;
  t.write("one.pqr", "ATOM      1  NA  NA  A   1       0.000   0.000   0.000  1.0000 1.0\n");
  auto max_of = [&](const std::string& physics) {
    const auto job = t.write("job.yaml",
                             "job: potential\ninput: {pqr: one.pqr}\nlattice: {spacing: 1.0, padding: 2}\n"
                             "physics: " +
                                 physics + "\nstrategy: reference\noutput: {summary: " + t.file("s.json") + "}\n");
    EXPECT_EQ(run_job(job), 0) << physics;
    return read_json(t.file("s.json"))["map"]["values"]["max"].get<double>();
  };
  // 1 A from a unit charge: the unit factor itself (float32 storage).
  const double at_310 = max_of("{units: kT_per_e, temperature: 310}");
  EXPECT_NEAR(at_310, 560.47254 * 298.15 / 310.0, 1e-4);
  EXPECT_NEAR(max_of("{units: kT_per_e, temperature: 298.15}"), 560.47254, 1e-4);
  EXPECT_NEAR(max_of("{units: kJ_per_mol_e}"), 4.184 * max_of("{units: kcal_per_mol_e}"), 1e-3);
  EXPECT_NEAR(max_of("{units: kJ_per_mol_e}"), 1389.3541, 1e-3);
}

TEST(potential_job, auto_picks_only_a_strategy_whose_check_takes_the_job) {
  // A 500 A cutoff: auto's first choice (cutoff_binned here) refuses it, a strategy that takes it is chosen, says
  // why, and the map verifies.
  temp_dir t;
  t.write("two.pqr", "ATOM 1 N MET 1 0 0 0 1 1\nATOM 2 N MET 1 3 1 2 -0.5 1\n");
  const auto job = t.write("job.yaml",
                           "job: potential\ninput: {pqr: two.pqr}\nlattice: {spacing: 1.0, padding: 2}\n"
                           "physics: {interaction: {kind: cutoff, radius: 500}}\n"
                           "verification: {mode: full}\noutput: {summary: " +
                               t.file("s.json") + "}\n");
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const auto s = read_json(t.file("s.json"));
  const std::string chosen = s["map"]["strategy"]["chosen"];
  EXPECT_NE(chosen, "cutoff_binned");
  EXPECT_NE(s["map"]["strategy"]["reason"].get<std::string>().find("refuses this job"), std::string::npos) << s.dump(2);
  // The named first choice still refuses, naming the strategy key.
  const auto named = t.write("named.yaml",
                             "job: potential\ninput: {pqr: two.pqr}\nlattice: {spacing: 1.0, padding: 2}\n"
                             "physics: {interaction: {kind: cutoff, radius: 500}}\nstrategy: cutoff_binned\n");
  EXPECT_THROW(ppl::load_job(named, {}), ppl::input_error);
}

TEST(potential_job, a_map_that_cancels_to_zero_verifies_with_every_host_strategy) {
  // 400 charges and their mirror images (-q at -z), shuffled, on the mirror plane z = 0: the float64 sum is a
  // round-off (1e-14) and each float32 strategy's rounding (0.1 eps of sum |q|/r) an infinite relative error
  // against it alone. Relative to 1/128 of the magnitude's norm, they verify.
  temp_dir t;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::string> lines;
  for (int n = 0; n < 400; ++n) {
    const double x = 30 * u(rng) - 15, y = 30 * u(rng) - 15, z = 0.5 + 14.5 * u(rng),
                 q = std::round(2e4 * u(rng) - 1e4) / 1e4;
    for (int s : {1, -1}) {
      char line[120];
      std::snprintf(line, sizeof line, "ATOM      1  C   MOL A   1    %8.3f%8.3f%8.3f %7.4f 1.0000\n", x, y, s * z,
                    s * q);
      lines.push_back(line);
    }
  }
  std::shuffle(lines.begin(), lines.end(), rng);
  std::string pqr;
  for (const auto& l : lines) pqr += l;
  t.write("mirror.pqr", pqr);
  for (const char* strategy : {"gather", "gather_coalesced", "scatter", "cutoff_binned"}) {
    const std::string physics = std::string(strategy) == "cutoff_binned"
                                    ? "physics: {interaction: {kind: cutoff, radius: 12, function: truncated}}\n"
                                    : "";
    const auto job = t.write("job.yaml",
                             "job: potential\ninput: {pqr: mirror.pqr}\n"
                             "lattice: {spacing: 0.5, padding: 2, plane_z: 0.0}\n" +
                                 physics + "strategy: " + strategy +
                                 "\nverification: {mode: full}\n"
                                 "output: {summary: " +
                                 t.file("s.json") + "}\n");
    std::string out;
    EXPECT_EQ(run_job(job, &out), 0) << strategy << "\n" << out;
    const auto v = read_json(t.file("s.json"))["map"]["verification"];
    EXPECT_LT(v["reference_norm_e_per_A"].get<double>(), 1e-10) << strategy;
    EXPECT_GT(v["magnitude_norm_e_per_A"].get<double>(), 100.0) << strategy;
  }
}

TEST(potential_job, a_truncated_cutoff_map_of_ubiquitin_verifies) {
  // Pairs within float32 rounding of the radius are in or out of a float32 sum: the map steps by q / rc there, and
  // the verification allows either side at such pairs only. At 1 A and 12 A every point is checked (1.5e8 pairs);
  // without that allowance the relative L2 error is 3.3e-4 (exit 3).
  temp_dir t;
  const auto job = t.write("job.yaml", "job: potential\ninput: {pqr: " + ppl_test::data_path("molecules/ubq.pqr") +
                                           "}\nlattice: {spacing: 1.0}\n"
                                           "physics: {interaction: {kind: cutoff, radius: 12, function: truncated}}\n"
                                           "strategy: cutoff_binned\nverification: {mode: full}\n"
                                           "output: {summary: " +
                                           t.file("s.json") + "}\n");
  std::string out;
  EXPECT_EQ(run_job(job, &out), 0) << out;
  EXPECT_TRUE(read_json(t.file("s.json"))["map"]["verification"]["passed"].get<bool>());
}

TEST(potential_job, mrc_output_and_the_time_of_each_output) {
  temp_dir t;
  const auto job =
      t.write("job.yaml",
              "job: potential\n"
              "input:\n"
              "  random: {atoms: 60, box_lo: [0, 0, 0], box_hi: [6, 5, 4], charge_range: [-2, 2], seed: 42}\n"
              "lattice: {origin: [-1.1, -0.5, 0.3], spacing: 0.375, dims: [19, 14, 11]}\n"
              "physics: {units: kT_per_e}\n"
              "strategy: reference\n"
              "output: {dx: " +
                  t.file("v.dx") + ", mrc: " + t.file("v.mrc") + ", raw: " + t.file("v.f32") +
                  ", summary: " + t.file("v.json") +
                  "}\n"
                  "timing: {warmup: 0, repeats: 1}\n");
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const std::size_t points = 19 * 14 * 11;

  // The MRC file: header, then the raw file's bytes exactly (both float32 little-endian, x fastest).
  auto bytes_of = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const auto mrc = bytes_of(t.file("v.mrc")), raw = bytes_of(t.file("v.f32"));
  ASSERT_EQ(mrc.size(), 1024 + 4 * points);
  EXPECT_EQ(mrc.substr(1024), raw);
  auto word = [&](int w) {
    std::uint32_t u = 0;
    for (int k = 0; k < 4; ++k)
      u |= std::uint32_t((unsigned char)mrc[std::size_t(w - 1) * 4 + std::size_t(k)]) << (8 * k);
    return u;
  };
  auto f32 = [&](int w) {
    const std::uint32_t u = word(w);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  EXPECT_EQ(word(1), 19u);
  EXPECT_EQ(word(2), 14u);
  EXPECT_EQ(word(3), 11u);
  EXPECT_EQ(f32(11), float(19 * 0.375));
  EXPECT_EQ(f32(50), -1.1f);
  EXPECT_EQ(f32(51), -0.5f);
  EXPECT_EQ(f32(52), 0.3f);
  EXPECT_EQ(mrc.substr(224, 80).find("ppl " PPL_VERSION ": electrostatic potential (kT/e)"), 0u);
  EXPECT_EQ(word(56), 3u);

  // Progress lines: "wrote PATH (SIZE, SECONDS s)" for every format.
  for (const auto& p :
       {t.file("v.dx"), t.file("v.mrc"), t.file("v.f32") + " and " + t.file("v.f32.json"), t.file("v.json")})
    EXPECT_NE(out.find("potential: wrote " + p + " ("), std::string::npos) << p << "\n" << out;
  EXPECT_NE(out.find("potential: wrote " + t.file("v.mrc") + " (" + ppl::human_bytes(mrc.size()) + ", "),
            std::string::npos)
      << out;
  // The text summary lists each output with its format.
  EXPECT_NE(out.find("output       " + t.file("v.dx") + " (opendx, "), std::string::npos) << out;
  EXPECT_NE(out.find("             " + t.file("v.mrc") + " (mrc, " + ppl::human_bytes(mrc.size())), std::string::npos)
      << out;
  EXPECT_NE(out.find("             " + t.file("v.json") + " (json, "), std::string::npos) << out;

  // JSON: "outputs" lists each file with its format, bytes and write time (null for the summary itself, written
  // after it is composed); the raw map names its sidecar.
  const auto s = read_json(t.file("v.json"));
  const auto& f = s["outputs"];
  ASSERT_EQ(f.size(), 4u) << f;
  const std::vector<std::pair<std::string, std::string>> expect = {{t.file("v.dx"), "opendx"},
                                                                   {t.file("v.mrc"), "mrc"},
                                                                   {t.file("v.f32"), "raw_float32"},
                                                                   {t.file("v.json"), "json"}};
  for (std::size_t n = 0; n < 3; ++n) {
    EXPECT_EQ(f[n]["path"], expect[n].first);
    EXPECT_EQ(f[n]["format"], expect[n].second);
    EXPECT_EQ(f[n]["bytes"].get<std::uintmax_t>(), std::filesystem::file_size(expect[n].first)) << f[n];
    EXPECT_GT(f[n]["write_s"].get<double>(), 0.0) << f[n];
    EXPECT_LT(f[n]["write_s"].get<double>(), 60.0) << f[n];
  }
  EXPECT_EQ(f[2]["sidecar"], t.file("v.f32.json"));
  EXPECT_EQ(f[3]["path"], expect[3].first);
  EXPECT_EQ(f[3]["format"], "json");
  EXPECT_TRUE(f[3]["bytes"].is_null());
  EXPECT_TRUE(f[3]["write_s"].is_null());
}

TEST(potential_job, pqr_relative_to_the_job_file_lattice_around_exclusion_and_plane) {
  temp_dir t;
  std::filesystem::create_directories(t.path / "in");
  t.write("in/two.pqr",
          "REMARK two ions\n"
          "ATOM      1  NA  NA  A   1       1.000   2.000   3.000  1.0000 1.0\n"
          "HETATM    2  CL  CL      2       4.000   2.500   3.500 -1.0000 1.8\n");
  const auto job = t.write("in/job.yaml",
                           "job: potential\n"
                           "input: {pqr: two.pqr}\n"
                           "lattice: {spacing: 0.25, padding: 2.0}\n"
                           "physics: {exclusion_radius: 0.8}\n"
                           "strategy: reference\n"
                           "output: {summary: " +
                               t.file("s.json") + "}\n");
  ASSERT_EQ(run_job(job), 0);
  auto s = read_json(t.file("s.json"));
  EXPECT_EQ(s["map"]["atoms"]["count"], 2);
  EXPECT_NEAR(s["map"]["atoms"]["net_charge"].get<double>(), 0.0, 1e-12);
  EXPECT_EQ(s["map"]["lattice"]["origin"], (std::vector<double>{-1.0, 0.0, 1.0}));
  EXPECT_EQ(s["map"]["lattice"]["dims"], (std::vector<int>{29, 19, 19}));  // floor(7/0.25)+1, floor(4.5/0.25)+1, ...
  // Points within 0.8 A of an atom: the spheres hold the same number of lattice points here (both atoms sit on
  // lattice points: 1,2,3 and 4,2.5,3.5 are multiples of 0.25 from the origin).
  EXPECT_EQ(s["map"]["physics"]["excluded_points"].get<std::size_t>() % 2, 0u);
  EXPECT_GT(s["map"]["physics"]["excluded_points"].get<std::size_t>(), 2u * 100);
  // The maximum: next to the + ion just outside 0.8 A (offset (-0.75, -0.25, -0.25), 0.83 A), on the side away
  // from the - ion.
  EXPECT_EQ(s["map"]["values"]["max_position"], (std::vector<double>{0.25, 1.75, 2.75}));

  // The same with one plane: z = 3 (through the + ion), 29 x 19 x 1 points.
  const auto plane = t.write("in/plane.yaml",
                             "job: potential\n"
                             "input: {pqr: two.pqr}\n"
                             "lattice: {spacing: 0.25, padding: 2.0, plane_z: 3.0}\n"
                             "physics: {units: e_per_angstrom}\n"
                             "strategy: reference\n"
                             "output: {dx: " +
                                 t.file("p.dx") + "}\n");
  ASSERT_EQ(run_job(plane), 0);
  const auto dx = ppl::read_opendx(t.file("p.dx"));
  EXPECT_EQ(dx.geometry.dims, (std::array<int, 3>{29, 19, 1}));
  EXPECT_DOUBLE_EQ(dx.geometry.origin[2], 3.0);
  // The point on the + ion: the singularity rule drops the ion itself; only the - ion at sqrt(9.5) A remains.
  EXPECT_NEAR(dx.values[(std::size_t(8) * 29) + 8], -1.0 / std::sqrt(9.5), 1e-6);
}

TEST(map_command, the_extension_names_the_output_key) {
  EXPECT_EQ(ppl::map_output_key("a.dx"), "dx");
  EXPECT_EQ(ppl::map_output_key("dir.v/A.DX.GZ"), "dx");
  EXPECT_EQ(ppl::map_output_key("a.mrc"), "mrc");
  EXPECT_EQ(ppl::map_output_key("a.map"), "mrc");
  EXPECT_EQ(ppl::map_output_key("a.raw.gz"), "raw");
  for (const char* bad : {"a.gz", "a.dxx", ".dx", "a", "a.pqr", "a.mrc.gz"})
    EXPECT_NE(error_of<ppl::input_error>([&] { ppl::map_output_key(bad); }).find("ppl map -o"), std::string::npos)
        << bad;
}

TEST(map_command, is_the_potential_job_with_its_defaults) {
  temp_dir t;
  const auto pqr = t.write("two.pqr",
                           "ATOM      1  NA  NA  A   1       1.000   2.000   3.000  1.0000 1.0\n"
                           "HETATM    2  CL  CL      2       4.000   2.500   3.500 -1.0000 1.8\n");
  // The same job as a file, with nothing but the input and the outputs: the map must be identical.
  const auto job = t.write("job.yaml", "job: potential\ninput: {pqr: two.pqr}\noutput: {mrc: " + t.file("f.mrc") +
                                           ", summary: " + t.file("f.json") + "}\n");
  ASSERT_EQ(run_job(job), 0);
  std::ostringstream out;
  ppl::job_context ctx{out, true};
  auto map = ppl::make_map_job(pqr, t.file("m.MRC"), t.file("m.json"), {"verification.mode=full"});
  ASSERT_EQ(map->run(ctx), 0) << out.str();
  auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  // The header's labels name no file; past the 1024-byte header the data must agree byte for byte.
  EXPECT_EQ(bytes(t.file("m.MRC")).substr(1024), bytes(t.file("f.mrc")).substr(1024));
  const auto s = read_json(t.file("m.json")), f = read_json(t.file("f.json"));
  EXPECT_TRUE(s["job_file"].is_null());
  EXPECT_EQ(f["job_file"], job);
  EXPECT_EQ(s["job"], "potential");
  EXPECT_EQ(s["outputs"][0]["format"], "mrc");
  EXPECT_EQ(s["map"]["lattice"], f["map"]["lattice"]);
  EXPECT_EQ(s["map"]["values"], f["map"]["values"]);
  EXPECT_EQ(s["map"]["verification"]["mode"], "full");  // the --set override applied
  // A --set key that does not exist is reported with the key, as for a job file.
  EXPECT_NE(error_of<ppl::input_error>([&] {
              ppl::make_map_job(pqr, t.file("x.dx"), "", {"lattice.spacng=1"});
            }).find("--set lattice.spacng"),
            std::string::npos);
}

TEST(potential_job, verification_failure_exits_3_and_still_writes) {
  temp_dir t;
  const auto job = t.write("job.yaml",
                           "job: potential\n"
                           "input: {water_box: {size: [8, 8, 8], seed: 2}}\n"
                           "lattice: {padding: 1.0, spacing: 1.0}\n"
                           "strategy: reference\n"
                           "verification: {tolerance: 0.0}\n"  // float32 storage alone exceeds 0
                           "output: {dx: " +
                               t.file("v.dx") + ", summary: " + t.file("v.json") + "}\n");
  EXPECT_EQ(run_job(job), int(ppl::exit_code::verification_failed));
  EXPECT_TRUE(std::filesystem::exists(t.file("v.dx")));
  const auto s = read_json(t.file("v.json"));
  EXPECT_FALSE(s["map"]["verification"]["passed"].get<bool>());
  EXPECT_GT(s["map"]["verification"]["relative_l2_error"].get<double>(), 0.0);
  EXPECT_EQ(s["map"]["atoms"]["count"], 3 * 17);  // round(512 / 30) molecules
}

// `strategy: auto`, the default: the chosen strategy runs and verifies; the summary names the request, the choice
// and the reason, and the progress says it.
TEST(potential_job, auto_is_the_default_and_says_what_it_chose) {
  for (const std::string strategy_line : {"", "strategy: auto\n"}) {
    temp_dir t;
    const auto job =
        t.write("job.yaml",
                "job: potential\n"
                "input:\n"
                "  random: {atoms: 300, box_lo: [0, 0, 0], box_hi: [6, 5, 4], charge_range: [-2, 2], seed: 42}\n"
                "lattice: {origin: [-1.0, -0.5, 0.25], spacing: 0.5, dims: [17, 13, 11]}\n" +
                    strategy_line + "output: {summary: " + t.file("v.json") +
                    "}\nverification: {mode: full}\ntiming: {warmup: 0, repeats: 1}\n");
    std::string out;
    ASSERT_EQ(run_job(job, &out), 0) << out;
    const auto s = read_json(t.file("v.json"));
    EXPECT_EQ(s["map"]["strategy"]["requested"], "auto");
    const std::string chosen = s["map"]["strategy"]["chosen"].get<std::string>();
    EXPECT_NE(ppl::potential_strategies().find(chosen), nullptr) << chosen;
    EXPECT_FALSE(s["map"]["strategy"]["reason"].get<std::string>().empty());
    EXPECT_NE(out.find("potential: strategy auto: " + chosen + " ("), std::string::npos) << out;
    EXPECT_NE(out.find("strategy     auto: " + chosen), std::string::npos) << out;
    EXPECT_TRUE(s["map"]["verification"]["passed"].get<bool>());
  }
  // A cutoff interaction gets a cutoff strategy.
  temp_dir t;
  const auto job = t.write("job.yaml",
                           "job: potential\n"
                           "input: {random: {atoms: 100, box_lo: [0, 0, 0], box_hi: [6, 5, 4], seed: 1}}\n"
                           "lattice: {spacing: 0.5, dims: [16, 12, 10]}\n"
                           "physics: {interaction: {kind: cutoff, radius: 3.0}}\n"
                           "output: {summary: " +
                               t.file("c.json") + "}\ntiming: {warmup: 0, repeats: 1}\n");
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const auto s = read_json(t.file("c.json"));
  EXPECT_EQ(s["map"]["strategy"]["chosen"], ppl_test::cuda_build ? "cutoff_binned_cuda" : "cutoff_binned");
}

// A named strategy: the summary's choice is the name, "named in the job".
TEST(potential_job, named_strategy_is_its_own_choice) {
  temp_dir t;
  const auto job = t.write("job.yaml",
                           "job: potential\n"
                           "input: {random: {atoms: 10, seed: 3}}\n"
                           "lattice: {dims: [5, 4, 3]}\n"
                           "strategy: gather\n"
                           "output: {summary: " +
                               t.file("v.json") + "}\ntiming: {warmup: 0, repeats: 1}\n");
  std::string out;
  ASSERT_EQ(run_job(job, &out), 0) << out;
  const auto s = read_json(t.file("v.json"));
  EXPECT_EQ(s["map"]["strategy"]["requested"], "gather");
  EXPECT_EQ(s["map"]["strategy"]["chosen"], "gather");
  EXPECT_EQ(s["map"]["strategy"]["reason"], "named in the job");
  EXPECT_EQ(out.find("strategy auto"), std::string::npos) << out;
}

// Every strategy this build runs, end to end: load_job -> run -> .dx and summary written, the job's float64
// verification passing, the map in the file within 1e-5 (relative L2) of the float64 sum; and the same job with an
// impossible tolerance exits 3 with its outputs written.
class potential_job_strategies : public ::testing::TestWithParam<std::string> {
 protected:
  // Coulomb where the strategy sums it, else a cutoff (the cutoff strategies).
  ppl::interaction pair() const {
    return ppl::potential_strategies().find(GetParam())->can("coulomb")
               ? ppl::coulomb_interaction()
               : ppl::cutoff_interaction(3.0, ppl::cutoff_function::cutcp);
  }
  std::string job_yaml(const temp_dir& t, const std::string& tolerance) const {
    // Raw e/A: the written map is compared with the float64 sum itself.
    const std::string physics =
        pair().is_cutoff()
            ? "physics: {units: e_per_angstrom, interaction: {kind: cutoff, radius: 3.0, function: cutcp}}\n"
            : "physics: {units: e_per_angstrom}\n";
    return "job: potential\n" + physics +
           "input:\n"
           "  random: {atoms: 60, box_lo: [0, 0, 0], box_hi: [6, 5, 4], charge_range: [-2, 2], seed: 42}\n"
           "lattice: {origin: [-1.0, -0.5, 0.25], spacing: 0.5, dims: [17, 13, 11]}\n"
           "strategy: " +
           GetParam() + "\noutput: {dx: " + t.file("v.dx") + ", summary: " + t.file("v.json") +
           "}\n"
           "verification: {mode: full, tolerance: " +
           tolerance + "}\ntiming: {warmup: 0, repeats: 1}\n";
  }
};

TEST_P(potential_job_strategies, runs_verifies_and_writes) {
  temp_dir t;
  std::string out;
  ASSERT_EQ(run_job(t.write("job.yaml", job_yaml(t, "1e-5")), &out), 0) << out;
  const auto s = read_json(t.file("v.json"));
  EXPECT_EQ(s["map"]["strategy"]["requested"], GetParam());
  EXPECT_EQ(s["map"]["verification"]["mode"], "full");
  EXPECT_EQ(s["map"]["verification"]["points"], 17 * 13 * 11);
  EXPECT_TRUE(s["map"]["verification"]["passed"].get<bool>());
  EXPECT_LE(s["map"]["verification"]["relative_l2_error"].get<double>(), 1e-5);
  const auto dx = ppl::read_opendx(t.file("v.dx"));
  ASSERT_EQ(dx.values.size(), std::size_t(17 * 13 * 11));
  ppl::lattice g;
  g.origin = {-1.0, -0.5, 0.25};
  g.dims = {17, 13, 11};
  const auto a = job_atoms();
  double diff2 = 0, ref2 = 0;
  for (int k = 0; k < 11; ++k)
    for (int j = 0; j < 13; ++j)
      for (int i = 0; i < 17; ++i) {
        const double ref = ppl::potential_f64(a, g.coord(0, i), g.coord(1, j), g.coord(2, k), pair());
        const double d = dx.values[g.index(i, j, k)] - ref;
        diff2 += d * d, ref2 += ref * ref;
      }
  EXPECT_LE(std::sqrt(diff2 / ref2), 1e-5);
}

TEST_P(potential_job_strategies, verification_failure_exits_3_and_still_writes) {
  temp_dir t;
  std::string out;
  EXPECT_EQ(run_job(t.write("job.yaml", job_yaml(t, "1e-12")), &out), int(ppl::exit_code::verification_failed)) << out;
  EXPECT_NE(out.find("FAILED"), std::string::npos) << out;
  EXPECT_TRUE(std::filesystem::exists(t.file("v.dx")));
  const auto s = read_json(t.file("v.json"));
  EXPECT_FALSE(s["map"]["verification"]["passed"].get<bool>());
  EXPECT_GT(s["map"]["verification"]["relative_l2_error"].get<double>(), 1e-12);
}

// The strategies of this build that compute Coulomb maps (these jobs are Coulomb; the cutoff-only ones run the
// Parboil job of test_parboil_compat.cpp).
namespace {
std::vector<std::string> coulomb_strategies() {
  std::vector<std::string> out;
  for (const auto& e : ppl::potential_strategies().entries())
    if (e.available() && e.can("coulomb")) out.push_back(e.name);
  return out;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(every_strategy, potential_job_strategies, ::testing::ValuesIn(coulomb_strategies()),
                         [](const auto& p) { return p.param; });

TEST(potential_job, a_pqr_without_atoms_is_an_input_error_even_on_an_explicit_lattice) {
  temp_dir t;
  t.write("empty.pqr", "REMARK nothing\nEND\n");
  const auto job = t.write("job.yaml",
                           "job: potential\ninput: {pqr: empty.pqr}\nlattice: {dims: [4, 3, 2]}\nstrategy: reference\n"
                           "output: {dx: " +
                               t.file("v.dx") + "}\n");
  const auto msg = error_of<ppl::input_error>([&] { ppl::load_job(job, {}); });
  EXPECT_NE(msg.find("empty.pqr: no ATOM or HETATM records"), std::string::npos) << msg;
  EXPECT_FALSE(std::filesystem::exists(t.file("v.dx")));
}

struct bad_job {
  const char* name;
  const char* yaml;    // after "job: potential\n" (line 1)
  const char* expect;  // part of the message, usually the file:line
};

class potential_job_errors : public ::testing::TestWithParam<bad_job> {};

TEST_P(potential_job_errors, are_input_errors_naming_the_place) {
  temp_dir t;
  t.write("ok.pqr", "ATOM 1 N MET 1 0 0 0 1 1\n");
  t.write("bad.pqr", "REMARK\nATOM 1 N MET 1 0 0 zero 1 1\n");
  // Two atoms whose bounding box at 0.125 A spacing is 2^21 x 2^21 x 2^22 points (2^64: wrapped to 0 before).
  t.write("wide.pqr", "ATOM 1 N MET 1 0 -600000 0 1 1\nATOM 2 N MET 1 0 599998 0 1 1\n");
  t.write("far.pqr", "ATOM 1 N MET 1 0 0 0 1 1\nATOM 2 N MET 1 262143.875 262143.875 524287.875 1 1\n");
  const auto path = t.write("job.yaml", std::string("job: potential\n") + GetParam().yaml);
  const ppl_test::scoped_cwd here(t.path);  // outputs are relative to the current folder, inputs to the job file
  const auto msg = error_of<ppl::input_error>([&] { ppl::load_job(path, {}); });
  EXPECT_NE(msg.find(GetParam().expect), std::string::npos) << msg;
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(t.path), {}), 5) << "something was written";
}

INSTANTIATE_TEST_SUITE_P(
    potential_job, potential_job_errors,
    ::testing::Values(
        bad_job{"unknown_strategy_param",
                "input: {pqr: ok.pqr}\nstrategy: reference\nstrategy_params:\n  no_such_param: 4\n",
                "job.yaml:5:3: unknown key 'no_such_param' in 'strategy_params'"},
        bad_job{"unknown_physics_key", "input: {pqr: ok.pqr}\nstrategy: reference\nphysics:\n  unit: kT_per_e\n",
                "job.yaml:5:3: unknown key 'unit' in 'physics'"},
        bad_job{"temperature_zero", "input: {pqr: ok.pqr}\nstrategy: reference\nphysics: {temperature: 0}\n",
                "job.yaml:4:24: 'physics.temperature' = 0 is out of range"},
        bad_job{"temperature_negative", "input: {pqr: ok.pqr}\nstrategy: reference\nphysics: {temperature: -300}\n",
                "job.yaml:4:24: 'physics.temperature'"},
        bad_job{"temperature_inf", "input: {pqr: ok.pqr}\nstrategy: reference\nphysics: {temperature: .inf}\n",
                "job.yaml:4:24: 'physics.temperature'"},
        bad_job{"temperature_with_kcal",
                "input: {pqr: ok.pqr}\nstrategy: reference\nphysics: {units: kcal_per_mol_e, temperature: 310}\n",
                "job.yaml:4:34: 'physics.temperature' applies only to units: kT_per_e"},
        bad_job{"bad_units", "input: {pqr: ok.pqr}\nstrategy: reference\nphysics: {units: volts}\n",
                "job.yaml:4:18: 'physics.units' = 'volts' is not one of"},
        bad_job{"unknown_strategy", "input: {pqr: ok.pqr}\nstrategy: nope\n", "job.yaml:3:1: strategy: unknown"},
        bad_job{"auto_with_strategy_params", "input: {pqr: ok.pqr}\nstrategy_params: {coarsening: 4}\n",
                "job.yaml:3:18: 'strategy_params' needs a named strategy; strategy: auto chooses"},
        bad_job{"auto_named_with_strategy_params", "input: {pqr: ok.pqr}\nstrategy: auto\nstrategy_params: {a: 1}\n",
                "job.yaml:4:18: 'strategy_params' needs a named strategy"},
        bad_job{"two_inputs", "input: {pqr: ok.pqr, water_box: {size: [5, 5, 5]}}\nstrategy: reference\n",
                "exactly one of: pqr, random, water_box (2 given)"},
        bad_job{"missing_pqr", "input: {pqr: none.pqr}\nstrategy: reference\n", "'input.pqr': cannot open"},
        bad_job{"bad_pqr_line", "input: {pqr: bad.pqr}\nstrategy: reference\n", "job.yaml:2:9: input.pqr: "},
        bad_job{"bad_pqr_line_names_its_line", "input: {pqr: bad.pqr}\nstrategy: reference\n",
                "bad.pqr:2: field 'z' is not a number: 'zero'"},
        bad_job{"random_without_count", "input: {random: {seed: 1}}\nstrategy: reference\n",
                "missing required key 'input.random.atoms'"},
        bad_job{"padding_with_dims",
                "input: {pqr: ok.pqr}\nlattice: {dims: [2, 2, 2], padding: 3}\nstrategy: reference\n",
                "job.yaml:3:28: 'lattice.padding' applies only"},
        bad_job{"plane_outside", "input: {pqr: ok.pqr}\nlattice: {dims: [4, 4, 4], plane_z: 9}\nstrategy: reference\n",
                "job.yaml:3:28: plane_z = 9"},
        bad_job{"negative_permittivity", "input: {pqr: ok.pqr}\nstrategy: reference\nphysics: {permittivity: -1}\n",
                "job.yaml:4:25: 'physics.permittivity' = -1 is out of range"},
        bad_job{"output_folder_missing", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: /no/such/dir/v.dx}\n",
                "job.yaml:4:10: output folder '/no/such/dir' does not exist"},
        bad_job{"same_output_twice", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: a.dx, summary: a.dx}\n",
                "job.yaml:4:20: 'output.summary' would overwrite another output 'a.dx' (output.dx)"},
        bad_job{"output_is_the_input", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: ok.pqr}\n",
                "job.yaml:4:10: 'output.dx' would overwrite an input"},
        bad_job{"mrc_is_the_input", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {mrc: ok.pqr}\n",
                "job.yaml:4:10: 'output.mrc' would overwrite an input"},
        bad_job{"mrc_and_dx_same", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: a.map, mrc: a.map}\n",
                "job.yaml:4:21: 'output.mrc' would overwrite another output 'a.map' (output.dx)"},
        bad_job{"mrc_is_a_folder", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {mrc: .}\n",
                "'output.mrc': '.' is a folder"},
        bad_job{"input_named_after_output", "output: {dx: ok.pqr}\ninput: {pqr: ok.pqr}\nstrategy: reference\n",
                "job.yaml:2:10: 'output.dx' would overwrite an input"},
        bad_job{"output_is_the_job_file", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {summary: job.yaml}\n",
                "'output.summary' would overwrite the job file"},
        bad_job{"output_is_a_folder", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: .}\n",
                "'output.dx': '.' is a folder"},
        bad_job{"output_under_proc", "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: /proc/self/x.dx}\n",
                "is under /proc"},
        bad_job{"output_with_control_character",
                "input: {pqr: ok.pqr}\nstrategy: reference\noutput: {dx: \"a\\0b.dx\"}\n",
                "'output.dx' contains a control character"},
        bad_job{"duplicate_key", "input: {pqr: ok.pqr}\nstrategy: reference\nstrategy: gather\n",
                "job.yaml:4:1: duplicate key 'strategy' (first at line 3)"},
        bad_job{"second_document", "input: {pqr: ok.pqr}\nstrategy: reference\n---\njob: potential\n",
                "job.yaml:5:1: a second YAML document"},
        bad_job{"misspelt_required_key", "inputs: {pqr: ok.pqr}\nstrategy: reference\n",
                "job.yaml:2:1: unknown key 'inputs': did you mean 'input' (required)?"},
        // `strategy` has a default (auto), so a misspelt one is an unknown key, not a silent auto.
        bad_job{"misspelt_strategy", "input: {pqr: ok.pqr}\nstratgy: reference\n",
                "job.yaml:3:1: unknown key 'stratgy': did you mean 'strategy'? valid keys: input, job,"},
        bad_job{"verification_mode", "input: {pqr: ok.pqr}\nstrategy: reference\nverification: {mode: most}\n",
                "'verification.mode' = 'most' is not one of"},
        bad_job{"zero_repeats", "input: {pqr: ok.pqr}\nstrategy: reference\ntiming: {repeats: 0}\n",
                "'timing.repeats' = 0 is out of range"},
        bad_job{"lattice_not_a_map", "input: {pqr: ok.pqr}\nstrategy: reference\nlattice: 0.5\n",
                "job.yaml:4:10: 'lattice' must be a map"},
        bad_job{"lattice_points_past_2_64",
                "input: {pqr: far.pqr}\nlattice: {spacing: 0.125, padding: 0}\nstrategy: gather\n",
                "job.yaml:3:10: 'lattice' (spacing, padding around the atoms): the lattice has 2097152 x 2097152 x "
                "4194304 = 1.845e+19 points; at most 2147483647"},
        bad_job{"lattice_dims_product",
                "input: {pqr: ok.pqr}\nlattice: {dims: [1000000, 1000000, 3000]}\nstrategy: gather\n",
                "job.yaml:3:11: 'lattice.dims': the lattice has 1000000 x 1000000 x 3000 = 3e+15 points"},
        bad_job{"lattice_extent",
                "input: {pqr: ok.pqr}\nlattice: {dims: [1000000, 1, 1], spacing: 2}\nstrategy: gather\n",
                "'lattice.dims': the lattice spans 2e+06 A along x (1000000 points x 2 A); at most 1e+06 A per axis"},
        bad_job{"lattice_around_too_wide",
                "input: {pqr: wide.pqr}\nlattice: {spacing: 1, padding: 1}\nstrategy: gather\n",
                "job.yaml:3:10: 'lattice' (spacing, padding around the atoms): the lattice around the atoms spans "
                "1.2e+06 A along y"}),
    [](const auto& p) { return std::string(p.param.name); });

// CUDA-only strategies are known in every build: without CUDA, asking for one is an input error naming the build
// that has it (exit 2, nothing written); the old name of the hybrid kernel is unknown.
TEST(potential_job, a_cuda_only_strategy_names_the_build_it_needs) {
#if defined(KOKKOS_ENABLE_CUDA)
  GTEST_SKIP() << "this build runs the CUDA strategies";
#else
  for (const char* name : {"gather_constmem_cuda", "gather_hybrid_rsqrt_cuda"}) {
    temp_dir t;
    const auto job = t.write("job.yaml", std::string("job: potential\ninput: {random: {atoms: 10}}\nstrategy: ") +
                                             name + "\noutput: {dx: " + t.file("v.dx") + "}\n");
    const auto msg = error_of<ppl::input_error>([&] { ppl::load_job(job, {}); });
    EXPECT_NE(msg.find("job.yaml:3:1: strategy: potential strategy '" + std::string(name) +
                       "' needs a CUDA build (this build: OpenMP, Serial)"),
              std::string::npos)
        << msg;
    EXPECT_FALSE(std::filesystem::exists(t.file("v.dx")));
  }
  temp_dir t;
  const auto old = t.write("job.yaml", "job: potential\ninput: {random: {atoms: 10}}\nstrategy: gather_hybrid_rsqrt\n");
  EXPECT_NE(error_of<ppl::input_error>([&] { ppl::load_job(old, {}); }).find("unknown potential strategy"),
            std::string::npos);
#endif
}
