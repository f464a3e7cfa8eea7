"""The anonymization facade (skyprivacy/anonymize/__init__.py): the names it exports, each from
the module that defines it, its modules as its docstring lists them, and the seam the Dask
engine uses (public names only)."""
from skyprivacy import anonymize

EXPORTS = {"anonymize", "AnonymizeResult", "full_domain_search",
           "skyline_anonymize", "AnonymizationResult", "k_anonymize", "KAnonymizationResult",
           "splittable_groups"}
MODULES = {"api", "encoders", "inputs", "rules", "search", "source", "released", "lattice"}


def test_exports():
    assert set(anonymize.__all__) == EXPORTS
    assert len(anonymize.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(anonymize) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(anonymize) == []


def test_the_docstring_lists_every_module(public_modules, docstring_section):
    assert public_modules(anonymize) == MODULES
    assert set(docstring_section(anonymize, "Modules")) == MODULES


def test_every_cross_reference_of_the_docstring_resolves(docstring_references):
    references = docstring_references(anonymize)
    assert {"skyprivacy.anonymize.search.mondrian",
            "skyprivacy.anonymize.rules.Rules"} <= set(references)
    assert [target for target, obj in references.items() if obj is None] == []


def test_the_top_package_exports_the_same_objects():
    import skyprivacy

    for name in EXPORTS - {"anonymize"}:
        assert getattr(skyprivacy, name) is getattr(anonymize, name)


def test_the_package_is_callable_as_the_anonymize_function_and_stays_a_package():
    import pickle

    import pandas as pd

    import skyprivacy
    from skyprivacy.anonymize import skyline_anonymize
    from skyprivacy.anonymize.api import anonymize as function
    from skyprivacy.criteria import KAnonymity

    assert skyprivacy.anonymize is anonymize and callable(anonymize)
    assert skyline_anonymize is anonymize.api.skyline_anonymize
    table = pd.DataFrame({"q": ["a", "b", "a", "b"], "s": ["x", "y", "y", "x"]})
    before = table.copy()
    options = {"qi": "q", "sensitive": "s", "criteria": KAnonymity(2), "method": "full-domain"}
    called, direct = skyprivacy.anonymize(table, **options), function(table, **options)
    assert called.levels == direct.levels == {"q": 0}
    pd.testing.assert_frame_equal(table, before)
    assert pickle.loads(pickle.dumps(skyline_anonymize)) is skyline_anonymize
