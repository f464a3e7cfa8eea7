"""A dense primal-dual interior-point solver for the basis-pursuit LPs of the CS attack.

The decoder of Algorithm 2 (Hamman, Chen and Dutta, Theorem 2, A.2) is the LP

    min 1'u (+ 1'v)  s.t.  alpha c + H (u - v) = eta,  alpha, u, v >= 0,

with a dense m x n query matrix H (m << n): ``v`` is absent for the nonnegative decoder and
``alpha`` only when the group sizes are unknown.  A simplex code pays for the dense basis at
every pivot; here each iteration forms the m x m normal matrix ``H diag(d) H'`` with one BLAS
rank-k update (m^2 n / 2 multiply-adds) and factors it once, so the solve costs a few dozen
such steps whatever the noise.  Mehrotra's predictor-corrector (Nocedal and Wright,
*Numerical Optimization*, 2nd ed., Algorithm 14.3) with his starting point (ibid., §14.2).

The LP's optimum is unique for generic noisy answers, where this returns the simplex's vertex
up to the tolerance; in the noiseless case it returns the sparse solution of the optimal face.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.optional import optional_import

#: Stop when the scaled primal and dual residuals and the relative duality gap are all below.
TOLERANCE = 1e-8
#: Accept the best iterate when the residuals stall above TOLERANCE but below this.
STALL_TOLERANCE = 1e-6
#: Iterations without a better iterate that count as a stall.
STALL_ITERATIONS = 8
MAX_ITERATIONS = 200


@dataclass(frozen=True)
class InteriorPointResult:
    """The solution of :func:`basis_pursuit_ipm` and how it ended.

    Attributes
    ----------
    x : numpy.ndarray
        ``[alpha,] u[, v]`` stacked, as :func:`scipy.optimize.linprog` would return them.
    status : int
        0 solved to :data:`TOLERANCE`; 1 stalled below :data:`STALL_TOLERANCE` (accepted);
        2 no solution to that accuracy (infeasible, or out of iterations).
    iterations : int
    accuracy : float
        The largest of the scaled primal residual, dual residual and gap at ``x``.
    message : str
    """

    x: np.ndarray
    status: int
    iterations: int
    accuracy: float
    message: str


class _Structure:
    """The constraint matrix ``A = [c, H, -H]`` (blocks optional) without forming it."""

    def __init__(self, H: np.ndarray, column: np.ndarray | None, split: bool):
        self.H = H
        self.column = column
        self.split = split
        self.lead = 0 if column is None else 1
        self.n = H.shape[1]
        self.size = self.lead + self.n * (2 if split else 1)

    def parts(self, x: np.ndarray) -> tuple[float, np.ndarray, np.ndarray | None]:
        alpha = float(x[0]) if self.lead else 0.0
        u = x[self.lead:self.lead + self.n]
        v = x[self.lead + self.n:] if self.split else None
        return alpha, u, v

    def dot(self, x: np.ndarray) -> np.ndarray:
        """``A x``."""
        alpha, u, v = self.parts(x)
        out = self.H @ (u - v if v is not None else u)
        if self.column is not None:
            out = out + alpha * self.column
        return out

    def tdot(self, y: np.ndarray) -> np.ndarray:
        """``A' y``."""
        hy = self.H.T @ y
        blocks = [hy, -hy] if self.split else [hy]
        if self.column is not None:
            blocks.insert(0, np.array([self.column @ y]))
        return np.concatenate(blocks)

    def normal(self, d: np.ndarray) -> np.ndarray:
        """``A diag(d) A'`` (symmetric, both triangles filled)."""
        blas = optional_import("scipy.linalg.blas", owner="cs_reveal")
        alpha_d, u_d, v_d = self.parts(d)
        w = u_d + v_d if v_d is not None else u_d
        scaled = self.H * np.sqrt(w)
        # dsyrk computes scaled @ scaled.T in half the multiply-adds of a matmul (upper part);
        # given the transposed (Fortran-ordered) view it reads the rows in place, no copy.
        upper = blas.dsyrk(1.0, scaled.T, trans=1)
        out = np.triu(upper) + np.triu(upper, 1).T
        if self.column is not None:
            out += alpha_d * np.outer(self.column, self.column)
        return out


def _factor(M: np.ndarray):
    """Cholesky of M with the smallest diagonal shift that succeeds (M may be singular)."""
    linalg = optional_import("scipy.linalg", owner="cs_reveal")
    scale = max(float(np.trace(M)) / M.shape[0], 1e-300)
    for shift in (0.0, 1e-14, 1e-12, 1e-10, 1e-8, 1e-6):
        try:
            shifted = M + np.eye(M.shape[0]) * (shift * scale) if shift else M
            return linalg.cho_factor(shifted, check_finite=False), shift
        except np.linalg.LinAlgError:
            continue
    return None, None


def _step(x: np.ndarray, dx: np.ndarray) -> float:
    """The largest step in [0, 1] that keeps ``x + step dx >= 0``."""
    neg = dx < 0
    if not neg.any():
        return 1.0
    return min(1.0, float(np.min(-x[neg] / dx[neg])))


