// OpenDX and raw float32 output: the exact APBS layout, round trips through our reader and through a real reader
// (Debian's python3-griddataformats), atomic writes.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ppl/core/error.hpp"
#include "ppl/io/opendx.hpp"
#include "ppl/io/raw_grid.hpp"
#include "support/ppl_test.hpp"

using ppl_test::error_of;
using ppl_test::run_command;
using ppl_test::temp_dir;

namespace {

// A grid with odd sizes (no dimension a multiple of 3) and values that tell their index apart.
struct sample_grid {
  ppl::grid_geometry g;
  std::vector<float> v;
  sample_grid() {
    g.origin = {-1.5, 0.25, 10.0};
    g.delta = {0.5, 0.5, 0.5};
    g.dims = {5, 4, 7};
    v.resize(g.size());
    for (int k = 0; k < 7; ++k)
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 5; ++i)
          v[(std::size_t(k) * 4 + j) * 5 + i] = float(-1.25e-3 * (100 * i + 10 * j + k) + 0.5);
  }
  float at(int i, int j, int k) const { return v[(std::size_t(k) * 4 + j) * 5 + i]; }
};

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST(opendx, apbs_layout_z_fastest_six_digits) {
  temp_dir t;
  sample_grid s;
  const auto path = t.file("g.dx");
  ppl::write_opendx(path, s.g, s.v.data(), {"a comment"});
  const auto l = lines_of(path);
  ASSERT_GE(l.size(), 8u);
  EXPECT_EQ(l[0], "# a comment");
  EXPECT_EQ(l[1], "object 1 class gridpositions counts 5 4 7");
  EXPECT_EQ(l[2], "origin -1.500000e+00 2.500000e-01 1.000000e+01");
  EXPECT_EQ(l[3], "delta 5.000000e-01 0.000000e+00 0.000000e+00");
  EXPECT_EQ(l[4], "delta 0.000000e+00 5.000000e-01 0.000000e+00");
  EXPECT_EQ(l[5], "delta 0.000000e+00 0.000000e+00 5.000000e-01");
  EXPECT_EQ(l[6], "object 2 class gridconnections counts 5 4 7");
  EXPECT_EQ(l[7], "object 3 class array type double rank 0 items 140 data follows");
  // z fastest: the first line holds (0,0,0), (0,0,1), (0,0,2).
  char expect[128];
  std::snprintf(expect, sizeof expect, "%12.6e %12.6e %12.6e", double(s.at(0, 0, 0)), double(s.at(0, 0, 1)),
                double(s.at(0, 0, 2)));
  EXPECT_EQ(l[8], expect);
  // 140 values = 46 full lines + one line of 2.
  ASSERT_EQ(l.size(), 8u + 47u + 5u);
  std::istringstream last(l[8 + 46]);
  int count = 0;
  for (std::string w; last >> w;) ++count;
  EXPECT_EQ(count, 2);
  EXPECT_EQ(l[8 + 47], "attribute \"dep\" string \"positions\"");
  EXPECT_EQ(l[8 + 48], "object \"regular positions regular connections\" class field");
  EXPECT_EQ(l[8 + 49], "component \"positions\" value 1");
  EXPECT_EQ(l[8 + 50], "component \"connections\" value 2");
  EXPECT_EQ(l[8 + 51], "component \"data\" value 3");
}

TEST(opendx, round_trip_through_our_reader) {
  temp_dir t;
  sample_grid s;
  const auto path = t.file("g.dx");
  ppl::write_opendx(path, s.g, s.v.data());
  const auto r = ppl::read_opendx(path);
  EXPECT_EQ(r.geometry.dims, s.g.dims);
  for (int d = 0; d < 3; ++d) {
    EXPECT_DOUBLE_EQ(r.geometry.origin[d], s.g.origin[d]);
    EXPECT_DOUBLE_EQ(r.geometry.delta[d], s.g.delta[d]);
  }
  ASSERT_EQ(r.values.size(), s.v.size());
  for (std::size_t n = 0; n < s.v.size(); ++n)  // 6 significant digits: relative 5e-7 plus the float's own
    ASSERT_NEAR(r.values[n], s.v[n], 6e-7 * std::abs(s.v[n])) << n;
}

