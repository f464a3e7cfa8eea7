"""Deprecated home of the transparency paper's demonstrations; kept only as a data loader.

The demonstrations (Section 8, the leaks of Section 3 and Appendix B) moved out of the
package to ``examples/transparency_paper.py``; Table 1's data ship as
:func:`skyprivacy.datasets.load_credit_card`.  :func:`credit_card_frame` stays here for one
release because ``skyprivacy.demo`` still imports it.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["credit_card_frame"]


def credit_card_frame() -> pd.DataFrame:
    """Table 1 of Chen, Golubchik and Pal: :func:`skyprivacy.datasets.load_credit_card`.

    Examples
    --------
    >>> credit_card_frame()["population"].sum()
    np.int64(290)
    """
    from ..datasets import load_credit_card

    return load_credit_card()
