"""How thresholds and probabilities are printed (skyprivacy/_core/text.py): a threshold as the
decimal it was written as, and a percentage that never rounds onto or across its threshold."""
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from skyprivacy._core.text import percent_text


@given(st.fractions(min_value=0, max_value=1), st.fractions(min_value=Fraction(1, 10**6),
                                                            max_value=1))
def test_a_printed_percentage_is_on_the_same_side_of_its_threshold(p, c):
    text = percent_text(p, c)
    if text[0] in "<>":  # closer than 1e-14: an explicit side
        assert (text[0] == "<") == (p < c)
        return
    shown = Fraction(text.rstrip("%")) / 100
    assert (shown > c) - (shown < c) == (p > c) - (p < c)
