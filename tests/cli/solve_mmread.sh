#!/usr/bin/env bash
# The system files a solve job writes (output.matrix, output.rhs) and its solution, read by another tool:
# scipy.io.mmread. x must solve A x = b to the job's rtol, and agree with scipy's sparse direct solve. Skips (exit 77,
# CTest's SKIP_RETURN_CODE) when no python3 with scipy is found: Debian's python3-scipy, or PPL_PYTHON3=...
set -u
ppl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
py=""
for c in "${PPL_PYTHON3:-}" python3 /usr/bin/python3; do
  if [ -n "$c" ] && "$c" -c 'import numpy, scipy.io, scipy.sparse.linalg' 2>/dev/null; then
    py=$c
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no python3 with scipy found (apt-get install python3-scipy, or set PPL_PYTHON3)"
  exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cat >job.yaml <<'JOB'
job: solve
matrix: {generator: convection_diffusion_3x, n: 6, peclet: 20}
rhs: manufactured
solver: {method: gmres, restart: 10, rtol: 1.0e-10, preconditioner: jacobi}
output: {matrix: A.mtx, rhs: b.mtx, solution: x.mtx}
JOB
"$ppl" run -q job.yaml --kokkos-threads=1 || exit 1
"$py" - <<'PY'
import sys
import numpy as np
import scipy.io
import scipy.sparse.linalg

A = scipy.io.mmread("A.mtx").tocsr()
b = np.asarray(scipy.io.mmread("b.mtx")).ravel()
x = np.asarray(scipy.io.mmread("x.mtx")).ravel()
ok = A.shape == (375, 375) and A.nnz == 3 * 3 * (3 * 5 - 2) ** 3 and b.shape == (375,) and x.shape == (375,)
residual = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
direct = scipy.sparse.linalg.spsolve(A.tocsc(), b)
error = np.linalg.norm(x - direct) / np.linalg.norm(direct)
print(f"scipy {scipy.__version__}: A {A.shape} nnz {A.nnz}, ||b - A x||/||b|| = {residual:.3e}, "
      f"||x - spsolve(A, b)||/||x|| = {error:.3e}")
sys.exit(0 if ok and residual <= 1e-10 * 1.01 and error <= 1e-8 else 1)
PY
