"""What is left of the deprecation shims (skyprivacy/_core/deprecation.py): renamed_keyword,
used by the edge module report.py until its shim goes too."""
import warnings

import pytest

from skyprivacy._core.deprecation import NEXT_RELEASE, renamed_keyword


@renamed_keyword("confidence", "c")
def draw(release, *, c=None):
    return release, c


def test_the_new_keyword_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert draw("r", c=0.5) == ("r", 0.5)


def test_the_old_keyword_works_and_names_the_new_one():
    with pytest.warns(FutureWarning) as caught:
        assert draw("r", confidence=0.5) == ("r", 0.5)
    assert str(caught[0].message) == (
        f"The keyword 'confidence' of draw is deprecated and stops working in {NEXT_RELEASE}; "
        f"pass c=0.5 instead.")


def test_both_keywords_are_an_error():
    with pytest.raises(TypeError, match=r"^draw got both 'confidence' and 'c'; pass 'c' only\.$"):
        draw("r", confidence=0.5, c=0.5)
