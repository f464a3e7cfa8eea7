"""What every baseline shares (skyprivacy/baselines/_common.py): one result shape, one
verdict name, the release check, and the properties that hold for every criterion."""
import dataclasses
import json
import re
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from skyprivacy import InvalidParameterError, ReleaseCandidate
from skyprivacy.baselines import (
    distinct_l_diversity,
    distinct_l_diversity_level,
    entropy_l_diversity,
    entropy_l_diversity_level,
    k_anonymity,
    k_anonymity_level,
    recursive_cl_diversity,
    recursive_cl_diversity_threshold,
    t_closeness,
    t_closeness_level,
)

from .strategies import POOL, SVPI, groups_strategy, table_release


def raises(message):
    return pytest.raises(InvalidParameterError, match=re.escape(message))


@pytest.mark.parametrize("check", [
    lambda r: k_anonymity(r, k=2),
    lambda r: distinct_l_diversity(r, l=2),
    lambda r: entropy_l_diversity(r, l=2),
    lambda r: recursive_cl_diversity(r, diversity_c=2, l=2),
    lambda r: t_closeness(r, t=0.5),
    lambda r: t_closeness(r, t=0.5, ordered=True),
])
def test_every_result_has_the_same_shape(check):
    release = table_release()
    before = release.counts.copy()
    result = check(release)
    assert dataclasses.is_dataclass(result)
    assert type(result.safe) is bool
    frame = result.to_frame()
    assert frame.index.equals(release.group_labels)
    assert frame.columns[0] == "n_individuals" and frame.columns[-1] == "safe"
    assert frame["safe"].dtype == bool
    assert frame["safe"].tolist() == list(result.group_safe)
    assert result.safe == all(result.group_safe)
    assert result.worst_group in release.group_labels
    assert set(result.violating_groups) == set(frame.index[~frame["safe"]])
    json.dumps(result.to_dict())
    assert hash(result) == hash(check(release)) and result == check(release)
    pd.testing.assert_frame_equal(release.counts, before)


def test_the_verdict_is_named_safe_and_group_safe_only():
    result = k_anonymity(table_release(), k=3)
    assert result.safe is False and result.group_safe == (True, False, False, False)
    assert not hasattr(result, "satisfied") and not hasattr(result, "ok")  # removed aliases
    assert result.to_dict()["satisfied"] is result.to_dict()["safe"] is False


@pytest.mark.parametrize("call, owner", [
    (lambda r: k_anonymity(r, k=2), "k_anonymity"),
    (k_anonymity_level, "k_anonymity_level"),
    (lambda r: distinct_l_diversity(r, l=2), "distinct_l_diversity"),
    (distinct_l_diversity_level, "distinct_l_diversity_level"),
    (lambda r: entropy_l_diversity(r, l=2), "entropy_l_diversity"),
    (entropy_l_diversity_level, "entropy_l_diversity_level"),
    (lambda r: recursive_cl_diversity(r, diversity_c=2, l=2), "recursive_cl_diversity"),
    (lambda r: recursive_cl_diversity_threshold(r, l=2), "recursive_cl_diversity_threshold"),
    (lambda r: t_closeness(r, t=0.5), "t_closeness"),
    (t_closeness_level, "t_closeness_level"),
])
def test_release_must_be_a_release_candidate(call, owner):
    with raises(f"The 'release' parameter of {owner} must be a ReleaseCandidate. "
                f"Got 'DataFrame' instead."):
        call(pd.DataFrame({"s": ["a"]}))


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        k_anonymity(SVPI, k=0)


# ----------------------------------------------------------------------------- properties
def _all_levels(release):
    return (k_anonymity_level(release), distinct_l_diversity_level(release),
            entropy_l_diversity_level(release),
            [recursive_cl_diversity_threshold(release, l=l) for l in (1, 2, 3)],
            t_closeness_level(release), t_closeness_level(release, ordered=True))


@settings(max_examples=100)
@given(groups_strategy(), st.data())
def test_merging_two_groups_never_weakens_a_criterion(groups, data):
    assume(len(groups) >= 2)
    i, j = data.draw(st.lists(st.integers(0, len(groups) - 1), min_size=2, max_size=2,
                              unique=True))
    merged = [g for index, g in enumerate(groups) if index not in (i, j)]
    merged.append((groups[i][0] + groups[j][0], groups[i][1] + groups[j][1]))
    fine = _all_levels(ReleaseCandidate.from_groups(groups))
    coarse = _all_levels(ReleaseCandidate.from_groups(merged))
    assert coarse[0] >= fine[0]  # k
    assert coarse[1] >= fine[1]  # distinct l
    assert coarse[2] >= fine[2] * (1 - 1e-12)  # entropy l (float level)
    for after, before in zip(coarse[3], fine[3]):  # recursive threshold never grows
        assert after <= before
    assert coarse[4] <= fine[4] and coarse[5] <= fine[5]  # t never grows


@settings(max_examples=100)
@given(groups_strategy(), st.randoms(use_true_random=False), st.permutations(POOL))
def test_invariant_to_group_order_and_value_relabelling(groups, rnd, perm):
    shuffled = groups[:]
    rnd.shuffle(shuffled)
    rename = dict(zip(POOL, (f"v{p}" for p in perm)))
    renamed = [(n, [rename[v] for v in vals]) for n, vals in groups]
    base = ReleaseCandidate.from_groups(groups)
    for other in (ReleaseCandidate.from_groups(shuffled), ReleaseCandidate.from_groups(renamed)):
        levels, other_levels = _all_levels(base)[:5], _all_levels(other)[:5]
        assert levels[:2] == other_levels[:2] and levels[3:] == other_levels[3:]
        assert levels[2] == pytest.approx(other_levels[2], rel=1e-12)
    # the ordered distance only depends on the order, not on the values' names
    order = [rename[v] for v in POOL]
    assert t_closeness(ReleaseCandidate.from_groups(renamed), t=1, ordered=order).distances == \
        t_closeness(base, t=1, ordered=POOL).distances


@settings(max_examples=100)
@given(groups_strategy(), st.integers(1, 6),
       st.fractions(min_value=0, max_value=1, max_denominator=20))
def test_monotone_in_the_parameter(groups, level, t):
    release = ReleaseCandidate.from_groups(groups)
    if k_anonymity(release, k=level + 1).safe:
        assert k_anonymity(release, k=level).safe
    if distinct_l_diversity(release, l=level + 1).safe:
        assert distinct_l_diversity(release, l=level).safe
    if entropy_l_diversity(release, l=level + 1).safe:
        assert entropy_l_diversity(release, l=level).safe
    if recursive_cl_diversity(release, diversity_c=2, l=level + 1).safe:
        assert recursive_cl_diversity(release, diversity_c=2, l=level).safe
    if recursive_cl_diversity(release, diversity_c=Fraction(1, 2) + level, l=level).safe:
        assert recursive_cl_diversity(release, diversity_c=Fraction(3, 2) + level, l=level).safe
    if t_closeness(release, t=t).safe:
        assert t_closeness(release, t=min(1, t + Fraction(1, 20))).safe
