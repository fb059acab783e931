// ppl.strategies(): every family's registered entries and their declared parameters, as Python data.
#include "ppl/core/registry.hpp"

#include "bindings.hpp"
#include "ppl/potential/potential_strategy.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::python {
namespace {

const char* type_name(parameter_type t) {
  switch (t) {
    case parameter_type::integer:
      return "integer";
    case parameter_type::real:
      return "real";
    case parameter_type::choice:
      return "choice";
    default:
      return "integer3";
  }
}

template <class Registry>
py::list entries(const Registry& r) {
  py::list out;
  for (const auto& e : r.entries()) {
    py::dict d;
    d["name"] = e.name;
    d["description"] = e.description;
    d["backends"] = e.backends;
    d["available"] = e.available();
    d["needs"] = e.available() ? std::string() : requirement_text(e.needs);
    d["capabilities"] = e.capabilities;
    py::list params;
    for (const auto& s : e.parameters) {
      py::dict p;
      p["name"] = s.name;
      p["type"] = type_name(s.type);
      p["values"] = s.values_text();
      if (!s.allowed.empty()) p["allowed"] = s.allowed;
      if (s.type != parameter_type::choice) p["range"] = py::make_tuple(s.lo, s.hi);
      p["auto"] = s.has_auto;
      p["default"] = s.default_text;
      p["doc"] = s.doc;
      params.append(p);
    }
    d["parameters"] = params;
    out.append(d);
  }
  return out;
}

}  // namespace

void bind_registry(py::module_& m) {
  m.def(
      "strategies",
      [](const std::string& family) {
        py::dict all;
        all["potential"] = entries(potential_strategies());
        all["spmv"] = entries(spmv_strategies());
        all["solver"] = entries(solvers());
        all["preconditioner"] = entries(preconditioners());
        if (family.empty()) return py::object(all);
        if (!all.contains(family.c_str()))
          throw input_error("family: '" + family + "' is not one of potential, spmv, solver, preconditioner");
        return py::object(all[family.c_str()]);
      },
      py::arg("family") = "",
      "Every registered strategy of every family (or of one): name, description, backends, whether this build runs "
      "it, capabilities and declared parameters (name, type, values, default, meaning).");
}

}  // namespace ppl::python
