"""Warnings attributed to the user's line, the first frame outside skyprivacy
(skyprivacy/_core/warning.py)."""
import inspect
import os
import re
import warnings

import pandas as pd
import pytest

import skyprivacy
from skyprivacy._core.warning import external_stacklevel, warn
from skyprivacy.errors import PrivacyRiskWarning

PACKAGE = os.path.dirname(os.path.abspath(skyprivacy.__file__))


def test_library_warnings_name_the_first_frame_outside_skyprivacy():
    from skyprivacy._core.validation import Interval, validate_params
    from skyprivacy._core.warning import warn

    from skyprivacy.transparency import DecisionTable

    @validate_params({"x": Interval("integer", 0)})
    def decorated(x):
        warn("careful", UserWarning)  # the first frame outside skyprivacy is this line

    with pytest.warns(UserWarning, match="careful") as caught:
        decorated(x=1)
    assert caught[0].filename == __file__
    assert caught[0].lineno == decorated.__wrapped__.__code__.co_firstlineno + 2  # decorator, def
    frame = pd.DataFrame({"g": ["a"], "s": [1], "w": [1], "d": [0.5]})
    with pytest.warns(Warning, match="single record") as caught:
        DecisionTable.from_frame(frame, public="g", sensitive="s", weight="w", decision="d")
    assert caught[0].filename == __file__  # not table.py nor the validation wrapper


def library_function(body: str, name: str = "library_helper.py"):
    """The function ``helper`` defined by ``body``, compiled as if it lived in the skyprivacy
    package (at skyprivacy/<name>; no file is written: the frame walk reads the code's file
    name), so a test can stand library frames between itself and the warning."""
    namespace = {"warn": warn, "external_stacklevel": external_stacklevel,
                 "PrivacyRiskWarning": PrivacyRiskWarning}
    exec(compile(body, os.path.join(PACKAGE, name), "exec"), namespace)
    return namespace["helper"]


def test_called_from_outside_the_package_the_stacklevel_is_one():
    assert external_stacklevel() == 1  # this test is the first frame outside skyprivacy


def test_every_library_frame_in_between_adds_one_level():
    one = library_function("def helper():\n    return external_stacklevel()\n")
    assert one() == 2  # the helper's caller: this test
    two = library_function("def helper(inner):\n    return inner()\n", "outer.py")
    assert two(one) == 3  # the inner helper, the outer helper, then this test


def test_a_warning_issued_in_user_code_names_the_user_line():
    with pytest.warns(UserWarning, match="^careful$") as caught:
        line = inspect.currentframe().f_lineno + 1
        warn("careful", UserWarning)
    assert len(caught) == 1
    assert (caught[0].filename, caught[0].lineno) == (__file__, line)


def test_a_warning_issued_below_library_frames_names_the_user_line():
    helper = library_function("def helper():\n    warn('careful', PrivacyRiskWarning)\n")
    with pytest.warns(PrivacyRiskWarning, match="^careful$") as caught:
        line = inspect.currentframe().f_lineno + 1
        helper()
    assert (caught[0].filename, caught[0].lineno) == (__file__, line)


def test_under_python_w_error_the_warning_is_raised_with_its_category_and_message():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(PrivacyRiskWarning, match=re.escape(
                "The release (n = 3) is too small to publish.")):
            warn("The release (n = 3) is too small to publish.", PrivacyRiskWarning)


def test_a_sibling_directory_whose_name_starts_like_the_package_is_user_code():
    # <parent>/skyprivacy_plugins/user.py shares the text '<parent>/skyprivacy' with the
    # package's path but is not inside it (no file is written: the walk reads co_filename)
    user_file = os.path.join(os.path.dirname(PACKAGE), "skyprivacy_plugins", "user.py")
    namespace = {"external_stacklevel": external_stacklevel,
                 "helper": library_function("def helper():\n"
                                            "    warn('careful', PrivacyRiskWarning)\n")}
    exec(compile("def level():\n    return external_stacklevel()\n\n"
                 "def user():\n    helper()\n", user_file, "exec"), namespace)
    assert namespace["level"]() == 1  # the user's own function is the first frame outside
    with pytest.warns(PrivacyRiskWarning, match="^careful$") as caught:
        namespace["user"]()
    assert (caught[0].filename, caught[0].lineno) == (user_file, 5)  # the line calling helper


def _every_library_warning():
    """One call per kind of place the library warns from: (call, category, message)."""
    import skyprivacy
    from skyprivacy import Policy, ReleaseCandidate, breach_probability, skyline_check

    release = ReleaseCandidate.from_groups([(2, ["a", "b"]), (2, ["a", "a"])])
    return [
        (lambda: skyline_check(release, Policy({"zz": [(0, 0, 0, 0.9)]})),
         skyprivacy.UnusedPolicyValueWarning, "never contains"),
        (lambda: breach_probability(release, "zz", l=0, k=0, m=0),
         skyprivacy.UnknownValueWarning, "occurs in no group"),
    ]


@pytest.mark.parametrize("index", range(2))
def test_every_library_warning_names_the_callers_line(index):
    """Unused policy values and unknown values warn at the user's line, however many library
    frames stand between."""
    call, category, message = _every_library_warning()[index]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    mine = [w for w in caught if issubclass(w.category, category) and message in str(w.message)]
    assert mine, [str(w.message) for w in caught]
    assert mine[0].filename == __file__, mine[0].filename
