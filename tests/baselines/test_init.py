"""The baselines' facade (skyprivacy/baselines/__init__.py): the names it exports, each from the
module that defines it, and the shape its docstring promises: every criterion a plain function
of a ReleaseCandidate returning a named, frozen result with ``.safe``, the worst group and a
per-group ``.to_frame()``."""
import dataclasses
import inspect

from skyprivacy import ReleaseCandidate, baselines

EXPORTS = {
    # kanonymity.py
    "KAnonymityResult", "k_anonymity", "k_anonymity_level", "k_anonymity_policy",
    "identity_release", "IDENTITY_RELEASE_MAX_CELLS",
    # ldiversity.py
    "DistinctLDiversityResult", "EntropyLDiversityResult", "RecursiveCLDiversityResult",
    "distinct_l_diversity", "distinct_l_diversity_level", "entropy_l_diversity",
    "entropy_l_diversity_level", "recursive_cl_diversity", "recursive_cl_diversity_threshold",
    "cl_diversity_policy",
    # tcloseness.py
    "TClosenessResult", "t_closeness", "t_closeness_level",
    # dynamic.py
    "dp_breach_probability", "DP_MAX_STATES",
    # cksafety.py
    "CKSafetyResult", "ck_safety", "ck_disclosure",
}
#: The criteria: each returns its result class.
CRITERIA = {"k_anonymity": "KAnonymityResult", "distinct_l_diversity": "DistinctLDiversityResult",
            "entropy_l_diversity": "EntropyLDiversityResult",
            "recursive_cl_diversity": "RecursiveCLDiversityResult",
            "t_closeness": "TClosenessResult", "ck_safety": "CKSafetyResult"}


def test_exports():
    assert set(baselines.__all__) == EXPORTS
    # two modules exporting one name would leave the facade the last star import's
    assert len(baselines.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(baselines) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(baselines) == []


def test_every_function_the_docstring_names_is_exported(docstring_references):
    references = docstring_references(baselines)
    assert [target for target, obj in references.items() if obj is None] == []
    named = {target for target in references if "." not in target}
    assert set(CRITERIA) | {"k_anonymity_policy", "identity_release", "cl_diversity_policy",
                            "dp_breach_probability"} <= named
    assert named <= set(baselines.__all__), named - set(baselines.__all__)


def test_the_guides_and_examples_import_only_exported_names(documented_imports):
    used = documented_imports("skyprivacy.baselines")
    assert {"k_anonymity", "recursive_cl_diversity", "dp_breach_probability"} <= set(used)
    assert set(used) <= set(baselines.__all__), {name: used[name] for name in
                                                 set(used) - set(baselines.__all__)}


def returns(function) -> str:
    annotation = inspect.signature(function).return_annotation
    return getattr(annotation, "__name__", annotation)  # a class, or its name as a string


def test_every_criterion_reads_a_release_and_returns_a_frozen_result():
    functions = [name for name in baselines.__all__ if inspect.isfunction(getattr(baselines, name))]
    criteria = {name: returns(getattr(baselines, name)) for name in functions
                if returns(getattr(baselines, name)) in baselines.__all__}
    assert criteria == CRITERIA  # and every result class has its criterion
    for name, result in criteria.items():
        first = next(iter(inspect.signature(getattr(baselines, name)).parameters.values()))
        assert first.name == "release", name
        assert first.annotation in (ReleaseCandidate, "ReleaseCandidate"), name
        cls = getattr(baselines, result)
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, result
        fields = {field.name for field in dataclasses.fields(cls)}
        assert {"safe", "worst_group", "group_labels"} <= fields, result
        assert callable(cls.to_frame) and callable(cls.to_dict), result
