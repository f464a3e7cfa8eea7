"""Warnings attributed to the user's line, the first frame outside skyprivacy
(skyprivacy/_core/warning.py)."""
import pandas as pd
import pytest


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
