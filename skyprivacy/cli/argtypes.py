"""The argument types of the ``skyprivacy`` command line: each turns one option's text into
its value, or raises :class:`argparse.ArgumentTypeError` with a one-line reason."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from ..anonymize.encoders import ORDERS
from ..certificate import parse_criterion
from ..errors import InvalidParameterError
from ..io import text_encoding


def column_list(text: str) -> list[str]:
    """``COL,...``: distinct, non-empty column names; or a JSON list of them,
    ``'["income, net", "age"]'``, for names that hold a comma (or surrounding spaces)."""
    if text.lstrip().startswith("["):
        return _json_columns(text)
    names = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise argparse.ArgumentTypeError(f"expected comma-separated column names, got {text!r}")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"a column is named twice in {text!r}")
    return names


def _json_columns(text: str) -> list[str]:
    """A JSON list of column names, each kept exactly as written."""
    try:
        names = json.loads(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected a JSON list of column names such as "
                                         f"'[\"a,b\", \"c\"]', got {text!r} ({exc})") from None
    if (not isinstance(names, list) or not names
            or not all(isinstance(n, str) and n.strip() for n in names)):
        raise argparse.ArgumentTypeError(f"expected a JSON list of non-empty column names, "
                                         f"got {text!r}")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"a column is named twice in {text!r}")
    return names


def encoding_name(text: str) -> str:
    """A text encoding Python knows (``utf-8``, ``utf-16``, ``cp1252``, ``latin-1``...)."""
    try:
        return text_encoding(text) or "utf-8"
    except InvalidParameterError:
        raise argparse.ArgumentTypeError(f"unknown text encoding {text!r} (e.g. utf-8, utf-16, "
                                         f"cp1252, latin-1)") from None


def value_list(text: str) -> list[str]:
    """``V,...``: non-empty sensitive values."""
    values = [part.strip() for part in text.split(",")]
    if any(not value for value in values):
        raise argparse.ArgumentTypeError(f"expected comma-separated values, got {text!r}")
    return values


def text_list(text: str) -> tuple[str, ...]:
    """``TEXT,...``: the non-empty texts (``''`` gives none)."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _fraction_or_float(text: str):
    text = text.strip()
    try:
        if "/" in text:
            return Fraction(text)
        if text.lstrip("+-").isdigit():
            return int(text)
        value = float(text)
        if value == 0 and Fraction(text) != 0:  # 1e-400 underflows a float: keep it exact
            return Fraction(text)
        return value
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected a number or a fraction like 2/3, got "
                                         f"{text!r}") from None


def confidence(text: str):
    """A confidence in (0, 1]: a decimal, an integer or a fraction like 2/3."""
    value = _fraction_or_float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1], got {text!r}")
    return value


def unit_interval(text: str):
    """A number in [0, 1]: a decimal, an integer or a fraction."""
    value = _fraction_or_float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1], got {text!r}")
    return value


def non_negative(text: str):
    """A finite number >= 0: a decimal, an integer or a fraction."""
    value = _fraction_or_float(text)
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text!r}")
    return value


