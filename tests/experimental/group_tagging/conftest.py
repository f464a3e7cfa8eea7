"""Fixtures of spec group-tagging §3.3 / §3.7 (the invented 12-student table) and §4 (a
1,000-row reference table shaped like the spec's reference run)."""
import numpy as np
import pandas as pd
import pytest

# spec §3.3: sex, maths, income_k, electricity, rural, religion, eligible
STUDENT_ROWS = [
    ("F", 92, 40, 1, 0, 0, 1), ("F", 85, 12, 1, 1, 1, 1), ("F", 58, 30, 1, 0, 0, 1),
    ("F", 40, 8, 0, 1, 0, 0), ("F", 66, 10, 0, 1, 1, 0), ("F", 35, 25, 1, 0, 0, 0),
    ("M", 95, 60, 1, 0, 1, 1), ("M", 72, 45, 1, 0, 0, 1), ("M", 61, 15, 0, 1, 0, 0),
    ("M", 55, 50, 1, 0, 1, 1), ("M", 48, 9, 0, 1, 0, 0), ("M", 80, 20, 1, 1, 0, 0),
]
STUDENT_COLUMNS = ["sex", "maths", "income_k", "electricity", "rural", "religion", "eligible"]


def make_students() -> pd.DataFrame:
    return pd.DataFrame(STUDENT_ROWS, columns=STUDENT_COLUMNS)


def make_reference(seed: int = 7, n: int = 1000) -> pd.DataFrame:
    """spec §4: 40% female; anchored {sex, maths, income}; free {religion, urban, age}.
    Religion and urban are correlated, so their conjunction is what FIS perturbs."""
    rng = np.random.default_rng(seed)
    n_f = int(0.4 * n)
    sex = np.array(["F"] * n_f + ["M"] * (n - n_f))[rng.permutation(n)]
    religion = (rng.random(n) < 0.2).astype(np.int64)
    urban = (rng.random(n) < 0.35 + 0.5 * religion).astype(np.int64)
    frame = pd.DataFrame({
        "id": np.arange(n),
        "sex": sex,
        "maths": rng.integers(0, 101, n),
        "income": rng.integers(5, 120, n),
        "religion": religion,
        "urban": urban,
        "age": rng.integers(18, 70, n),
    }, index=pd.Index([f"r{i}" for i in range(n)], name="row"))
    return frame


@pytest.fixture
def students() -> pd.DataFrame:
    return make_students()


@pytest.fixture
def reference() -> pd.DataFrame:
    return make_reference()