class _Newton:
    """One factored Newton system of an iteration, solved for several right-hand sides."""

    def __init__(self, A: _Structure, factor, z, d, rp, rd):
        self.A, self.factor, self.z, self.d, self.rp, self.rd = A, factor, z, d, rp, rd

    def __call__(self, rc: np.ndarray):
        """``[A 0 0; 0 A' I; Z 0 X] (dx, dy, dz) = (rp, rd, rc)``, by the normal equations
        ``(A D A') dy = rp - A Z^-1 rc + A D rd`` with ``D = X Z^-1``."""
        linalg = optional_import("scipy.linalg", owner="cs_reveal")
        rhs = self.rp - self.A.dot(rc / self.z - self.d * self.rd)
        dy = linalg.cho_solve(self.factor, rhs, check_finite=False)
        dz = self.rd - self.A.tdot(dy)
        return rc / self.z - self.d * dz, dy, dz


def basis_pursuit_ipm(H, eta, *, split=True, column=None, tol=TOLERANCE,
                      max_iter=MAX_ITERATIONS) -> InteriorPointResult:
    """Solve ``min sum(u) (+ sum(v)) s.t. alpha c + H (u - v) = eta, x >= 0``.

    Parameters
    ----------
    H : numpy.ndarray, shape (m, n)
    eta : numpy.ndarray, shape (m,)
    split : bool, keyword-only
        ``s = u - v`` (basis pursuit) when true; ``s = u >= 0`` otherwise.
    column : numpy.ndarray of shape (m,), optional, keyword-only
        The column of a zero-cost variable ``alpha >= 0`` (unknown group sizes).
    tol : float, keyword-only
    max_iter : int, keyword-only

    Returns
    -------
    InteriorPointResult

    References
    ----------
    Nocedal and Wright, *Numerical Optimization* (2006), Algorithm 14.3 and §14.2; Hamman,
    Chen and Dutta, Algorithm 2 line 8.

    Examples
    --------
    >>> H = np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 1.0]])
    >>> r = basis_pursuit_ipm(H, H @ np.array([0.0, 1.0, 0.0]))
    >>> r.status, np.round(r.x[:3] - r.x[3:], 6).tolist()
    (0, [0.0, 1.0, 0.0])
    """
    linalg = optional_import("scipy.linalg", owner="cs_reveal")
    A = _Structure(np.asarray(H, dtype=float), column, split)
    b = np.asarray(eta, dtype=float)
    cost = np.ones(A.size)
    if A.lead:
        cost[0] = 0.0
    # Mehrotra's starting point: the least-norm solutions of A x = b and A'y = c, shifted
    # into the interior.
    factor, _ = _factor(A.normal(np.ones(A.size)))
    if factor is None:
        return InteriorPointResult(np.zeros(A.size), 2, 0, np.inf,
                                   "the query matrix has no usable rows")
    x = A.tdot(linalg.cho_solve(factor, b, check_finite=False))
    y = linalg.cho_solve(factor, A.dot(cost), check_finite=False)
    z = cost - A.tdot(y)
    x += max(-1.5 * float(x.min()), 0.0)
    z += max(-1.5 * float(z.min()), 0.0)
    xz = float(x @ z)
    x += 0.5 * xz / max(float(z.sum()), 1e-300)
    z += 0.5 * xz / max(float(x.sum()), 1e-300)
    x = np.maximum(x, 1e-12)
    z = np.maximum(z, 1e-12)

    size = A.size
    b_scale = 1.0 + float(np.linalg.norm(b))
    c_scale = 1.0 + float(np.linalg.norm(cost))
    best = (np.inf, x.copy(), 0)
    since_best = 0
    for it in range(max_iter + 1):
        rp = b - A.dot(x)
        rd = cost - A.tdot(y) - z
        primal, dual = float(cost @ x), float(b @ y)
        accuracy = max(float(np.linalg.norm(rp)) / b_scale, float(np.linalg.norm(rd)) / c_scale,
                       abs(primal - dual) / (1.0 + abs(primal)))
        if accuracy < best[0]:
            best, since_best = (accuracy, x.copy(), it), 0
        else:
            since_best += 1
        if accuracy <= tol:
            return InteriorPointResult(x, 0, it, accuracy, "optimal")
        if since_best >= STALL_ITERATIONS or it == max_iter:
            break
        mu = float(x @ z) / size
        d = x / z
        factor, _ = _factor(A.normal(d))
        if factor is None:
            break

        newton = _Newton(A, factor, z, d, rp, rd)
        dx_aff, _, dz_aff = newton(-x * z)
        a_p, a_d = _step(x, dx_aff), _step(z, dz_aff)
        mu_aff = float((x + a_p * dx_aff) @ (z + a_d * dz_aff)) / size
        sigma = (mu_aff / mu) ** 3 if mu > 0 else 0.0
        dx, dy, dz = newton(sigma * mu - x * z - dx_aff * dz_aff)
        a_p, a_d = 0.99 * _step(x, dx), 0.99 * _step(z, dz)
        x = x + a_p * dx
        y = y + a_d * dy
        z = z + a_d * dz
        # Keep the iterates strictly interior when a step lands on the boundary in round-off.
        x = np.maximum(x, 1e-300)
        z = np.maximum(z, 1e-300)
    accuracy, x_best, it_best = best
    if accuracy <= STALL_TOLERANCE:
        return InteriorPointResult(x_best, 1, it_best, accuracy,
                                   f"stalled at accuracy {accuracy:.1e}")
    return InteriorPointResult(x_best, 2, it_best, accuracy,
                               f"no solution to accuracy {STALL_TOLERANCE:g} "
                               f"(best {accuracy:.1e}): infeasible or too ill-conditioned")
