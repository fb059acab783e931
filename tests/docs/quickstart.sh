#!/usr/bin/env bash
# docs/quickstart.md, run as written: its ```sh blocks are executed in order (with `ppl` this build's binary and
# its ```yaml block saved as the job file the text names), in a scratch folder that sees the repository's data/.
# Then the results are checked independently: pdb2pqr's PQR (atom count, net charge), the map read by
# GridDataFormats and compared at sampled points with a float64 Coulomb sum over the PQR in Python, and a PDB given
# as `input.pqr` refused with exit 2 and the pdb2pqr command.
#   quickstart.sh PPL REPOSITORY
set -euo pipefail
ppl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$2" && pwd)
doc=$repo/docs/quickstart.md
command -v pdb2pqr >/dev/null || { echo "SKIP: pdb2pqr not found (Debian package pdb2pqr; cmake/deps/bootstrap.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$ppl" "$work/bin/ppl"
ln -s "$repo/data" "$work/data"
cd "$work"
export PATH=$work/bin:$PATH OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
py=${PPL_PYTHON3:-/usr/bin/python3}  # Debian's, with numpy and GridDataFormats

# The blocks in document order: each ```sh block becomes a script, the ```yaml block the job file.
"$py" - "$doc" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```(\w+)\n(.*?)^```", text, re.S | re.M)
sh = [b for kind, b in blocks if kind == "sh"]
yaml = [b for kind, b in blocks if kind == "yaml"]
assert len(yaml) == 1 and len(sh) >= 2, "quickstart.md: expected one yaml block and at least two sh blocks"
open("ubq_map.yaml", "w").write(yaml[0])
open("steps.sh", "w").write("set -euxo pipefail\n" + "".join(sh))
PY
grep -q '`ubq_map.yaml`' "$doc" || { echo "quickstart.md no longer names ubq_map.yaml"; exit 1; }
bash steps.sh

"$py" - <<'PY'
import json, math, random
import numpy as np
import gridData

atoms = []
for line in open("1ubq.pqr"):
    if line.startswith(("ATOM", "HETATM")):
        t = line.split()
        atoms.append([float(v) for v in t[-5:]])
a = np.array(atoms)
assert len(a) == 1231, f"pdb2pqr gave {len(a)} atoms, expected 1231"
assert abs(a[:, 3].sum()) < 1e-3, f"net charge {a[:, 3].sum()}"

s = json.load(open("ubq_potential.json"))
g = gridData.Grid("ubq_potential.dx")
lo, hi = a[:, :3].min(0), a[:, :3].max(0)
expect = np.floor((hi - lo + 20.0) / 1.0 + 1e-9).astype(int) + 1
assert tuple(g.grid.shape) == tuple(expect), f"lattice {g.grid.shape}, expected {tuple(expect)}"
assert np.allclose(g.origin, lo - 10.0, atol=1e-4), f"origin {g.origin} vs {lo - 10.0}"
assert np.isfinite(g.grid).all()

kT_per_e = 560.47254  # e/A -> kT/e at 298.15 K (docs/potential_io.md)
rng = random.Random(7)
worst = 0.0
for _ in range(200):
    idx = tuple(rng.randrange(n) for n in g.grid.shape)
    p = g.origin + np.array(idx) * g.delta
    r = np.sqrt(((a[:, :3] - p) ** 2).sum(1))
    v = kT_per_e * (a[:, 3] / r).sum()
    scale = kT_per_e * (np.abs(a[:, 3]) / r).sum()
    worst = max(worst, abs(g.grid[idx] - v) / scale)
# float32 sums, then 6 significant digits in the DX text
assert worst < 2e-6, f"map differs from the float64 sum by {worst:.2e} of sum |q|/r"
print(f"quickstart: 1231 atoms, lattice {g.grid.shape}, worst sampled error {worst:.1e} of sum |q|/r")
PY

# The PDB itself given as PQR: exit 2, one line, pointing at pdb2pqr; nothing written.
sed 's/pqr: 1ubq.pqr/pqr: 1ubq.pdb/; s/ubq_potential/pdb_as_pqr/' ubq_map.yaml > pdb_as_pqr.yaml
set +e
"$ppl" run pdb_as_pqr.yaml >out.txt 2>err.txt
rc=$?
set -e
[ "$rc" = 2 ] || { echo "PDB as PQR: exit $rc, expected 2"; cat err.txt; exit 1; }
[ "$(wc -l <err.txt)" = 1 ] && grep -q pdb2pqr err.txt || { echo "PDB as PQR: message"; cat err.txt; exit 1; }
[ ! -e pdb_as_pqr.dx ] && [ ! -e pdb_as_pqr.json ] || { echo "PDB as PQR wrote a file"; exit 1; }
echo "quickstart: ok"
