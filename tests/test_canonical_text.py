"""Canonical text (issue 26, item 2): cells, policy keys and hierarchy leaves are compared
after one normalization (docs/canonical-text.md); values that become equal are reported, the
certificate names the normalization, verify applies it, and released cells keep their text."""
import json
import os
import subprocess
import sys
import unicodedata
import warnings

import pandas as pd
import pytest

from guides import run_guide
from skyprivacy import Policy, ReleaseCandidate, skyline_check
from skyprivacy.anonymize import k_anonymize, skyline_anonymize
from skyprivacy.certificate import build_certificate, verify_certificate
from skyprivacy.datasets import bundled
from skyprivacy.errors import (CanonicalTextWarning, HierarchyError, InvalidParameterError,
                               UnusedPolicyValueWarning)

SCRIPT = os.path.join(os.path.dirname(sys.executable), "skyprivacy")  # the console script
NFC = "caf\u00e9"
NFD = unicodedata.normalize("NFD", NFC)
C04 = Policy.uniform([(0, 0, 0, 0.4)])
# the invisible differences: two spellings of one value, as a reader sees them
SPELLINGS = {"nfd": (NFC, NFD), "trailing space": ("Flu", "Flu "),
             "zero-width": ("Flu", "Fl\u200bu")}


def table_of(pair):
    return pd.DataFrame({"zip": ["130**"] * 5,
                         "disease": [pair[0], pair[1], "Cold", "HIV", "Gout"]})


