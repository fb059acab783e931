// Solute + ions as PQR and PDB (include/ppl/ions/structure_io.hpp).
#include "ppl/ions/structure_io.hpp"

#include <fmt/format.h>

#include <cctype>
#include <ostream>

#include "ppl/io/atomic_file.hpp"

namespace ppl {
namespace {

atom_label label_of(const atoms& a, std::size_t n) {
  if (n < a.labels.size()) return a.labels[n];
  return {"ATOM", "X", "UNK", "", "1"};
}

// The element of a solute atom from its name: its first letter after leading digits ("1HB" -> H). PQR files carry
// no element column; for proteins and nucleic acids the first letter is the element.
std::string element_of(const std::string& name) {
  for (char c : name)
    if (std::isalpha(static_cast<unsigned char>(c)))
      return std::string(1, char(std::toupper(static_cast<unsigned char>(c))));
  return "";
}

// PDB's atom-name column: four-letter names from column 13; shorter ones from column 14 unless the element has
// two letters (NA, CL, MG, CA: from column 13), the alignment readers use to tell calcium CA from C-alpha CA.
std::string pdb_name(const std::string& name, const std::string& element) {
  if (name.size() >= 4 || element.size() == 2) return fmt::format("{:<4.4}", name);
  return fmt::format(" {:<3.3}", name);
}

// A residue number for PDB's four columns (23-26): -999..9999 as they are, others modulo 10000 (10023 -> 23,
// -1000 -> 9000), as VMD and other writers wrap them; VMD, PyMOL and gemmi then read distinct numbers for
// neighbouring residues, where a cut to four digits ("1002" for 10023..10029) merged ten residues into one. The
// PQR output keeps the full number. `digits` is what the PQR reader accepted: an optional '-' and digits, of any
// length, so the arithmetic is on the last four digits.
std::string pdb_residue_number(const std::string& digits) {
  const bool negative = !digits.empty() && digits[0] == '-';
  const std::string d = digits.substr(negative ? 1 : 0);
  if (d.empty()) return digits;
  const int last4 = std::stoi(d.size() > 4 ? d.substr(d.size() - 4) : d);
  if (!negative) return std::to_string(last4);
  if (d.size() <= 3) return "-" + std::to_string(last4);
  return std::to_string((10000 - last4) % 10000);
}

std::string formal_charge(int q) {
  if (q == 0) return "  ";
  return fmt::format("{}{}", q > 0 ? q : -q, q > 0 ? '+' : '-');
}

}  // namespace

bool fits_pdb_columns(double v) {
  return v >= -999.999 && v <= 9999.999;
}

void write_pqr_with_ions(const std::string& path, const atoms& solute, const std::vector<placed_ion>& ions,
                         ion_convention convention, const std::vector<std::string>& remarks) {
  write_file_atomically(path, [&](std::ostream& o) {
    for (const auto& r : remarks) o << "REMARK   " << r << "\n";
    std::size_t serial = 0;
    for (std::size_t n = 0; n < solute.size(); ++n) {
      const auto l = label_of(solute, n);
      // Shortest round-trip values: the solute's charges and coordinates come back exactly as read.
      const std::string chain = l.chain.empty() ? "" : l.chain + " ";
      o << fmt::format("{} {} {} {} {}{} {} {} {} {} {}\n", l.record, ++serial, l.name, l.residue, chain, l.resseq,
                       solute.x[n], solute.y[n], solute.z[n], solute.q[n], solute.radius[n]);
    }
    int residue = 0;
    for (const auto& ion : ions) {
      const auto& name = ion.species->residue(convention);
      o << fmt::format("HETATM {} {} {} I {} {:.4f} {:.4f} {:.4f} {} {}\n", ++serial, name, name, ++residue, ion.x,
                       ion.y, ion.z, ion.species->charge, ion.species->radius);
    }
    o << "END\n";
  });
}

void write_pdb_with_ions(const std::string& path, const atoms& solute, const std::vector<placed_ion>& ions,
                         ion_convention convention, const std::vector<std::string>& remarks) {
  write_file_atomically(path, [&](std::ostream& o) {
    for (const auto& r : remarks) o << fmt::format("REMARK 999 {:.69}\n", r);
    std::size_t serial = 0;
    auto line = [&](const std::string& record, const std::string& name, const std::string& residue,
                    const std::string& chain, const std::string& resseq, double x, double y, double z,
                    const std::string& segment, const std::string& element, const std::string& charge) {
      const std::size_t s = ++serial % 100000;
      // resseq may carry an insertion code ("52A"): number in 23-26, code in 27.
      std::string number = resseq, icode = " ";
      if (!number.empty() && std::isalpha(static_cast<unsigned char>(number.back())))
        icode = number.substr(number.size() - 1), number.pop_back();
      number = pdb_residue_number(number);
      o << fmt::format(
          "{:<6.6}{:>5} {} {:<4.4}{:1.1}{:>4.4}{:1.1}   {:8.3f}{:8.3f}{:8.3f}{:6.2f}{:6.2f}      "
          "{:<4.4}{:>2.2}{:2.2}\n",
          record, s, pdb_name(name, element), residue, chain.empty() ? " " : chain, number, icode, x, y, z, 1.0, 0.0,
          segment, element, charge);
    };
    for (std::size_t n = 0; n < solute.size(); ++n) {
      const auto l = label_of(solute, n);
      line(l.record, l.name, l.residue, l.chain, l.resseq, solute.x[n], solute.y[n], solute.z[n], "",
           element_of(l.name), "  ");
    }
    if (solute.size() > 0) o << "TER\n";
    int residue = 0;
    for (const auto& ion : ions) {
      const auto& name = ion.species->residue(convention);
      line("HETATM", name, name, "I", std::to_string(++residue % 10000), ion.x, ion.y, ion.z, "ION",
           ion.species->element, formal_charge(ion.species->charge));
    }
    o << "END\n";
  });
}

}  // namespace ppl
