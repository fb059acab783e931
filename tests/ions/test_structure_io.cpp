// The PDB writer's residue numbers: four columns (23-26), numbers outside -999..9999 modulo 10000, the insertion
// code in column 27, every other column where it was; the PQR writer keeps the full number.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ppl/ions/structure_io.hpp"
#include "support/ppl_test.hpp"

namespace {

std::vector<std::string> atom_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("ATOM", 0) == 0 || l.rfind("HETATM", 0) == 0) out.push_back(l);
  return out;
}

TEST(structure_io, pdb_residue_numbers_above_9999_wrap_modulo_10000) {
  ppl_test::temp_dir t;
  ppl::atoms a;
  const std::vector<std::string> resseq{"1", "9999", "10000", "10023", "123456", "10023A", "-999", "-1000", "-10001"};
  const std::vector<std::string> expect{"   1", "9999", "   0", "  23", "3456", "  23", "-999", "9000", "9999"};
  for (std::size_t n = 0; n < resseq.size(); ++n) {
    a.push_back(1.0 + double(n), 2.0, 3.0, 0.5, 1.5);
    a.labels.push_back({"ATOM", "CA", "ALA", "B", resseq[n]});
  }
  const auto pdb = t.file("out.pdb"), pqr = t.file("out.pqr");
  ppl::write_pdb_with_ions(pdb, a, {}, ppl::ion_convention::charmm, {});
  ppl::write_pqr_with_ions(pqr, a, {}, ppl::ion_convention::charmm, {});
  const auto lines = atom_lines(ppl_test::read_file(pdb));
  ASSERT_EQ(lines.size(), resseq.size());
  for (std::size_t n = 0; n < lines.size(); ++n) {
    SCOPED_TRACE(resseq[n]);
    ASSERT_GE(lines[n].size(), 54u);
    EXPECT_EQ(lines[n].substr(17, 3), "ALA");
    EXPECT_EQ(lines[n].substr(21, 1), "B");
    EXPECT_EQ(lines[n].substr(22, 4), expect[n]);
    EXPECT_EQ(lines[n].substr(26, 1), resseq[n].back() == 'A' ? "A" : " ");
    EXPECT_EQ(lines[n].substr(30, 8), "   " + std::to_string(n + 1) + ".000");
  }
  const auto pqr_lines = atom_lines(ppl_test::read_file(pqr));
  ASSERT_EQ(pqr_lines.size(), resseq.size());
  for (std::size_t n = 0; n < pqr_lines.size(); ++n)
    EXPECT_NE(pqr_lines[n].find(" B " + resseq[n] + " "), std::string::npos) << pqr_lines[n];
}

}  // namespace
