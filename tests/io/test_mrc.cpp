// MRC2014 output: every header word of a small non-cubic map read back from the bytes, the data as written, the
// labels' rules, refusals that leave no file, and a real reader (Debian's python3-mrcfile: mrcfile.validate and the
// voxel size, origin and data; gridData.Grid too when it is there) that also rejects copies with a corrupted field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "ppl/core/error.hpp"
#include "ppl/io/mrc.hpp"
#include "support/ppl_test.hpp"

using ppl_test::error_of;
using ppl_test::run_command;
using ppl_test::temp_dir;

namespace {

// 5 x 3 x 4: no two dimensions equal, so a swapped axis shows; an origin that is no multiple of the 0.375 A spacing
// (nxstart could not express it); values that tell their index apart, both signs.
struct sample_map {
  ppl::grid_geometry g;
  std::vector<float> v;
  sample_map() {
    g.origin = {-1.8125, 0.4375, 10.0625};
    g.delta = {0.375, 0.375, 0.375};
    g.dims = {5, 3, 4};
    v.resize(g.size());
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) v[index(i, j, k)] = float(0.25 * i - 1.5 * j + 10.0 * k - 7.0 + 1e-3 * (i * j));
  }
  static std::size_t index(int i, int j, int k) { return (std::size_t(k) * 3 + std::size_t(j)) * 5 + std::size_t(i); }
};

struct mrc_bytes {
  std::vector<unsigned char> b;
  explicit mrc_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    b.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::uint32_t u32_at(std::size_t offset) const {
    std::uint32_t u = 0;
    for (int k = 0; k < 4; ++k) u |= std::uint32_t(b.at(offset + std::size_t(k))) << (8 * k);
    return u;
  }
  std::int32_t i32(int word) const { return std::int32_t(u32_at(std::size_t(word - 1) * 4)); }
  float f32_at(std::size_t offset) const {
    const std::uint32_t u = u32_at(offset);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  float f32(int word) const { return f32_at(std::size_t(word - 1) * 4); }
  std::string text(std::size_t offset, std::size_t n) const {
    return std::string(reinterpret_cast<const char*>(b.data()) + offset, n);
  }
  std::string label(int n) const { return text(224 + std::size_t(n) * 80, 80); }
};

std::string padded(std::string s) {
  s.resize(80, ' ');
  return s;
}

}  // namespace