def caught(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call()
    return out, [str(w.message) for w in seen if issubclass(w.category, CanonicalTextWarning)]


@pytest.mark.parametrize("case", list(SPELLINGS))
def test_the_same_table_certified_after_normalization_is_honestly_unsafe(case):
    table = table_of(SPELLINGS[case])
    before = table.copy()
    (cert, messages) = caught(lambda: build_certificate(table, C04, qi="zip",
                                                        sensitive="disease"))
    assert cert["verdict"] == "unsafe"  # 2/5 >= c = 0.4
    worst = max(cert["checks"], key=lambda c: c["breach_probability"])
    assert worst["breach_probability_exact"] == "2/5" and not worst["safe"]
    assert cert["normalization"] == {"unicode": "NFC", "whitespace": "strip",
                                     "removed": ["U+200B", "U+2060", "U+FEFF"]}
    assert len(messages) == 1 and "are the same value after NFC" in messages[0]
    assert verify_certificate(table, cert).ok
    pd.testing.assert_frame_equal(table, before)  # the table is not changed
    raw = ReleaseCandidate.from_table(table, qi="zip", sensitive="disease", whitespace=None)
    assert skyline_check(raw, C04).safe  # as written, the verdict was SAFE


def test_the_warning_names_both_spellings_and_what_sets_them_apart():
    _, messages = caught(lambda: ReleaseCandidate.from_table(
        table_of((NFC, NFD)), qi="zip", sensitive="disease"))
    assert messages == [f"Column 'disease': {NFD!r} (NFD) and {NFC!r} (NFC) are the same value "
                        f"after NFC and whitespace='strip'; compared as one."]


def test_whitespace_keep_compares_surrounding_spaces():
    table = table_of(("Flu", "Flu "))
    release = ReleaseCandidate.from_table(table, qi="zip", sensitive="disease",
                                          whitespace="keep")
    assert release.values == ("Cold", "Flu", "Flu ", "Gout", "HIV")
    cert = build_certificate(table, C04, qi="zip", sensitive="disease", whitespace="keep")
    assert cert["verdict"] == "safe" and cert["normalization"]["whitespace"] == "keep"
    assert verify_certificate(table, cert).ok
    with pytest.raises(InvalidParameterError, match=r"The 'whitespace' parameter of "
                       r"ReleaseCandidate.from_table must be one of \['strip', 'keep'\]. "
                       r"Got 'trim' instead."):
        ReleaseCandidate.from_table(table, qi="zip", sensitive="disease", whitespace="trim")


def test_quasi_identifier_groups_merge_too():
    table = pd.DataFrame({"city": [NFC, NFD, " Rome", "Rome"], "disease": list("abab")})
    release, messages = caught(lambda: ReleaseCandidate.from_table(
        table, qi="city", sensitive="disease"))
    assert release.group_sizes.to_dict() == {"Rome": 2, NFC: 2}
    assert len(messages) == 1 and "Column 'city'" in messages[0] and "; " in messages[0]


def test_values_that_differ_only_by_a_joiner_are_reported_not_merged():
    table = table_of(("ab", "a\u200db"))
    release, messages = caught(lambda: ReleaseCandidate.from_table(
        table, qi="zip", sensitive="disease"))
    assert len(release.values) == 5
    assert messages == ["Column 'disease': 'ab' and 'a\\u200db' differ only by invisible "
                        "characters (U+200D); compared as different values."]


def test_an_nfc_policy_key_matches_nfd_cells():
    table = pd.DataFrame({"zip": ["1*"] * 4, "disease": [NFD, NFD, "Flu", "Cold"]})
    release = ReleaseCandidate.from_table(table, qi="zip", sensitive="disease")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no UnusedPolicyValueWarning: the key is found
        result = skyline_check(release, Policy({NFC: [(0, 0, 0, 0.3)]},
                                               default=[(0, 0, 0, 0.9)]))
    row = result.to_frame().set_index("value").loc[NFC]
    assert row["c"] == 0.3 and not row["safe"]
    assert release.value_index(NFD) == release.value_index(NFC) is not None


def test_two_keys_of_one_value_are_reported_or_refused():
    release = ReleaseCandidate.from_table(table_of((NFC, "x")), qi="zip", sensitive="disease")
    _, messages = caught(lambda: skyline_check(
        release, Policy({NFC: [(0, 0, 0, 0.9)], NFD: [(0, 0, 0, 0.9)]})))
    assert messages == [f"The policy keys {NFC!r} and {NFD!r} are the same value {NFC!r} "
                        f"after text normalization; compared as one."]
    with pytest.raises(InvalidParameterError, match="different skylines, but they are the "
                                                    "same value"):
        skyline_check(release, Policy({NFC: [(0, 0, 0, 0.9)], NFD: [(0, 0, 0, 0.5)]}))


def test_a_released_table_that_spells_one_number_three_ways_is_reported():
    table = pd.DataFrame({"age": ["1", "1.0", "01"] * 2, "disease": list("abcabc")})
    release, messages = caught(lambda: ReleaseCandidate.from_table(
        table, qi="age", sensitive="disease"))
    assert release.n_groups == 3
    assert messages == ["Column 'age' mixes numeric spellings '01', '1', '1.0': compared as "
                        "text, 3 distinct values, as a reader of the table sees them; write "
                        "each number one way if the spellings mean the same."]


def test_anonymize_reports_the_choice_numeric_spellings_force():
    table = pd.DataFrame({"age": ["1", "1.0", "01", "2"] * 3, "disease": list("abcd") * 3})
    result, messages = caught(lambda: k_anonymize(table, qi="age", k=3, drop=["disease"]))
    assert messages == ["Column 'age' mixes numeric spellings '1', '1.0', '01': treated as "
                        "text, 4 distinct values; pass numeric=['age'] (--numeric age) to "
                        "compare them as numbers."]
    numbers = table[table["age"] != "01"]
    _, messages = caught(lambda: k_anonymize(numbers, qi="age", k=3, drop=["disease"]))
    assert messages == ["Column 'age' mixes numeric spellings '1', '1.0': compared as numbers, "
                        "2 distinct values; pass categorical=['age'] (--categorical age) to "
                        "keep the spellings apart."]


def test_released_cells_keep_their_exact_text():
    table = pd.DataFrame({"city": [NFD, NFD, "Rome", "Rome", NFC, NFC],
                          "disease": ["flu", "cold", "flu", "cold", "flu", "cold"]})
    before = table.copy()
    result, messages = caught(lambda: skyline_anonymize(
        table, qi="city", sensitive="disease", policy=Policy.uniform([(0, 0, 0, 1)])))
    assert messages  # the two spellings were compared as one
    published = result.table.sort_index()
    # a group of one cell publishes it exactly; the group of NFC and NFD cells (one value)
    # publishes its canonical form, so the published groups are the certified ones
    assert published["city"].tolist() == [NFC, NFC, "Rome", "Rome", NFC, NFC]
    assert published["disease"].tolist() == table["disease"].tolist()
    alone = table[table["city"] != NFC]
    exact = skyline_anonymize(alone, qi="city", sensitive="disease",
                              policy=Policy.uniform([(0, 0, 0, 1)]))
    assert exact.table.sort_index()["city"].tolist() == alone["city"].tolist()  # NFD kept
    pd.testing.assert_frame_equal(table, before)
    assert result.candidate.n_groups == 2


def test_hierarchy_leaves_are_found_by_canonical_text():
    sex = bundled("adult", "sex")
    assert sex.generalize([" Female", "Male\u200b", "Male"], 0) == ["Female", "Male", "Male"]
    assert sex.uncovered(["female"]) == ("female",)


def test_a_hierarchy_quasi_identifier_reports_merged_cells():
    table = pd.DataFrame({"sex": ["Male", "Male ", "Female", "Female"] * 2,
                          "disease": list("abab") * 2})
    _, messages = caught(lambda: k_anonymize(table, qi="sex", k=2, drop=["disease"],
                                             hierarchies={"sex": bundled("adult", "sex")}))
    assert any("Column 'sex': 'Male' and 'Male ' (surrounding whitespace)" in m
               for m in messages)


def test_a_certificate_without_normalization_is_verified_as_written():
    table = table_of((NFC, NFD))
    cert = build_certificate(table, C04, qi="zip", sensitive="disease")
    legacy = {k: v for k, v in cert.items() if k != "normalization"}
    verification = verify_certificate(table, legacy)
    assert not verification.ok  # as written, the table gives a different verdict
    assert ("The verdict differs: the certificate says 'unsafe', the table gives 'safe'."
            in verification.differences)
    with pytest.raises(InvalidParameterError, match="The certificate is malformed: "
                                                    "'normalization' must be "):
        verify_certificate(table, {**cert, "normalization": {"unicode": "NFKC"}})
    with pytest.raises(InvalidParameterError, match="'normalization' must be an object"):
        verify_certificate(table, {**cert, "normalization": None})


def _run(args, cwd):
    return subprocess.run([SCRIPT, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_command_line_certifies_and_verifies_after_normalization(tmp_path):
    table_of((NFC, NFD)).to_csv(tmp_path / "t.csv", index=False)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.4]]\n")
    before = (tmp_path / "t.csv").read_bytes()
    done = _run(["check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
                 "p.toml", "--certificate", "c.json", "-q"], tmp_path)
    assert done.returncode == 1, done.stderr  # unsafe: 2/5 >= 0.4
    assert "are the same value after NFC and whitespace='strip'; compared as one." \
        in done.stderr
    cert = json.loads((tmp_path / "c.json").read_text())
    assert cert["normalization"]["whitespace"] == "strip" and cert["verdict"] == "unsafe"
    verified = _run(["verify", "t.csv", "--certificate", "c.json"], tmp_path)
    assert verified.returncode == 0, verified.stderr + verified.stdout
    kept = _run(["check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
                 "p.toml", "--whitespace", "keep", "-q"], tmp_path)
    assert kept.returncode == 1  # NFC and NFD are one value whatever the whitespace choice
    assert (tmp_path / "t.csv").read_bytes() == before


def test_the_command_line_matches_an_nfc_policy_key_to_nfd_cells(tmp_path):
    pd.DataFrame({"zip": ["1*"] * 4, "disease": [NFD, NFD, "Flu", "Cold"]}).to_csv(
        tmp_path / "t.csv", index=False)
    (tmp_path / "p.toml").write_text(f'[default]\nskyline = [[0, 0, 0, 0.9]]\n'
                                     f'[values."{NFC}"]\nskyline = [[0, 0, 0, 0.3]]\n',
                                     encoding="utf-8")
    done = _run(["check", "t.csv", "--qi", "zip", "--sensitive", "disease", "--policy",
                 "p.toml", "--format", "json", "-q"], tmp_path)
    assert done.returncode == 1, done.stderr  # the key is found, and its 0.3 is broken
    assert "does not occur" not in done.stderr


def test_the_guide_canonical_text_md_runs():
    failures, attempted = run_guide("canonical-text.md", normalize_whitespace=False)
    assert attempted >= 8 and failures == 0


def test_an_explicit_order_names_values_in_canonical_form():
    table = pd.DataFrame({"sev": ["low", "low", NFD, NFC, "high", "high ", "high", "high"],
                          "disease": list("abcdefgh")})
    result, messages = caught(lambda: k_anonymize(table, qi="sev", k=4, drop=["disease"],
                                                  order={"sev": ["low", NFC, "high"]}))
    assert messages == [f"Column 'sev': {NFD!r} (NFD) and {NFC!r} (NFC); 'high' and 'high ' "
                        f"(surrounding whitespace) are the same value after NFC and "
                        f"whitespace='strip'; compared as one."]
    assert result.table["sev"].tolist() == [f"{{low, {NFC}}}"] * 4 + ["high"] * 4
    other, _ = caught(lambda: k_anonymize(table, qi="sev", k=4, drop=["disease"],
                                          order={"sev": ["low", "high", NFC]}))
    assert other.table["sev"].tolist() != result.table["sev"].tolist()  # the order is read
    with pytest.raises(InvalidParameterError, match=f"lists {NFD!r} twice for 'sev'"):
        k_anonymize(table, qi="sev", k=4, drop=["disease"],
                    order={"sev": ["low", NFC, NFD, "high"]})


# --------------------------------------------------------------- the anonymizers' whitespace
#: ' a' and 'a' are one city under whitespace='strip', two under 'keep'; ' Flu' and 'Flu'
#: likewise one sensitive value or two
SPACED = pd.DataFrame({"city": [" a", "a", " a", "a", "b", "b", "b"],
                       "disease": ["Flu", "Cold", "HIV", "Gout", "Flu", " Flu", "Cold"]})
C06 = Policy.uniform([(0, 0, 0, 0.6)])


def quietly(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CanonicalTextWarning)
        return call()


def test_k_anonymize_groups_surrounding_spaces_per_the_whitespace_option():
    before = SPACED.copy()
    strip = quietly(lambda: k_anonymize(SPACED, qi="city", k=2, drop=["disease"]))
    keep = k_anonymize(SPACED, qi="city", k=2, drop=["disease"], whitespace="keep")
    assert strip.groups["n_individuals"].tolist() == [4, 3]
    assert keep.groups["n_individuals"].tolist() == [2, 2, 3]
    assert keep.table["city"].tolist() == SPACED["city"].tolist()  # released as written
    pd.testing.assert_frame_equal(SPACED, before)


def test_skyline_anonymize_reads_values_and_verdicts_per_the_whitespace_option():
    strip = quietly(lambda: skyline_anonymize(SPACED, qi="city", sensitive="disease",
                                              policy=C06))
    keep = skyline_anonymize(SPACED, qi="city", sensitive="disease", policy=C06,
                             whitespace="keep")
    assert strip.candidate.values == ("Cold", "Flu", "Gout", "HIV")
    assert keep.candidate.values == (" Flu", "Cold", "Flu", "Gout", "HIV")
    # strip: 'b' holds Flu twice (2/3 >= 0.6), so one group; keep: 'Flu' and ' Flu' apart
    assert strip.candidate.n_groups == 1 and keep.candidate.n_groups == 3
    assert strip.certificate.safe and keep.certificate.safe
    assert keep.candidate.whitespace == "keep"
    # the release made under 'keep' is unsafe when its text is compared with 'strip'
    strict = quietly(lambda: build_certificate(keep.table, C06, qi="city",
                                               sensitive="disease"))
    assert strict["verdict"] == "unsafe"
    cert = build_certificate(keep.table, C06, qi="city", sensitive="disease",
                             whitespace="keep", result=keep.certificate)
    assert cert["verdict"] == "safe" and verify_certificate(keep.table, cert).ok


def test_anonymize_under_criteria_takes_the_whitespace_option():
    from skyprivacy import anonymize
    from skyprivacy.certificate import anonymization_certificate
    from skyprivacy.criteria import KAnonymity

    strip = quietly(lambda: anonymize(SPACED, qi="city", sensitive="disease",
                                      criteria=[KAnonymity(2)]))
    keep = anonymize(SPACED, qi="city", sensitive="disease", criteria=[KAnonymity(2)],
                     whitespace="keep")
    assert strip.candidate.n_groups == 2 and keep.candidate.n_groups == 3
    cert = anonymization_certificate(keep, qi="city", sensitive="disease",
                                     criteria=[KAnonymity(2)], whitespace="keep")
    assert cert["normalization"]["whitespace"] == "keep" and cert["verdict"] == "safe"
    assert verify_certificate(keep.table, cert).ok
    with pytest.raises(InvalidParameterError, match=r"^The 'whitespace' parameter of "
                       r"anonymization_certificate must be one of \['strip', 'keep'\]\. Got "
                       r"'trim' instead\.$"):
        anonymization_certificate(keep, qi="city", sensitive="disease",
                                  criteria=[KAnonymity(2)], whitespace="trim")
    with pytest.raises(InvalidParameterError, match=r"^The 'whitespace' parameter of "
                       r"anonymize must be one of \['strip', 'keep'\]\. Got None instead\.$"):
        anonymize(SPACED, qi="city", sensitive="disease", criteria=[KAnonymity(2)],
                  whitespace=None)


@pytest.mark.parametrize("call", ["skyline_anonymize", "k_anonymize"])
def test_a_bad_whitespace_option_is_named(call):
    args = ({"sensitive": "disease", "policy": C06} if call == "skyline_anonymize"
            else {"k": 2, "drop": ["disease"]})
    function = skyline_anonymize if call == "skyline_anonymize" else k_anonymize
    with pytest.raises(InvalidParameterError, match=rf"^The 'whitespace' parameter of {call} "
                       rf"must be one of \['strip', 'keep'\]\. Got 'trim' instead\.$"):
        function(SPACED, qi="city", whitespace="trim", **args)


def test_policy_keys_are_matched_per_the_whitespace_option():
    # ' Flu' names 'Flu' under strip: the search protects it as the certificate checks it
    table = pd.DataFrame({"city": list("aaabbb"),
                          "disease": ["Flu", "Flu", "Cold", "Cold", "HIV", "Gout"]})
    policy = Policy({" Flu": [(0, 0, 0, 0.6)]}, default=[(0, 0, 0, 0.9)])
    strip = skyline_anonymize(table, qi="city", sensitive="disease", policy=policy)
    assert strip.candidate.n_groups == 1 and strip.certificate.safe  # 2/6 < 0.6 <= 2/3
    with pytest.warns(UnusedPolicyValueWarning, match="' Flu'"):  # no cell under keep
        kept = skyline_anonymize(table, qi="city", sensitive="disease", policy=policy,
                                 whitespace="keep")
    assert kept.candidate.n_groups == 2 and kept.certificate.safe
    two = Policy({"Flu": [(0, 0, 0, 0.9)], "Flu ": [(0, 0, 0, 0.5)]})
    with pytest.raises(InvalidParameterError, match=r"^The policy gives 'Flu' and 'Flu ' "
                       r"different skylines, but they are the same value 'Flu' after text "
                       r"normalization \(docs/canonical-text\.md\); give it one skyline\.$"):
        skyline_anonymize(table, qi="city", sensitive="disease", policy=two)


def test_hierarchy_leaves_are_found_per_the_whitespace_option():
    sex = bundled("adult", "sex")
    assert sex.generalize([" Female", "Male\u200b"], 0) == ["Female", "Male"]
    assert sex.generalize(["Female", "Male\u200b"], 0, whitespace="keep") == ["Female",
                                                                                "Male"]
    with pytest.raises(HierarchyError, match=r"does not cover 1 distinct value\(s\) of the "
                       r"data \(1 row\(s\)\): \[' Female'\]"):
        sex.generalize([" Female", "Male"], 0, whitespace="keep")
    with pytest.raises(InvalidParameterError, match=r"^The 'whitespace' parameter of "
                       r"Hierarchy.generalize must be one of \['strip', 'keep'\]\. Got 'trim' "
                       r"instead\.$"):
        sex.generalize(["Male"], 0, whitespace="trim")
    table = pd.DataFrame({"sex": ["Male", " Male", "Female", "Female"], "disease": list("abab")})
    assert quietly(lambda: k_anonymize(table, qi="sex", k=2, drop=["disease"],
                                       hierarchies={"sex": sex})).safe
    with pytest.raises(HierarchyError, match=r"^Hierarchy for column 'sex': Hierarchy 'sex' "
                       r"does not cover 1 distinct value\(s\) of the data \(1 row\(s\)\): "
                       r"\[' Male'\]"):
        k_anonymize(table, qi="sex", k=2, drop=["disease"], hierarchies={"sex": sex},
                    whitespace="keep")


def test_the_command_line_anonymizes_and_verifies_under_whitespace_keep(tmp_path, capsys,
                                                                        monkeypatch):
    from skyprivacy.cli import main

    monkeypatch.chdir(tmp_path)
    SPACED.to_csv("t.csv", index=False)
    (tmp_path / "p.toml").write_text("[default]\nskyline = [[0, 0, 0, 0.6]]\n")
    before = (tmp_path / "t.csv").read_bytes()
    anonymize = ["anonymize", "t.csv", "--qi", "city", "--sensitive", "disease", "--policy",
                 "p.toml", "-q"]
    assert main([*anonymize, "--output", "keep.csv", "--whitespace", "keep"]) == 0
    assert main([*anonymize, "--output", "strip.csv"]) == 0
    capsys.readouterr()
    kept, stripped = (pd.read_csv(tmp_path / name, keep_default_na=False)
                      for name in ("keep.csv", "strip.csv"))
    assert kept["city"].nunique() == 3 and stripped["city"].nunique() == 1
    cert = json.loads((tmp_path / "keep.cert.json").read_text())
    assert cert["normalization"] == {"unicode": "NFC", "whitespace": "keep",
                                     "removed": ["U+200B", "U+2060", "U+FEFF"]}
    assert main(["verify", "keep.csv", "--certificate", "keep.cert.json"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("VERIFIED: keep.csv matches keep.cert.json") and \
        "text compared NFC, whitespace keep" in out
    # under criteria too, by Mondrian and by full-domain search
    for method in ("mondrian", "full-domain"):
        assert main([*anonymize, "--k", "2", "--output", f"{method}.csv", "--whitespace",
                     "keep", "--method", method]) == 0
        assert json.loads((tmp_path / f"{method}.cert.json").read_text())["normalization"][
            "whitespace"] == "keep"
        assert main(["verify", f"{method}.csv", "--certificate", f"{method}.cert.json",
                     "-q"]) == 0
    capsys.readouterr()
    released = pd.read_csv(tmp_path / "full-domain.csv", keep_default_na=False)
    assert sorted(released["city"].unique()) == [" a", "a", "b"]  # three classes, level 0
    assert (tmp_path / "t.csv").read_bytes() == before


def test_compare_reads_text_per_the_whitespace_option(tmp_path, capsys, monkeypatch):
    """compare (both baselines, Python and CLI) anonymizes and draws its skylines with the
    text comparison it is given: " Flu" and "Flu" are one value under strip, two under keep."""
    from skyprivacy.cli import main
    from skyprivacy.compare import compare_l_diversity

    table = pd.DataFrame({"city": ["a", "b"] * 6,
                          "disease": ["Flu", " Flu", "Cold", "HIV", "Gout", "Mumps"] * 2})
    kept, stripped = (quietly(lambda w=w: compare_l_diversity(
        table, qi=["city"], sensitive="disease", diversity_c=3, l=2, c=0.9, whitespace=w))
        for w in ("keep", "strip"))
    assert len(kept.skylines) == 6 and len(stripped.skylines) == 5
    monkeypatch.chdir(tmp_path)
    table.to_csv("t.csv", index=False)
    for baseline in (["--k-anonymity", "2"], ["--l-diversity", "2"]):
        counts = []
        for option in ([], ["--whitespace", "keep"]):
            assert main(["compare", "t.csv", "--qi", "city", "--sensitive", "disease",
                         *baseline, *option, "--format", "json", "-q"]) == 0
            counts.append(len({row["value"] for row in json.loads(
                capsys.readouterr().out)["skylines"]}))
        assert counts == [5, 6], baseline


@pytest.mark.parametrize("engine", ["pandas", "dask"])
def test_full_domain_search_compares_text_per_the_whitespace_option(engine):
    """Full-domain search reads QI cells against the hierarchy's leaves, the sensitive
    values and the policy's keys under the option: with 'keep', ' a' and 'a' are two leaves
    (two classes at level 0) and ' Flu' a value of its own that a ' Flu' key names."""
    from skyprivacy import anonymize
    from skyprivacy.criteria import KAnonymity, SkylinePolicy
    from skyprivacy.hierarchy import Hierarchy

    table = pd.DataFrame({"city": [" a", " a", "a", "a", "b", "b"],
                          "disease": ["Flu", "Cold", " Flu", "Cold", "Flu", "Cold"]})
    spaced = Hierarchy([[" a", "ab", "*"], ["a", "ab", "*"], ["b", "ab", "*"]], name="city")
    plain = Hierarchy([["a", "ab", "*"], ["b", "ab", "*"]], name="city")
    import dask.dataframe as dd

    frame = table if engine == "pandas" else dd.from_pandas(table, npartitions=2)

    def run(hierarchy, whitespace, criteria):
        result = quietly(lambda: anonymize(frame, qi="city", sensitive="disease",
                                           criteria=criteria, method="full-domain",
                                           hierarchies={"city": hierarchy},
                                           whitespace=whitespace))
        released = result.table if engine == "pandas" else result.table.compute()
        return result, released

    keep, released = run(spaced, "keep", [KAnonymity(2)])
    assert keep.levels == {"city": 0} and keep.candidate.n_groups == 3
    assert released["city"].tolist() == table["city"].tolist()  # cells keep their text
    assert sorted(map(str, keep.candidate.values)) == [" Flu", "Cold", "Flu"]
    strip, _ = run(plain, "strip", [KAnonymity(2)])
    assert strip.levels == {"city": 0} and strip.candidate.n_groups == 2
    assert sorted(map(str, strip.candidate.values)) == ["Cold", "Flu"]
    assert keep.candidate.value_index(" Flu") != keep.candidate.value_index("Flu")
    # a key " Flu" names the kept-apart value only: 2 of the 3 people of class "a" hold it
    # (unsafe at c = 0.6: the search generalizes), while "Flu" is 1 of 2 in its classes
    table = pd.DataFrame({"city": [" a", " a", "a", "a", "a", "b", "b"],
                          "disease": ["Flu", "Cold", " Flu", " Flu", "Cold", "Flu", "Cold"]})
    frame = table if engine == "pandas" else dd.from_pandas(table, npartitions=2)
    assert run(spaced, "keep", [SkylinePolicy(Policy({" Flu": [(0, 0, 0, 0.6)]}))]
               )[0].levels == {"city": 1}
    assert run(spaced, "keep", [SkylinePolicy(Policy({"Flu": [(0, 0, 0, 0.6)]}))]
               )[0].levels == {"city": 0}
    with pytest.raises(HierarchyError, match=r"does not cover 1 distinct value"):
        run(plain, "keep", [KAnonymity(2)])
