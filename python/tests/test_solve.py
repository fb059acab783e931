"""ppl.solve on SciPy matrices: every method x preconditioner against a direct float64 solve, zero copy of the CSR
arrays on host builds, and bad input."""
import numpy as np
import pytest

import ppl

sp = pytest.importorskip("scipy.sparse")
spla = pytest.importorskip("scipy.sparse.linalg")


def convection_diffusion(n=24, peclet=20.0):
    """The 2D upwind convection-diffusion operator on an n x n grid: nonsymmetric, diagonally dominant."""
    h = 1.0 / (n + 1)
    main = np.full(n, 4.0 + peclet * h)
    lower = np.full(n - 1, -1.0 - peclet * h)
    upper = np.full(n - 1, -1.0)
    T = sp.diags([lower, main, upper], [-1, 0, 1])
    I = sp.identity(n)
    S = sp.diags([np.full(n - 1, -1.0)], [-1]) + sp.diags([np.full(n - 1, -1.0)], [1])
    return (sp.kron(I, T) + sp.kron(S, I)).tocsr()


METHODS = [e["name"] for e in ppl.strategies("solver") if e["available"]]
PRECONDITIONERS = [e["name"] for e in ppl.strategies("preconditioner") if e["available"]]


@pytest.mark.parametrize("preconditioner", PRECONDITIONERS)
@pytest.mark.parametrize("method", METHODS)
def test_every_method_and_preconditioner(method, preconditioner):
    A = convection_diffusion()
    rng = np.random.default_rng(3)
    x_true = rng.uniform(-1, 1, A.shape[0])
    b = A @ x_true
    x, info = ppl.solve(A, b, method=method, preconditioner=preconditioner, rtol=1e-10, max_iters=2000)
    assert info["converged"], info["outcome"]
    r = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
    assert r <= 1e-10 * 1.01 and abs(info["true_residual"] - r) <= 1e-12
    assert np.linalg.norm(x - spla.spsolve(A.tocsc(), b)) / np.linalg.norm(x_true) < 1e-8
    assert len(info["history"]) == info["iterations"] + 1


def test_csr_arrays_are_used_in_place_on_host_builds():
    A = convection_diffusion(10)
    b = np.ones(A.shape[0])
    assert A.indices.dtype == np.int32 and A.indptr.dtype == np.int32
    x, info = ppl.solve(A, b)
    if not ppl.cuda:  # values and column indices in place, the rows + 1 offsets widened to 64 bits
        assert not info["values_copied"] and not info["indices_copied"] and info["row_offsets_copied"]
    # SciPy's int64 form: offsets in place, column indices narrowed; the same solution either way
    A64 = sp.csr_matrix(A)
    A64.indices, A64.indptr = A.indices.astype(np.int64), A.indptr.astype(np.int64)
    assert A64.indptr.dtype == np.int64
    x64, info64 = ppl.solve(A64, b)
    if not ppl.cuda:
        assert not info64["values_copied"] and info64["indices_copied"] and not info64["row_offsets_copied"]
    assert np.array_equal(x, x64) and info64["iterations"] == info["iterations"]


def test_other_formats_and_non_canonical_csr():
    A = convection_diffusion(8)
    b = np.arange(A.shape[0], dtype=float)
    want = spla.spsolve(A.tocsc(), b)
    coo = A.tocoo()
    dup = sp.coo_matrix((np.concatenate([coo.data / 2, coo.data / 2]), (np.concatenate([coo.row, coo.row]),
                        np.concatenate([coo.col, coo.col]))), shape=A.shape)
    for M in (A.tocsc(), coo, dup.tocsr()):
        x, info = ppl.solve(M, b, rtol=1e-12)
        assert info["converged"] and np.allclose(x, want, rtol=1e-9, atol=1e-9)


def test_gmres_restart_and_bicg_transpose():
    A = convection_diffusion(12)
    b = np.ones(A.shape[0])
    x, info = ppl.solve(A, b, method="gmres", restart=5, preconditioner="none", rtol=1e-9, max_iters=5000)
    assert info["converged"]
    with pytest.raises(ValueError, match="'restart'"):
        ppl.solve(A, b, method="gmres", restart=0)


@pytest.mark.parametrize(
    "args, message",
    [
        (lambda A, b: (A[:, :-1], b), "A: a square matrix is needed"),
        (lambda A, b: (A, b[:-1]), r"b: expected shape"),
        (lambda A, b: (np.eye(3), b), "A: a scipy.sparse matrix is needed"),
    ],
)
def test_bad_input(args, message):
    A = convection_diffusion(4)
    b = np.ones(A.shape[0])
    with pytest.raises(ValueError, match=message):
        ppl.solve(*args(A, b))
    with pytest.raises(ValueError, match="method: unknown solver 'cg'; available in this build: bicgstab"):
        ppl.solve(A, b, method="cg")


def test_zero_diagonal_is_named():
    A = convection_diffusion(4).tolil()
    A[2, 2] = 0.0
    with pytest.raises(ValueError, match="row 3"):
        ppl.solve(A.tocsr(), np.ones(A.shape[0]), preconditioner="jacobi")