TEST(mrc, every_header_word_and_the_data_x_fastest) {
  temp_dir t;
  sample_map s;
  const auto path = t.file("m.mrc");
  ppl::write_mrc(path, s.g, s.v.data(), {"ppl test: electrostatic potential (kT/e)", "second label"});
  const mrc_bytes m(path);
  ASSERT_EQ(m.b.size(), 1024u + 4u * 60u);
  EXPECT_EQ(m.i32(1), 5);  // nx ny nz
  EXPECT_EQ(m.i32(2), 3);
  EXPECT_EQ(m.i32(3), 4);
  EXPECT_EQ(m.i32(4), 2);  // mode: float32
  for (int w = 5; w <= 7; ++w) EXPECT_EQ(m.i32(w), 0) << "nxstart.. word " << w;
  EXPECT_EQ(m.i32(8), 5);  // mx my mz
  EXPECT_EQ(m.i32(9), 3);
  EXPECT_EQ(m.i32(10), 4);
  EXPECT_EQ(m.f32(11), 5 * 0.375f);  // cella: dims * spacing, exact in binary
  EXPECT_EQ(m.f32(12), 3 * 0.375f);
  EXPECT_EQ(m.f32(13), 4 * 0.375f);
  for (int w = 14; w <= 16; ++w) EXPECT_EQ(m.f32(w), 90.0f) << "cellb word " << w;
  EXPECT_EQ(m.i32(17), 1);  // mapc mapr maps: x fastest
  EXPECT_EQ(m.i32(18), 2);
  EXPECT_EQ(m.i32(19), 3);
  double lo = 1e300, hi = -1e300, sum = 0;
  for (float v : s.v) lo = std::min(lo, double(v)), hi = std::max(hi, double(v)), sum += v;
  const double mean = sum / double(s.v.size());
  double dev2 = 0;
  for (float v : s.v) dev2 += (v - mean) * (v - mean);
  EXPECT_EQ(m.f32(20), float(lo));
  EXPECT_EQ(m.f32(21), float(hi));
  EXPECT_FLOAT_EQ(m.f32(22), float(mean));
  EXPECT_EQ(m.i32(23), 1);  // ispg: one volume
  EXPECT_EQ(m.i32(24), 0);  // nsymbt: no extended header
  EXPECT_EQ(m.i32(25), 0);
  EXPECT_EQ(m.i32(26), 0);
  EXPECT_EQ(m.text(26 * 4, 4), std::string(4, '\0'));  // exttyp: nothing to describe
  EXPECT_EQ(m.i32(28), 20140);                         // nversion
  for (int w = 29; w <= 49; ++w) EXPECT_EQ(m.i32(w), 0) << "extra word " << w;
  EXPECT_EQ(m.f32(50), -1.8125f);  // origin, A: not a whole number of voxels
  EXPECT_EQ(m.f32(51), 0.4375f);
  EXPECT_EQ(m.f32(52), 10.0625f);
  EXPECT_EQ(m.text(52 * 4, 4), "MAP ");
  EXPECT_EQ(m.text(53 * 4, 4), std::string("\x44\x44\x00\x00", 4));
  EXPECT_FLOAT_EQ(m.f32(55), float(std::sqrt(dev2 / double(s.v.size()))));  // rms deviation from the mean
  EXPECT_EQ(m.i32(56), 2);                                                  // nlabl
  EXPECT_EQ(m.label(0), padded("ppl test: electrostatic potential (kT/e)"));
  EXPECT_EQ(m.label(1), padded("second label"));
  for (int n = 2; n < 10; ++n) EXPECT_EQ(m.label(n), std::string(80, '\0')) << "label " << n;
  // The data: float32 little-endian, x fastest, exactly the values handed over.
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 5; ++i) {
        const std::size_t n = sample_map::index(i, j, k);
        ASSERT_EQ(m.f32_at(1024 + 4 * n), s.v[n]) << i << " " << j << " " << k;
      }
}

TEST(mrc, labels_at_most_ten_of_80_printable_characters_blank_ones_dropped) {
  temp_dir t;
  sample_map s;
  std::vector<std::string> labels = {"", "first", "   ", std::string(100, 'x'), "caf\xc3\xa9\ttab"};
  for (int n = 0; n < 12; ++n) labels.push_back("label " + std::to_string(n));
  const auto path = t.file("m.mrc");
  ppl::write_mrc(path, s.g, s.v.data(), labels);
  const mrc_bytes m(path);
  EXPECT_EQ(m.i32(56), 10);
  EXPECT_EQ(m.label(0), padded("first"));
  EXPECT_EQ(m.label(1), std::string(80, 'x'));
  EXPECT_EQ(m.label(2), padded("caf???tab"));
  for (int n = 3; n < 10; ++n) EXPECT_EQ(m.label(n), padded("label " + std::to_string(n - 3)));
  // No labels at all: nlabl 0, the label area empty.
  ppl::write_mrc(path, s.g, s.v.data());
  const mrc_bytes none(path);
  EXPECT_EQ(none.i32(56), 0);
  EXPECT_EQ(none.text(224, 800), std::string(800, '\0'));
}

TEST(mrc, refusals_leave_no_file) {
  temp_dir t;
  sample_map s;
  const auto path = t.file("m.mrc");
  auto nan = s;
  nan.v[sample_map::index(3, 1, 2)] = std::numeric_limits<float>::quiet_NaN();
  auto msg = error_of<ppl::error>([&] { ppl::write_mrc(path, nan.g, nan.v.data()); });
  EXPECT_NE(msg.find("non-finite value at lattice point (3, 1, 2)"), std::string::npos) << msg;
  auto far = s;
  far.g.origin[1] = 1e300;  // a float32 cannot hold it
  msg = error_of<ppl::error>([&] { ppl::write_mrc(path, far.g, far.v.data()); });
  EXPECT_NE(msg.find("origin"), std::string::npos) << msg;
  auto flat = s;
  flat.g.delta[2] = 0.0;
  EXPECT_THROW(ppl::write_mrc(path, flat.g, flat.v.data()), ppl::error);
  EXPECT_TRUE(std::filesystem::is_empty(t.path)) << "a file or a temporary file was left behind";
  EXPECT_THROW(ppl::write_mrc(t.file("no/such/dir/m.mrc"), s.g, s.v.data()), ppl::error);
  EXPECT_TRUE(std::filesystem::is_empty(t.path));
}