// gridData reads both the plain file and the gzip-compressed one (through Python's gzip).
class opendx_griddata : public ::testing::TestWithParam<const char*> {};

TEST_P(opendx_griddata, round_trip_through_griddataformats) {
  int status = 0;
  run_command("/usr/bin/python3 -c 'import gridData' 2>/dev/null", status);
  if (status != 0) GTEST_SKIP() << "/usr/bin/python3 cannot import gridData (Debian python3-griddataformats)";
  temp_dir t;
  sample_grid s;
  const auto path = t.file(GetParam());
  ppl::write_opendx(path, s.g, s.v.data(), {"checked by gridDataFormats"});
  const std::string script =
      "import json, sys\n"
      "from gridData import Grid\n"
      "g = Grid(sys.argv[1])\n"
      "pts = [(0,0,0), (4,3,6), (1,2,3), (4,0,0), (0,3,0), (0,0,6), (2,1,5)]\n"
      "print(json.dumps({'shape': list(g.grid.shape), 'origin': [float(x) for x in g.origin],\n"
      "  'delta': [float(x) for x in g.delta], 'values': [float(g.grid[p]) for p in pts],\n"
      "  'sum': float(g.grid.sum())}))\n";
  const auto script_path = t.write("check.py", script);
  const auto out = run_command("/usr/bin/python3 " + script_path + " " + path, status);
  ASSERT_EQ(status, 0) << out;
  const auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["shape"], (std::vector<int>{5, 4, 7}));
  for (int d = 0; d < 3; ++d) {
    EXPECT_DOUBLE_EQ(j["origin"][d].get<double>(), s.g.origin[d]);
    EXPECT_DOUBLE_EQ(j["delta"][d].get<double>(), s.g.delta[d]);
  }
  const int pts[7][3] = {{0, 0, 0}, {4, 3, 6}, {1, 2, 3}, {4, 0, 0}, {0, 3, 0}, {0, 0, 6}, {2, 1, 5}};
  for (int p = 0; p < 7; ++p)
    EXPECT_NEAR(j["values"][p].get<double>(), s.at(pts[p][0], pts[p][1], pts[p][2]),
                6e-7 * std::abs(s.at(pts[p][0], pts[p][1], pts[p][2])))
        << "point " << p;
  double sum = 0;
  for (float v : s.v) sum += v;
  EXPECT_NEAR(j["sum"].get<double>(), sum, 1e-6 * std::abs(sum) + 1e-9);
}

INSTANTIATE_TEST_SUITE_P(plain_and_gz, opendx_griddata, ::testing::Values("g.dx", "g.dx.gz"));

// A name ending in .gz: the same bytes as the plain file, gzip-compressed (decompressed here by the test support's
// own zlib reader, not ppl's), for OpenDX and raw; the raw sidecar stays plain and says so.
TEST(opendx, gz_name_writes_the_plain_bytes_gzip_compressed) {
  temp_dir t;
  sample_grid s;
  const auto plain = t.file("g.dx"), packed = t.file("g.dx.gz");
  ppl::write_opendx(plain, s.g, s.v.data(), {"c"});
  ppl::write_opendx(packed, s.g, s.v.data(), {"c"});
  std::ifstream in(packed, std::ios::binary);
  char magic[2] = {};
  in.read(magic, 2);
  EXPECT_EQ((unsigned char)magic[0], 0x1f);
  EXPECT_EQ((unsigned char)magic[1], 0x8b);
  EXPECT_LT(std::filesystem::file_size(packed), std::filesystem::file_size(plain) / 2);
  EXPECT_EQ(ppl_test::read_file(packed), ppl_test::read_file(plain));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(t.path), {}), 2);
}