def positive(text: str):
    """A finite number > 0: a decimal, an integer or a fraction."""
    value = _fraction_or_float(text)
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def int_at_least(minimum: int):
    """The type of an integer option that must be at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    parse.__name__ = f"integer >= {minimum}"
    return parse


def hierarchy_spec(text: str) -> tuple[str | None, str]:
    """``COL=SOURCE`` of ``--hierarchy``: (column, source), the shortcuts'
    arguments checked here; ``bundled:DATASET`` alone is (None, source): every QI's bundled
    hierarchy of its own name."""
    if "=" not in text and text.strip().count(":") == 1 and text.strip().startswith("bundled:"):
        return None, text.strip()  # every QI: the bundled hierarchy of its own name
    column, sep, source = text.partition("=")
    if not sep or not column.strip() or not source.strip():
        raise argparse.ArgumentTypeError(
            f"expected COLUMN=SOURCE (e.g. age=age.csv, age=bundled:adult:age, zip=mask:2 or "
            f"age=intervals:10), got {text!r}")
    column, source = column.strip(), source.strip()
    kind, _, argument = source.partition(":")
    if kind == "mask":
        mask_count(argument, text)
    elif kind == "intervals":
        interval_widths(argument, text)
    return column, source


def mask_count(argument: str, spec: str) -> int:
    """N of ``COL=mask:N``: how many trailing characters may be masked (at least 1)."""
    if not argument.isdigit() or int(argument) < 1:
        raise argparse.ArgumentTypeError(
            f"{spec!r}: mask:N needs a whole number N >= 1 of trailing characters to mask, "
            f"got {argument!r}")
    return int(argument)


def interval_widths(argument: str, spec: str) -> list:
    """WIDTH[,WIDTH...] of ``COL=intervals:...``: positive decimals, each a larger multiple of
    the one before (exact: 0.1 is 1/10)."""
    widths: list[Fraction] = []
    for part in argument.split(","):
        try:
            width = Fraction(part.strip()) if part.strip() and "/" not in part else None
        except (ValueError, ZeroDivisionError):
            width = None
        if width is None or width <= 0:
            raise argparse.ArgumentTypeError(
                f"{spec!r}: intervals:WIDTH needs positive decimal widths (e.g. intervals:10 "
                f"or intervals:5,10,20), got {part.strip()!r}")
        if widths and (width <= widths[-1] or (width / widths[-1]).denominator != 1):
            raise argparse.ArgumentTypeError(
                f"{spec!r}: each interval width must be a larger multiple of the one before; "
                f"{part.strip()} is not a larger multiple of {widths[-1]}")
        widths.append(width)
    return [int(w) if w.denominator == 1 else w for w in widths]


def order_spec(text: str) -> tuple:
    """``first`` / ``sorted`` (every categorical QI), or ``COL=first|sorted|V1,V2,...``."""
    if text in ORDERS:
        return (None, text)
    column, sep, rule = text.partition("=")
    if not sep or not column.strip() or not rule:
        raise argparse.ArgumentTypeError(
            f"expected first, sorted, COL=first, COL=sorted or COL=V1,V2,... (values in "
            f"order), got {text!r}")
    if rule in ORDERS:
        return (column.strip(), rule)
    values = rule.split(",")
    if any(not value for value in values):
        raise argparse.ArgumentTypeError(f"{text!r}: an empty value in the order")
    repeated = sorted({v for v in values if values.count(v) > 1})
    if repeated:
        raise argparse.ArgumentTypeError(f"{text!r}: {repeated[0]!r} is listed twice")
    return (column.strip(), tuple(values))


def separator(text: str) -> str:
    """A CSV separator: one character, or 'tab'."""
    sep = "\t" if text in ("tab", "\\t") else text
    if len(sep) != 1 or sep in "\r\n\"'":
        raise argparse.ArgumentTypeError(f"must be one character other than a quote or a line "
                                         f"break (or 'tab'); got {text!r}")
    return sep


def share_of_rows(text: str) -> Fraction:
    """A fraction of the rows: a percentage ``1%`` or a number in [0, 1] (``0.01``,
    ``1/100``), exact."""
    raw = text.strip()
    percent = raw.endswith("%")
    digits = raw[:-1].strip() if percent else raw
    value = None
    if digits and len(digits) <= 40 and all(ch.isdigit() or ch in "./" for ch in digits):
        try:
            value = Fraction(digits) / (100 if percent else 1)
        except (ValueError, ZeroDivisionError):
            value = None
    if value is None or not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a share of the rows such as 1% or 0.01 "
                                         f"(in [0, 1], at most 100%), got {text!r}")
    return value


def criterion_option(key: str):
    """The type of a criterion flag (``--k``, ``--l-diversity``, ``--t-closeness``): the
    criterion its text names, read as the policy file's ``[criteria]`` value is
    (:func:`skyprivacy.certificate.parse_criterion`)."""
    def parse(text: str):
        try:
            return parse_criterion(key, text)
        except InvalidParameterError as exc:
            raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None
    parse.__name__ = key
    return parse