// The real reader. The script prints what mrcfile (strict: permissive=False, warnings are errors) makes of a file:
// validate()'s verdict and messages, voxel size, origin, shape and data ([z][y][x]), and gridData's view.
class mrc_mrcfile : public ::testing::Test {
 protected:
  void SetUp() override {
    int status = 0;
    run_command("/usr/bin/python3 -c 'import mrcfile' 2>/dev/null", status);
    if (status != 0) GTEST_SKIP() << "/usr/bin/python3 cannot import mrcfile (Debian python3-mrcfile)";
    script_ = t_.write("check.py",
                       "import io, json, sys, warnings\n"
                       "warnings.simplefilter('error')\n"
                       "import mrcfile\n"
                       "path = sys.argv[1]\n"
                       "log = io.StringIO()\n"
                       "out = {'valid': bool(mrcfile.validate(path, print_file=log))}\n"
                       "out['log'] = log.getvalue()\n"
                       "with mrcfile.open(path, permissive=False) as m:\n"
                       "  out['voxel_size'] = [float(m.voxel_size[a]) for a in 'xyz']\n"
                       "  out['origin'] = [float(m.header.origin[a]) for a in 'xyz']\n"
                       "  out['shape'] = list(m.data.shape)\n"
                       "  out['dtype'] = str(m.data.dtype)\n"
                       "  out['data'] = m.data.astype(float).tolist()\n"
                       "  out['labels'] = [l.decode('ascii').rstrip() for l in m.header.label[:int(m.header.nlabl)]]\n"
                       "try:\n"
                       "  from gridData import Grid\n"
                       "except ImportError:\n"
                       "  Grid = None\n"
                       "if Grid is not None and not path.endswith('.gz'):\n"
                       "  g = Grid(path)\n"
                       "  out['griddata'] = {'shape': list(g.grid.shape), 'origin': [float(x) for x in g.origin],\n"
                       "    'delta': [float(x) for x in g.delta], 'at_4_2_3': float(g.grid[4, 2, 3])}\n"
                       "print(json.dumps(out))\n");
  }
  nlohmann::json read(const std::string& path) {
    int status = 0;
    const auto out = run_command("/usr/bin/python3 " + script_ + " " + path + " 2>&1", status);
    EXPECT_EQ(status, 0) << out;
    return nlohmann::json::parse(out);
  }
  // Overwrites 4 bytes at word `word` (1-based) of a copy of `path`.
  std::string corrupted_copy(const std::string& path, const std::string& name, int word, std::uint32_t value) {
    const auto copy = t_.file(name);
    std::filesystem::copy_file(path, copy);
    std::fstream f(copy, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(word - 1) * 4);
    const unsigned char b[4] = {(unsigned char)value, (unsigned char)(value >> 8), (unsigned char)(value >> 16),
                                (unsigned char)(value >> 24)};
    f.write(reinterpret_cast<const char*>(b), 4);
    return copy;
  }
  temp_dir t_;
  std::string script_;
};

