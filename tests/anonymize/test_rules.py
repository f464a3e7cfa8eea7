"""The level sweep of SkylineAnonymize (windows of partitions judged at once, a running minimum
per cell) makes exactly the decisions of Fig. 4's one-candidate-at-a-time FIFO rule.

The reference below is that rule written plainly: every candidate, in queue order, is judged
on all its cells against the statistics as they are when it is reached, near-threshold cells
exactly, and accepted if safe.  It shares the closed forms with the engine (they have their
own oracle tests) and nothing of the sweep."""
import numpy as np
import pandas as pd
import pytest

from skyprivacy import Policy, skyline_anonymize
from skyprivacy.anonymize import rules as anonymize
from skyprivacy.anonymize.api import PandasEngine
from skyprivacy.anonymize.inputs import check_anonymization
from skyprivacy.anonymize.rules import LevelSweep, PolicyPlan, Rules, SparseGroups, segment_cummin
from skyprivacy.anonymize.search import mondrian
from skyprivacy.formulas import float_verdict_one


class Mondrian:
    """The in-memory search of ``table`` with the rules ``rules_class`` (the engine the tests
    subclass the rules of): ``.run()`` gives the group of every row, numbered by first row,
    and the number of splits."""

    rules_class = Rules

    def __init__(self, table, qi, sensitive, policy, hierarchies, semantics, split,
                 progress=None):
        engine = PandasEngine(table)
        checked = check_anonymization(
            table, engine.facts(sensitive, semantics, "error"), qi=qi,
            sensitive=sensitive, policy=policy, hierarchies=hierarchies, semantics=semantics,
            split=split, output="generalized", group_column="group", missing="error",
            numeric=None, categorical=None, order=None, label_length=80,
            owner="skyline_anonymize")
        self.source = engine.search(checked, sensitive, policy, split, None, None,
                                    "error").source
        self.rules = self.rules_class(PolicyPlan.build(policy, self.source.values,
                                                       self.source.n_rows),
                                      self.source.n_values, semantics, split,
                                      progress=progress)
        self.plan, self.n_values = self.rules.plan, self.source.n_values

    def run(self):
        n_splits = mondrian(self.source, self.rules)
        final = self.source.final
        first = np.full(final.max() + 1, len(final))
        np.minimum.at(first, final, np.arange(len(final)))
        return np.argsort(np.argsort(first, kind="stable"))[final], n_splits

VALUES = [f"v{i}" for i in range(40)]


class SequentialRules(Rules):
    def accept_level(self, cands, order, chosen):
        combos = self.level_terms(cands)
        self.n_candidates += cands["n"]
        ptr = combos["ptr"]
        kids = cands["children"]
        self.pending = []
        for c in order.tolist():
            p = int(cands["part"][c])
            if chosen[p] >= 0:
                continue
            lo, hi = int(ptr[c]), int(ptr[c + 1])
            unsafe, unsure = self.verdicts(combos, slice(lo, hi))
            if unsafe.any():
                continue
            cells = combos["cell"][lo:hi]
            if unsure.any():
                self.flush_pending(kids)
                if any(self.exact_unsafe(int(cell), kids, int(cands["first_child"][c]),
                                          int(cands["n_children"][c]))
                       for cell in cells[unsure]):
                    continue
            chosen[p] = c
            self.pending.append((int(cands["first_child"][c]), int(cands["n_children"][c])))
            mins = combos["mins"][:, lo:hi]
            self.ss[:, cells] = np.minimum(self.ss[:, cells], mins)
            self.pinned[cells] |= combos["pinned"][lo:hi]
        self.flush_pending(kids)


class SequentialMondrian(Mondrian):
    rules_class = SequentialRules


def table_of(seed, n, n_values, semantics):
    rng = np.random.default_rng(seed)
    table = pd.DataFrame({"age": rng.integers(20, 60, n), "zip": rng.integers(0, 50, n),
                          "sex": rng.choice(["F", "M"], n)})
    p = np.arange(1, n_values + 1, dtype=float) ** -1.1
    draw = lambda size: rng.choice(VALUES[:n_values], size, p=p / p.sum())  # noqa: E731
    if semantics == "svpi":
        table["dx"] = draw(n)
    else:
        table["dx"] = pd.Series([sorted(set(draw(int(rng.integers(1, 3))))) if semantics ==
                                 "mvpi-set" else sorted(draw(int(rng.integers(1, 3))))
                                 for _ in range(n)], dtype=object)
    return table


