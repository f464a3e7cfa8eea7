"""ARX's hierarchy format as a pair of pure text functions: :func:`parse_arx`, :func:`generate_arx`.

An ARX hierarchy file is CSV (``;``-separated by default, fields quoted with ``"``), one row
per leaf: ``leaf;level 1;...;root``.  Here the text is parsed and generated; files are opened
only at the edge (:func:`skyprivacy.io.read_arx`, :func:`skyprivacy.io.write_arx`), and a
``str`` is always text, never a path.

References
----------
Prasser and Kohlmayer, ARX Data Anonymization Tool, hierarchy CSV format; the Adult
hierarchies shipped with skyprivacy are ARX's files, unchanged.
"""

from __future__ import annotations

import csv
import io

from .._core.validation import InstanceOf, Predicate, validate_params
from .model import NAME, Hierarchy, make_hierarchy

__all__ = ["parse_arx", "generate_arx", "SEP"]

#: The declared ``sep`` option of the format: one character that cannot be confused with the
#: quoting or the line structure of the CSV.
SEP = Predicate(
    lambda value: isinstance(value, str) and len(value) == 1 and value not in '\r\n"',
    "be a single character other than a quote or newline", invalid=";;")


@validate_params({
    "text": InstanceOf(str, name="the CSV text as a str (read_arx reads a file)"),
    "name": NAME,
    "sep": SEP,
})
def parse_arx(text, *, name=None, sep=";") -> Hierarchy:
    """Parse a hierarchy in ARX's CSV format: one row per leaf, ``leaf;level 1;...;*``.

    Parameters
    ----------
    text : str
        The CSV text (a leading byte-order mark is ignored).
    name : str, optional
        Name of the attribute.
    sep : str, default ``";"``
        Field separator.  Fields may be quoted with ``"``.

    Returns
    -------
    Hierarchy
        Labels are the text of the fields.

    Raises
    ------
    HierarchyError
        As for :func:`~skyprivacy.hierarchy.from_levels`; rows are cited by their line
        number.  Blank lines are skipped; trailing empty fields are ignored.
    InvalidParameterError
        If ``text`` is not a str or ``sep`` is not a single character other than a quote or
        newline.

    Examples
    --------
    >>> h = parse_arx("1;0-4;*\\n5;5-9;*\\n", name="age")
    >>> h.height, h.nodes_at(1)
    (2, ((1, '0-4'), (1, '5-9')))
    >>> h.generalize([1, 5], 1)
    ['0-4', '5-9']
    >>> parse_arx("BSc;Higher;*\\nHS;*\\n", name="edu")
    Traceback (most recent call last):
    ...
    skyprivacy.errors.HierarchyError: Hierarchy 'edu': levels of unequal depth: row 2 (leaf 'HS')
        has 1 level(s) above the leaf but row 1 (leaf 'BSc') has 2.
    """
    rows, line_numbers = [], []
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=sep, quotechar='"')
    for row in reader:
        if not row or all(cell == "" for cell in row):
            continue
        rows.append(row)
        line_numbers.append(reader.line_num)
    return make_hierarchy(rows, name=name, row_numbers=line_numbers)


@validate_params({"hierarchy": InstanceOf(Hierarchy, name="a Hierarchy"), "sep": SEP})
def generate_arx(hierarchy, *, sep=";") -> str:
    """The hierarchy in ARX's CSV format, readable by :func:`parse_arx` and by ARX.

    Parameters
    ----------
    hierarchy : Hierarchy
    sep : str, default ``";"``
        Field separator; labels containing it (or a quote) are quoted.

    Returns
    -------
    str
        One line per leaf (``\\n`` line ends), each label as its ``str``.

    Examples
    --------
    >>> from skyprivacy.hierarchy import intervals
    >>> print(generate_arx(intervals([3, 7], [5])), end="")
    3;[0, 5);*
    7;[5, 10);*
    >>> print(generate_arx(parse_arx('"a;b";*'), sep=","), end="")
    a;b,*
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=sep, quotechar='"', lineterminator="\n")
    for row in hierarchy.rows:
        writer.writerow([str(label) for label in row])
    return buffer.getvalue()