TEST_F(mrc_mrcfile, validates_and_reads_back_voxel_size_origin_and_data) {
  sample_map s;
  const auto path = t_.file("m.mrc");
  ppl::write_mrc(path, s.g, s.v.data(), {"ppl test: electrostatic potential (kT/e)", "atoms: 3"});
  const auto j = read(path);
  EXPECT_TRUE(j["valid"].get<bool>()) << j["log"];
  EXPECT_EQ(j["voxel_size"], (std::vector<double>{0.375, 0.375, 0.375}));
  EXPECT_EQ(j["origin"], (std::vector<double>{-1.8125, 0.4375, 10.0625}));
  EXPECT_EQ(j["shape"], (std::vector<int>{4, 3, 5}));  // [z][y][x]
  EXPECT_EQ(j["dtype"], "float32");
  EXPECT_EQ(j["labels"], (std::vector<std::string>{"ppl test: electrostatic potential (kT/e)", "atoms: 3"}));
  for (int k = 0; k < 4; ++k)
    for (int jj = 0; jj < 3; ++jj)
      for (int i = 0; i < 5; ++i)
        ASSERT_EQ(j["data"][k][jj][i].get<double>(), double(s.v[sample_map::index(i, jj, k)]))
            << i << " " << jj << " " << k;
  if (j.contains("griddata")) {  // GridDataFormats through mrcfile: [x][y][z], origin and spacing as written
    EXPECT_EQ(j["griddata"]["shape"], (std::vector<int>{5, 3, 4}));
    EXPECT_EQ(j["griddata"]["origin"], (std::vector<double>{-1.8125, 0.4375, 10.0625}));
    EXPECT_EQ(j["griddata"]["delta"], (std::vector<double>{0.375, 0.375, 0.375}));
    EXPECT_EQ(j["griddata"]["at_4_2_3"].get<double>(), double(s.v[sample_map::index(4, 2, 3)]));
  }
}

// map.mrc.gz: the bytes of map.mrc gzip-compressed (the test support's own zlib reader), which mrcfile opens.
TEST(mrc, gz_name_writes_the_plain_bytes_gzip_compressed) {
  temp_dir t;
  sample_map s;
  const auto plain = t.file("m.mrc"), packed = t.file("m.mrc.gz");
  ppl::write_mrc(plain, s.g, s.v.data(), {"l"});
  ppl::write_mrc(packed, s.g, s.v.data(), {"l"});
  std::ifstream in(packed, std::ios::binary);
  EXPECT_EQ(in.get(), 0x1f);
  EXPECT_EQ(in.get(), 0x8b);
  EXPECT_EQ(ppl_test::read_file(packed), ppl_test::read_file(plain));
}

TEST_F(mrc_mrcfile, reads_a_gzip_compressed_map) {
  sample_map s;
  const auto path = t_.file("m.mrc.gz");
  ppl::write_mrc(path, s.g, s.v.data(), {"ppl test"});
  const auto j = read(path);
  EXPECT_TRUE(j["valid"].get<bool>()) << j["log"];
  EXPECT_EQ(j["shape"], (std::vector<int>{4, 3, 5}));
  EXPECT_EQ(j["data"][3][2][4].get<double>(), double(s.v[sample_map::index(4, 2, 3)]));
}

// The check above can fail: copies with one header field corrupted are rejected by validate() or read back wrong.
TEST_F(mrc_mrcfile, a_corrupted_field_is_caught) {
  sample_map s;
  const auto path = t_.file("m.mrc");
  ppl::write_mrc(path, s.g, s.v.data(), {"one label"});
  ASSERT_TRUE(read(path)["valid"].get<bool>());

  const auto nlabl = read(corrupted_copy(path, "nlabl.mrc", 56, 3));  // 3 labels claimed, 1 present
  EXPECT_FALSE(nlabl["valid"].get<bool>());
  EXPECT_NE(nlabl["log"].get<std::string>().find("nlabl"), std::string::npos) << nlabl["log"];

  float wrong_max = 1e4f;
  std::uint32_t u;
  std::memcpy(&u, &wrong_max, 4);
  const auto dmax = read(corrupted_copy(path, "dmax.mrc", 21, u));
  EXPECT_FALSE(dmax["valid"].get<bool>());
  EXPECT_NE(dmax["log"].get<std::string>().find("maximum"), std::string::npos) << dmax["log"];

  // A shifted origin is valid MRC, but the comparison with what was written catches it.
  float shifted = -1.8125f + 0.375f;
  std::memcpy(&u, &shifted, 4);
  const auto origin = read(corrupted_copy(path, "origin.mrc", 50, u));
  EXPECT_TRUE(origin["valid"].get<bool>());
  EXPECT_NE(origin["origin"], (std::vector<double>{-1.8125, 0.4375, 10.0625}));

  // A wrong version stamp.
  const auto version = read(corrupted_copy(path, "version.mrc", 28, 20130));
  EXPECT_FALSE(version["valid"].get<bool>());
}