POLICIES = [Policy.uniform([(1, 2, 1, 0.5)]), Policy.uniform([(0, 1, 0, 2 / 3)]),
            Policy.uniform([(2, 1, 1, 0.75), (0, 3, 0, 0.6)]),
            Policy({"v0": [(1, 1, 1, 0.5)]}, default=[(0, 2, 0, 0.9)]),
            Policy.uniform([(1, 0, 2, 1.0)])]


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-set", "mvpi-multiset"])
@pytest.mark.parametrize("policy", range(len(POLICIES)))
def test_the_sweep_decides_exactly_like_the_sequential_rule(semantics, policy):
    for seed in range(3):
        table = table_of(seed * 7 + policy, 500, [3, 12, 40][seed % 3], semantics)
        args = (table, ["age", "zip", "sex"], "dx", POLICIES[policy], {}, semantics,
                "infogain" if seed % 2 else "widest")
        engine, reference = Mondrian(*args), SequentialMondrian(*args)
        if engine.plan.log_theta.size == 0:
            continue
        got, n_got = engine.run()
        want, n_want = reference.run()
        assert n_got == n_want and np.array_equal(got, want), (semantics, policy, seed)


def test_the_sweep_is_the_engine_of_skyline_anonymize_and_splits_a_lot():
    table = table_of(3, 3000, 40, "svpi")
    result = skyline_anonymize(table, qi=["age", "zip", "sex"], sensitive="dx",
                               policy=POLICIES[0])
    reference = SequentialMondrian(table, ["age", "zip", "sex"], "dx", POLICIES[0], {},
                                   "svpi", "infogain")
    want, _ = reference.run()
    assert result.n_splits > 50
    assert np.array_equal(result.assignment.to_numpy(), want)


