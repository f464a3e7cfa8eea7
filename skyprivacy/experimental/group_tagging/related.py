"""Related background attributes by correlation (spec group-tagging §3.3; paper §2.3, §3.2).

The paper keeps the attributes with "higher (usually greater than 0.5 or less than -0.5)
positive and negative correlation to the required events".  The concrete reading: the event
is the 0/1 target of a decision query; the score is the Pearson correlation with it (the
largest |r| over the one-hot bits of a categorical attribute), or Cramér's V; an attribute is
selected when its |score| is *strictly* above the threshold.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

import numpy as np
import pandas as pd

from ..._core.display import Shown, head_rows, result_html, result_repr
from ..._core.encoding import require_columns
from ..._core.exact import decimal_fraction, native
from ..._core.validation import Interval, Options, validate_params
from ..._core.warning import warn
from ...errors import DegenerateColumnWarning, SchemaError, param_error
from ._common import FRAME, check_table, column_list, require_complete, sorted_labels

__all__ = ["RelatedAttributes", "select_related_attributes"]


@dataclass(frozen=True)
class RelatedAttributes:
    """The attributes related to a decision target (the paper's B before removing Q).

    Attributes
    ----------
    selected : tuple of str
        Attributes with ``|score| > threshold``, in table order.
    scores : mapping str -> float
        Pearson r (signed; for a categorical attribute the r of its most correlated bit) or
        Cramér's V, for every scored attribute.
    categories : mapping str -> object
        For a categorical attribute under ``method="pearson"``, the category whose bit gave the
        score (on equal |r|, the first in sorted order); None otherwise.
    threshold : float
    method : str
    skipped : tuple of str
        Constant attributes (their correlation is undefined).
    """

    selected: tuple
    scores: Mapping[str, float]
    categories: Mapping[str, object]
    threshold: float
    method: str
    skipped: tuple

    def to_frame(self) -> pd.DataFrame:
        """One row per scored attribute: score, category, selected."""
        rows = [(a, s, self.categories[a], a in self.selected) for a, s in self.scores.items()]
        return pd.DataFrame(rows, columns=["attribute", "score", "category", "selected"]
                            ).set_index("attribute")

    __repr__ = result_repr
    _repr_html_ = result_html

    def _shown(self) -> Shown:
        return Shown(None, None, (("selected", self.selected), ("method", self.method),
                                  ("threshold", self.threshold), ("scored", len(self.scores)),
                                  ("skipped", len(self.skipped))),
                     None, head_rows(self.to_frame), len(self.scores))


def _as_ints(values: np.ndarray):
    """The values as an int64 array when they are all integers, else None."""
    if values.dtype.kind in "biu":
        return values.astype(np.int64)
    if values.dtype.kind == "f" and np.all(np.isfinite(values)) \
            and np.all(values == np.round(values)) and np.abs(values).max() < 2.0 ** 53:
        return values.astype(np.int64)
    return None


def _exact_sums(x: np.ndarray, y: np.ndarray) -> tuple[int, int, int]:
    """(sum x, sum x^2, sum x y) as exact Python ints (int64 when no overflow is possible)."""
    if len(x) < 2 ** 22 and np.abs(x).max() < 2 ** 20:  # x^2 sums stay below 2^62
        return int(x.sum()), int((x * x).sum()), int((x * y).sum())
    big = x.astype(object)
    return int(big.sum()), int((big * big).sum()), int((big * y.astype(object)).sum())


def _pearson(x: np.ndarray, y: np.ndarray) -> tuple[float, Fraction | float]:
    """(r, r squared) with a 0/1 target y; r squared is an exact Fraction when x is
    integer-valued."""
    exact = _as_ints(x)
    if exact is not None:
        n = len(exact)
        sx, sxx, sxy = _exact_sums(exact, y)
        sy = syy = int(y.sum())  # y is 0/1
        cov, vx, vy = n * sxy - sx * sy, n * sxx - sx * sx, n * syy - sy * sy
        r2 = Fraction(cov * cov, vx * vy)
        return math.copysign(math.sqrt(r2), cov), r2
    r = float(np.corrcoef(x.astype(float), y.astype(float))[0, 1])
    return r, r * r


def _cramers_v(codes: np.ndarray, y: np.ndarray) -> tuple[float, Fraction]:
    """(V, V squared exactly) between category codes and a 0/1 target."""
    k = int(codes.max()) + 1
    table = np.zeros((k, 2), dtype=np.int64)
    np.add.at(table, (codes, y), 1)
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    # chi2 / n = sum O^2 / (R C) - 1, exact in integers
    total = sum((Fraction(int(table[i, j]) ** 2, int(rows[i]) * int(cols[j]))
                 for i in range(k) for j in range(2) if table[i, j]), Fraction(0))
    v2 = (total - 1) / (min(k, 2) - 1)
    return math.sqrt(v2), v2


@validate_params({"table": FRAME, "threshold": Interval("real", 0, 1, closed="left"),
                  "method": Options("pearson", "cramers_v")})
def select_related_attributes(table, *, target, candidates=None, threshold=0.5,
                              method="pearson", exclude=()) -> RelatedAttributes:
    """Select the background attributes correlated with a decision target (spec §3.3).

    Parameters
    ----------
    table : pandas.DataFrame
        The table; never modified.
    target : str, keyword-only
        The 0/1 (or boolean) decision column, the paper's "required event".
    candidates : list of str, optional, keyword-only
        Attributes to score; default every column except ``target`` and ``exclude``.
    threshold : float, default 0.5, keyword-only
        Select when ``|score| > threshold`` (strict), in [0, 1).
    method : {"pearson", "cramers_v"}, default "pearson", keyword-only
        Pearson r with the target (numeric and boolean columns directly; a categorical column
        scores the r of its most correlated one-hot bit), or Cramér's V (every candidate is
        treated as categorical, so bin numeric columns first).
    exclude : list of str, keyword-only
        Columns never scored: the protected attribute and the ID (the paper excludes them by
        rule).

    Returns
    -------
    RelatedAttributes

    Raises
    ------
    SchemaError
        Fewer than 3 rows, a missing column, missing values, a target that is not 0/1 or is
        constant.
    InvalidParameterError
        Bad ``threshold``, ``method``, or a candidate that is the target or excluded.

    Warns
    -----
    DegenerateColumnWarning
        For constant candidates, which are skipped.

    Notes
    -----
    For integer-valued columns (bits, counts, integer scores) the strict comparison
    ``|r| > threshold`` is decided exactly, as ``r^2 > threshold^2`` in fractions.

    References
    ----------
    Sengupta and Mishra, §2.3 and the paragraph after Def. 3.3; spec group-tagging §3.3.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"sex": list("FFFMMM"), "maths": [90, 80, 40, 85, 30, 35],
    ...                       "shoe": [40, 41, 39, 38, 42, 40],
    ...                       "eligible": [1, 1, 0, 1, 0, 0]})
    >>> related = select_related_attributes(table, target="eligible", exclude=["sex"])
    >>> related.selected
    ('maths',)
    >>> round(related.scores["maths"], 4), round(related.scores["shoe"], 4)
    (0.9869, -0.2582)
    """
    owner = "select_related_attributes"
    check_table(table, owner=owner)
    if len(table) < 3:
        raise SchemaError(f"{owner} needs at least 3 rows; the table has {len(table)}.")
    if not isinstance(target, str):
        raise param_error("target", owner, "be the name of the 0/1 decision column", target)
    require_columns(table, [target])
    excluded = column_list(exclude, name="exclude", owner=owner, allow_empty=True)
    require_columns(table, excluded)
    if candidates is None:
        names = [c for c in table.columns if c != target and c not in excluded]
    else:
        names = column_list(candidates, name="candidates", owner=owner)
        require_columns(table, names)
        for name in names:
            if name == target or name in excluded:
                raise param_error("candidates", owner, "not include the target or an "
                                  "excluded column", name)

    y_cells = table[target]
    require_complete(y_cells, role="target", remedy="clean the table first.")
    y_values = sorted_labels(y_cells)
    if not set(y_values) <= {0, 1}:  # True == 1 and False == 0
        raise SchemaError(f"Column {target!r} (the target) must hold the event as 0/1 or "
                          f"booleans; it holds {y_values[:10]}.")
    if len(y_values) < 2:
        raise SchemaError(f"Column {target!r} (the target) is constant (every row is "
                          f"{y_values[0]!r}); no attribute can correlate with it.")
    y = y_cells.to_numpy().astype(np.int64)
    tau2 = decimal_fraction(threshold) ** 2  # the threshold as the decimal it was written as

    scores: dict = {}
    best_category: dict = {}
    selected: list = []
    skipped: list = []
    for name in names:
        cells = table[name]
        require_complete(cells, remedy="encode them (one_hot_encode(missing='as_category')) or "
                         "clean the table.")
        if cells.nunique() < 2:
            skipped.append(name)
            continue
        numeric = pd.api.types.is_numeric_dtype(cells)
        category = None
        score2: Fraction | float  # exact unless a float column is correlated in floats
        if method == "cramers_v":
            codes = pd.factorize(cells, sort=False)[0]
            score, score2 = _cramers_v(codes, y)
        elif numeric:
            score, score2 = _pearson(cells.to_numpy().astype(float)
                                     if cells.dtype.kind == "f" else cells.to_numpy(), y)
        else:
            score, score2 = 0.0, Fraction(0)
            for value in sorted_labels(cells):
                r, r2 = _pearson((cells == value).to_numpy(), y)
                if r2 > score2:
                    score, score2, category = r, r2, native(value)
        scores[name] = float(score)
        best_category[name] = category
        if score2 > tau2:
            selected.append(name)
    if skipped:
        warn(f"Column(s) {skipped} are constant, so their correlation with {target!r} is "
             "undefined; they are skipped.", DegenerateColumnWarning)
    return RelatedAttributes(tuple(selected), MappingProxyType(scores),
                             MappingProxyType(best_category), float(threshold), method,
                             tuple(skipped))
