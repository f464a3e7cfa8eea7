"""Exceptions and warnings (skyprivacy/errors.py): every error is a SkyPrivacyError and the
built-in a Python user would catch, every warning a SkyPrivacyWarning (a UserWarning), and bad
parameters are reported in one template."""
import inspect
import re

import pytest

import skyprivacy
from skyprivacy import errors
from skyprivacy.errors import (
    BudgetError,
    EstimatorError,
    DegenerateColumnWarning,
    DegenerateGroupError,
    EngineError,
    HierarchyError,
    InfeasibleError,
    InvalidParameterError,
    MixedColumnWarning,
    CanonicalTextWarning,
    NotDifferentiallyPrivateWarning,
    NotFittedError,
    PrivacyRiskWarning,
    QueryDesignWarning,
    SchemaError,
    SkyPrivacyError,
    SkyPrivacyWarning,
    UndefinedMetricWarning,
    UnknownCategoryWarning,
    UnknownValueWarning,
    UnanalysedColumnWarning,
    UnprovenFormulaWarning,
    UnsafeConstantWarning,
    UnusedPolicyValueWarning,
    UsageError,
    param_error,
)

# error -> the built-in exceptions its docstring and the module promise it is
ERRORS = {
    InvalidParameterError: (ValueError,),
    SchemaError: (ValueError,),
    HierarchyError: (ValueError,),
    InfeasibleError: (ValueError,),
    DegenerateGroupError: (ValueError,),
    BudgetError: (ValueError,),
    EstimatorError: (ValueError,),
    EngineError: (RuntimeError,),
    NotFittedError: (ValueError, AttributeError),  # scikit-learn's convention
    UsageError: (),  # the command line maps it to exit code 2
}
# warning -> its parent among skyprivacy's warnings
WARNINGS = {
    PrivacyRiskWarning: SkyPrivacyWarning,
    MixedColumnWarning: SkyPrivacyWarning,
    CanonicalTextWarning: SkyPrivacyWarning,
    UnusedPolicyValueWarning: SkyPrivacyWarning,
    UnknownValueWarning: SkyPrivacyWarning,
    QueryDesignWarning: SkyPrivacyWarning,
    UnprovenFormulaWarning: SkyPrivacyWarning,
    DegenerateColumnWarning: SkyPrivacyWarning,
    UndefinedMetricWarning: SkyPrivacyWarning,
    UnknownCategoryWarning: SkyPrivacyWarning,
    UnsafeConstantWarning: PrivacyRiskWarning,  # a too-small constant weakens the guarantee
    NotDifferentiallyPrivateWarning: PrivacyRiskWarning,  # so does a DP claim that is not one
    UnanalysedColumnWarning: PrivacyRiskWarning,  # so do columns copied into a release unseen
}
DEFINED = {name: obj for name, obj in vars(errors).items()
           if inspect.isclass(obj) and obj.__module__ == errors.__name__}


def test_the_tables_above_cover_every_class_the_module_defines():
    assert set(DEFINED.values()) == set(ERRORS) | set(WARNINGS) | {SkyPrivacyError,
                                                                   SkyPrivacyWarning}


def test_all_lists_every_class_and_the_message_helper():
    assert sorted(errors.__all__) == sorted([*DEFINED, "param_error"])
    assert len(errors.__all__) == len(set(errors.__all__))


def test_the_base_error_is_a_plain_exception_and_the_base_warning_a_user_warning():
    assert SkyPrivacyError.__bases__ == (Exception,)
    assert SkyPrivacyWarning.__bases__ == (UserWarning,)
    assert not issubclass(SkyPrivacyWarning, SkyPrivacyError)


@pytest.mark.parametrize("error, builtins", list(ERRORS.items()),
                         ids=[e.__name__ for e in ERRORS])
def test_every_error_is_a_skyprivacy_error_and_the_builtin_it_promises(error, builtins):
    assert error.__bases__ == (SkyPrivacyError, *builtins)
    for caught_as in (SkyPrivacyError, Exception, *builtins):
        with pytest.raises(caught_as, match="^the message$"):
            raise error("the message")


@pytest.mark.parametrize("warning, parent", list(WARNINGS.items()),
                         ids=[w.__name__ for w in WARNINGS])
def test_every_warning_is_a_skyprivacy_warning(warning, parent):
    assert warning.__bases__ == (parent,)
    assert issubclass(warning, SkyPrivacyWarning) and issubclass(warning, UserWarning)
    assert not issubclass(warning, SkyPrivacyError)


def test_the_top_level_package_exports_the_same_classes():
    for name in ["SkyPrivacyError", "InvalidParameterError", "SchemaError", "HierarchyError",
                 "InfeasibleError", "DegenerateGroupError", "BudgetError", "SkyPrivacyWarning",
                 "PrivacyRiskWarning", "MixedColumnWarning", "UnusedPolicyValueWarning",
                 "UnknownValueWarning", "UnsafeConstantWarning", "QueryDesignWarning"]:
        assert getattr(skyprivacy, name) is getattr(errors, name)


def test_a_library_error_is_caught_by_the_builtin_a_user_would_reach_for():
    with pytest.raises(ValueError, match=re.escape(
            "The 'groups' parameter of ReleaseCandidate.from_groups must contain at least "
            "one group. Got an empty iterable instead.")) as caught:
        skyprivacy.ReleaseCandidate.from_groups([])
    assert type(caught.value) is InvalidParameterError


# ----------------------------------------------------------------------------- param_error
def test_param_error_builds_the_house_template_without_raising():
    error = param_error("c", "skyline_check", "be in (0, 1]", 1.5)
    assert type(error) is InvalidParameterError
    assert str(error) == "The 'c' parameter of skyline_check must be in (0, 1]. Got 1.5 instead."


@pytest.mark.parametrize("got, shown", [
    ("0.9", "'0.9'"),  # a string is quoted: the user sees it was text
    (None, "None"),
    ([1, 2], "[1, 2]"),
    (True, "True"),
])
def test_param_error_shows_the_value_as_its_repr(got, shown):
    with pytest.raises(InvalidParameterError, match=re.escape(
            f"The 'k' parameter of k_anonymize must be a positive integer. Got {shown} "
            f"instead.")):
        raise param_error("k", "k_anonymize", "be a positive integer", got)