@pytest.mark.parametrize("n", [1, 5, 999, 1001, 4000])
def test_segment_cummin_restarts_at_every_segment(n):
    rng = np.random.default_rng(n)
    values = rng.normal(size=(5, n))
    values[values > 1.6] = np.inf
    values[values < -2.0] = -np.inf
    segment = np.sort(rng.integers(0, max(n // 4, 1), n))
    want = np.empty_like(values)
    for s in np.unique(segment):
        at = np.flatnonzero(segment == s)
        want[:, at] = np.minimum.accumulate(values[:, at], axis=1)
    assert np.array_equal(segment_cummin(values, segment), want)


class FakeEngine:
    """Just what the sweep reads of the engine: the global statistics and the policy cells."""

    def __init__(self, ss, pinned, theta):
        self.ss, self.pinned = ss, pinned
        self.plan = type("Plan", (), {"log_theta": theta, "__len__": lambda _: len(theta)})()
        self.pending = []

    classify, judge = Rules.classify, Rules.judge


def sequential_first_failure(ss, pinned, theta, window, ptr, cell, mins, combo_pinned):
    """The first candidate of ``window`` that is unsafe or unsure when each is judged after
    accepting all before it, one combo at a time in plain floats."""
    ss, pinned = ss.copy(), pinned.copy()
    for position, c in enumerate(window):
        for e in range(ptr[c], ptr[c + 1]):
            x = cell[e]
            own, now = mins[:, e], ss[:, x]
            if not (combo_pinned[e] or (own < now).any()):
                continue
            if any(float_verdict_one(*np.minimum(own, now), theta[x],
                                     combo_pinned[e] or pinned[x])):
                return position
        for e in range(ptr[c], ptr[c + 1]):
            ss[:, cell[e]] = np.minimum(ss[:, cell[e]], mins[:, e])
    return None


@pytest.mark.parametrize("seed", range(300))
def test_first_failure_is_the_sequential_rules_first_failure(seed):
    rng = np.random.default_rng(seed)
    n_cells, n_cands = int(rng.integers(1, 7)), int(rng.integers(1, 40))
    high, low = [1.0, 2.0, np.inf], [-np.inf, -1.0, -0.25, 0.0, 1e-12, 0.25, 0.5]
    ss = rng.choice(high, size=(5, n_cells))
    theta = rng.choice([-np.inf, 0.0, 0.5], size=n_cells)
    pinned = np.zeros(n_cells, dtype=bool)
    cells = [np.sort(rng.choice(n_cells, int(rng.integers(1, n_cells + 1)), replace=False))
             for _ in range(n_cands)]
    ptr = np.concatenate([[0], np.cumsum([len(c) for c in cells])]).astype(np.int64)
    cell = np.concatenate(cells).astype(np.int64)
    # mostly high statistics with a low one here and there: each candidate alone is often
    # safe, two together often are not (SS2 from one, SS5 from another)
    mins = np.where(rng.random((5, len(cell))) < 0.75, rng.choice(high, (5, len(cell))),
                    rng.choice(low, (5, len(cell))))
    combo_pinned = rng.random(len(cell)) < 0.02
    combos = {"cell": cell, "mins": mins, "pinned": combo_pinned, "ptr": ptr,
              "cand": np.repeat(np.arange(n_cands), np.diff(ptr))}
    live = (mins < ss[:, cell]).any(axis=0) | combo_pinned
    engine = FakeEngine(ss.copy(), pinned, theta)
    cands = {"n": n_cands, "part": np.arange(n_cands), "first_child": np.zeros(n_cands, int),
             "n_children": np.ones(n_cands, int)}
    sweep = LevelSweep(engine, cands, combos, None, None, live)
    window = np.arange(n_cands)
    assert sweep.first_failure(window) == sequential_first_failure(
        ss, pinned, theta, window, ptr, cell, mins, combo_pinned)


class EagerRules(Rules):
    """The level sweep as it was before candidates were evaluated lazily: every candidate of
    the level evaluated up front against the starting statistics, the unsafe ones dropped,
    the rest swept (kept as the reference of the lazy path)."""

    def accept_level(self, cands, order, chosen):
        combos = self.level_terms(cands)
        self.n_candidates += cands["n"]
        self.n_evaluated = getattr(self, "n_evaluated", 0) + cands["n"]
        unsafe, unsure = self.verdicts(combos, slice(None))
        live = (combos["mins"] < self.ss[:, combos["cell"]]).any(axis=0) | combos["pinned"]
        bad = np.zeros(cands["n"], dtype=bool)
        bad[combos["cand"][unsafe]] = True
        viable = order[~bad[order]]
        parts = cands["part"][viable]
        has_viable = np.zeros(len(chosen), dtype=bool)
        has_viable[parts] = True
        part_rows = cands["part_rows"]
        placed = self.placed + int(part_rows[~has_viable].sum())
        self.report(placed)
        step = max(1, self.n_rows // 20)
        next_report = placed + step
        self.pending = []
        if not len(viable):
            return
        sweep = LevelSweep(self, cands, combos, unsafe, unsure, live)
        runs = np.flatnonzero(np.concatenate([[True], parts[1:] != parts[:-1]]))
        run_end = np.append(runs[1:], len(viable))
        r, width = 0, 16
        while r < len(runs):
            window = viable[runs[r:r + width]]
            fail = sweep.first_failure(window)
            sweep.accept_all(window[:fail] if fail is not None else window, chosen)
            if fail is None:
                r += len(window)
                width = min(2 * width, 4096)
                continue
            j = r + fail
            if not any(sweep.try_one(int(c), chosen)
                       for c in viable[runs[j]:run_end[j]].tolist()):
                placed += int(part_rows[parts[runs[j]]])
                if placed >= next_report:
                    self.report(placed)
                    next_report = placed + step
            r = j + 1
            width = max(width // 2, 16)
        self.flush_pending(cands["children"])


class EagerMondrian(Mondrian):
    rules_class = EagerRules


class CountingRules(Rules):
    """The rules, counting the candidates they evaluate."""

    def level_terms(self, cands, which=None):
        self.n_evaluated = getattr(self, "n_evaluated", 0) + (
            cands["n"] if which is None else len(which))
        return super().level_terms(cands, which)


class CountingMondrian(Mondrian):
    rules_class = CountingRules


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-set", "mvpi-multiset"])
@pytest.mark.parametrize("policy", range(len(POLICIES)))
def test_lazy_evaluation_decides_like_evaluating_every_candidate(semantics, policy):
    for seed in range(4):
        table = table_of(seed * 11 + policy + 100, 800, [5, 40, 12, 40][seed], semantics)
        args = (table, ["age", "zip", "sex"], "dx", POLICIES[policy], {}, semantics,
                "infogain" if seed % 2 else "widest")
        seen: dict = {"lazy": [], "eager": []}
        engine = CountingMondrian(*args, progress=seen["lazy"].append)
        reference = EagerMondrian(*args, progress=seen["eager"].append)
        if engine.plan.log_theta.size == 0:
            continue
        got, n_got = engine.run()
        want, n_want = reference.run()
        assert n_got == n_want and np.array_equal(got, want), (semantics, policy, seed)
        assert engine.rules.n_candidates == reference.rules.n_candidates
        # a partition whose every candidate is unsafe already at the level's start is final
        # at once (the lazy sweep also decides near-threshold heads exactly then): progress
        # may come earlier, never go back, and ends at every row
        assert seen["lazy"] == sorted(seen["lazy"]) and seen["lazy"][-1] == seen["eager"][-1] == 1
        assert engine.rules.n_evaluated <= reference.rules.n_evaluated


def test_lazy_evaluation_skips_the_candidates_the_rule_never_reaches():
    table = table_of(5, 3000, 40, "svpi")
    args = (table, ["age", "zip", "sex"], "dx", POLICIES[0], {}, "svpi", "infogain")
    engine, reference = CountingMondrian(*args), EagerMondrian(*args)
    got, n_got = engine.run()
    want, n_want = reference.run()
    assert n_got == n_want > 50 and np.array_equal(got, want)
    # most partitions split by their first candidate: the others are never evaluated
    assert engine.rules.n_evaluated < 0.9 * reference.rules.n_evaluated


def random_groups(rng, semantics, n_values):
    """Small groups as sparse rows, with repeated shapes and tight corners (n <= k + m,
    a zero numerator) likely."""
    sizes, group, value, count = [], [], [], []
    for g in range(int(rng.integers(1, 12))):
        size = int(rng.choice([1, 2, 3, 4, 6, 10]))
        held = rng.choice(n_values, int(rng.integers(1, min(size, n_values) + 1)), replace=False)
        if semantics == "svpi":
            cuts = np.sort(rng.choice(np.arange(1, size), len(held) - 1, replace=False))
            counts = np.diff(np.concatenate([[0], cuts, [size]]))
        else:
            counts = rng.integers(1, size + 1, len(held))
            if semantics == "mvpi-set":
                counts = np.minimum(counts, size)
        sizes.append(size)
        group += [g] * len(held)
        value += held.tolist()
        count += counts.tolist()
    return SparseGroups(np.array(sizes), np.array(group), np.array(value), np.array(count))


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-set", "mvpi-multiset"])
@pytest.mark.parametrize("policy", range(len(POLICIES)))
def test_exact_minima_of_a_few_holders_are_those_of_the_float_filtered_path(semantics, policy,
                                                                          monkeypatch):
    rng = np.random.default_rng(policy)
    table = table_of(policy, 60, 4, semantics)
    engine = Mondrian(table, ["age", "zip", "sex"], "dx", POLICIES[policy], {}, semantics,
                      "infogain")
    plan = engine.plan
    for _ in range(40):
        groups = random_groups(rng, semantics, 4)
        for cell in range(len(plan)):
            idx = groups.holders(int(plan.value[cell]))
            engine.rules.exact_memo = {}
            direct = engine.rules.exact_minima(groups, idx, cell)
            monkeypatch.setattr(anonymize, "EXACT_FEW", -1)  # every entry through the filter
            engine.rules.exact_memo = {}
            filtered = engine.rules.exact_minima(groups, idx, cell)
            monkeypatch.undo()
            assert direct == filtered, (semantics, policy, cell)


@pytest.mark.parametrize("semantics", ["svpi", "mvpi-set", "mvpi-multiset"])
@pytest.mark.parametrize("policy", range(len(POLICIES)))
def test_terms_computed_once_per_run_of_shapes_are_every_pairs_terms(semantics, policy):
    from skyprivacy.formulas import holder_terms

    rng = np.random.default_rng(policy + 10)
    table = table_of(policy, 400, 40, semantics)
    engine = Mondrian(table, ["age", "zip", "sex"], "dx", POLICIES[policy], {}, semantics,
                      "infogain")
    plan, n_values = engine.plan, engine.n_values
    # many small groups, long tails of equal counts: well over the size where runs are used
    from skyprivacy.release import pair_counts

    # groups of 1 to 40 rows whose values are drawn from a skewed distribution: long tails of
    # counts of 1, well over the size from which runs are used
    sizes = rng.integers(1, 41, 150)
    weights = np.arange(1, n_values + 1, dtype=float) ** -1.1
    row_group = np.repeat(np.arange(len(sizes)), sizes)
    row_value = rng.choice(n_values, len(row_group), p=weights / weights.sum())
    groups = SparseGroups(sizes, *pair_counts(row_group, row_value, len(sizes), n_values))
    lo = plan.cell_ptr[groups.value]
    cell, e = anonymize.expand(lo, plan.cell_ptr[groups.value + 1] - lo)
    assert len(e) >= 2 * anonymize.SHAPES_MIN
    terms, at = engine.rules.pair_terms(groups.rows, e, cell)
    assert (at is None) == (semantics == "mvpi-set")
    want = holder_terms(groups.rows, e, l=plan.l[cell], k=plan.k[cell], m=plan.m[cell],
                        semantics=semantics).as_tuple()
    for got, expected in zip(terms, want):
        assert np.array_equal(got if at is None else got[at], expected)


@pytest.mark.parametrize("seed", range(5))
def test_entropies_summed_once_per_run_of_counts_are_bitwise_the_same(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 60, 300)
    weights = np.arange(1, 41, dtype=float) ** -1.1
    row_group = np.repeat(np.arange(len(sizes)), sizes)
    row_value = rng.choice(40, len(row_group), p=weights / weights.sum())
    from skyprivacy.release import pair_counts
    groups = SparseGroups(sizes, *pair_counts(row_group, row_value, len(sizes), 40))
    total = sizes.astype(float)
    plain = anonymize.entropy_sum(groups.group, groups.count, total, len(sizes))
    by_runs = anonymize.entropy_sum(groups.group, groups.count, total, len(sizes), runs=True)
    assert np.array_equal(plain, by_runs)
