// The job registry: `job: <name>` in a YAML file. Adding a job kind touches its file and one line here.
#include "ppl/jobs/job_kinds.hpp"

namespace ppl {

const job_registry& job_kinds() {
  static const job_registry r = [] {
    job_registry reg("job kind");
    reg.add({"info", "print versions, backends and the device (optionally as JSON)", "all", make_info_job});
    reg.add({"potential", "electrostatic potential map of a molecule (PQR) or a synthetic system -> OpenDX", "all",
             make_potential_job});
    reg.add({"ions", "counter-ions and salt placed at the extrema of a potential map (cionize) -> PQR, PDB, OpenDX",
             "all", make_ions_job});
    reg.add({"solve", "Krylov solve of a sparse system (Matrix Market or generated) on an SpMV strategy", "all",
             make_solve_job});
    reg.add({"sweep", "a potential or solve job at every point of a parameter space -> JSON-lines records + CSV", "all",
             make_sweep_job});
    return reg;
  }();
  return r;
}

}  // namespace ppl