TEST(raw_grid, gz_name_writes_the_plain_bytes_gzip_compressed_and_a_plain_sidecar) {
  temp_dir t;
  sample_grid s;
  const auto plain = t.file("g.raw"), packed = t.file("g.raw.gz");
  ppl::write_raw_float32(plain, s.g, s.v.data(), {"kT/e", "sample"});
  ppl::write_raw_float32(packed, s.g, s.v.data(), {"kT/e", "sample"});
  EXPECT_NE(ppl_test::read_file(packed).size(), 0u);
  EXPECT_EQ(ppl_test::read_file(packed), ppl_test::read_file(plain));
  std::ifstream in(packed, std::ios::binary);
  EXPECT_EQ(in.get(), 0x1f);
  const auto side = ppl_test::read_json(ppl::raw_sidecar_path(packed));
  EXPECT_EQ(side["compression"], "gzip");
  EXPECT_FALSE(ppl_test::read_json(ppl::raw_sidecar_path(plain)).contains("compression"));
}

TEST(opendx, reader_errors_name_file_and_line) {
  temp_dir t;
  const auto truncated = t.write("t.dx",
                                 "object 1 class gridpositions counts 2 2 2\norigin 0 0 0\ndelta 1 0 0\ndelta 0 1 0\n"
                                 "delta 0 0 1\nobject 2 class gridconnections counts 2 2 2\n"
                                 "object 3 class array type double rank 0 items 8 data follows\n1 2 3\n4 5\n");
  auto msg = error_of<ppl::input_error>([&] { ppl::read_opendx(truncated); });
  EXPECT_NE(msg.find(truncated + ":9: file ends after 5 of 8 values"), std::string::npos) << msg;
  const auto bad = t.write("b.dx", "object 1 class gridpositions counts 1 1 1\norigin 0 zero 0\n");
  msg = error_of<ppl::input_error>([&] { ppl::read_opendx(bad); });
  EXPECT_NE(msg.find(bad + ":2: not a finite number: 'zero'"), std::string::npos) << msg;
  EXPECT_THROW(ppl::read_opendx(t.file("missing.dx")), ppl::input_error);
}

TEST(opendx, failed_write_leaves_no_file) {
  temp_dir t;
  sample_grid s;
  s.v[37] = std::numeric_limits<float>::quiet_NaN();  // the writer refuses it half-way through
  const auto path = t.file("nan.dx");
  const auto msg = error_of<ppl::error>([&] { ppl::write_opendx(path, s.g, s.v.data()); });
  EXPECT_NE(msg.find("non-finite value"), std::string::npos) << msg;
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(t.path)) << "a temporary file was left behind";
  // A folder that does not exist: an error, nothing created.
  EXPECT_THROW(ppl::write_opendx(t.file("no/such/dir/g.dx"), s.g, s.v.data()), ppl::error);
  EXPECT_TRUE(std::filesystem::is_empty(t.path));
}

TEST(raw_grid, float32_little_endian_x_fastest_with_sidecar) {
  temp_dir t;
  sample_grid s;
  const auto path = t.file("g.f32");
  ppl::write_raw_float32(path, s.g, s.v.data(), {"kT/e", "test grid"});
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(bytes.size(), 4 * s.v.size());
  for (std::size_t n = 0; n < s.v.size(); ++n) {
    std::uint32_t u = 0;
    for (int b = 0; b < 4; ++b) u |= std::uint32_t(bytes[4 * n + b]) << (8 * b);
    float f;
    std::memcpy(&f, &u, 4);
    ASSERT_EQ(f, s.v[n]) << n;
  }
  ASSERT_EQ(ppl::raw_sidecar_path(path), path + ".json");
  std::ifstream js(path + ".json");
  const auto j = nlohmann::json::parse(js);
  EXPECT_EQ(j["dims"], (std::vector<int>{5, 4, 7}));
  EXPECT_EQ(j["origin"], (std::vector<double>{-1.5, 0.25, 10.0}));
  EXPECT_EQ(j["spacing"], (std::vector<double>{0.5, 0.5, 0.5}));
  EXPECT_EQ(j["dtype"], "float32");
  EXPECT_EQ(j["byte_order"], "little");
  EXPECT_EQ(j["units"], "kT/e");
  EXPECT_EQ(j["points"], 140);
  const auto mm = std::minmax_element(s.v.begin(), s.v.end());
  EXPECT_EQ(j["min"].get<double>(), double(*mm.first));
  EXPECT_EQ(j["max"].get<double>(), double(*mm.second));
  EXPECT_NE(j["layout"].get<std::string>().find("x fastest"), std::string::npos);
}
