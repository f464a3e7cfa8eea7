"""Generalization hierarchies for quasi-identifiers: the model, the ARX format, the builders.

A :class:`Hierarchy` is a rooted tree whose leaves are the values of one quasi-identifier and
whose inner nodes are coarser labels in levels of equal depth; it is what a release shows in
place of a QI value once generalized (Chen, LeFevre and Ramakrishnan 2009, Sect. 1.3 and
Table 1b) and what SkylineAnonymize labels its QI-groups with (Sect. 6.2).

=====================  =====================================================================
module                 what lives there
=====================  =====================================================================
:mod:`.model`          :class:`Hierarchy`: levels, graph, nodes, lookups, LCA
:mod:`.lookup`         how data values find leaves (``39`` finds ``'39'``);
                       :func:`generalize_frame`
:mod:`.arx`            ARX's CSV format as pure text functions: :func:`parse_arx`,
                       :func:`generate_arx`
:mod:`.builders`       :func:`from_levels`, :func:`from_mapping`, :func:`intervals`,
                       :func:`masking`, :func:`dates`
:mod:`.shipped`        :func:`bundled`, :func:`load_adult_hierarchies`
=====================  =====================================================================

Everything here is pure computation; ARX files are read and written by
:func:`skyprivacy.hierarchy_io.read_arx` and :func:`skyprivacy.hierarchy_io.write_arx`.

Examples
--------
>>> from skyprivacy import hierarchy
>>> zips = hierarchy.masking(["47906", "47907", "47920"], name="zip")
>>> zips.lca(["47906", "47920"])
'479**'
>>> print(hierarchy.generate_arx(zips), end="")
47906;4790*;479**;47***;4****;*
47907;4790*;479**;47***;4****;*
47920;4792*;479**;47***;4****;*
"""

from ._common import ROOT_LABEL
from .arx import generate_arx, parse_arx
from .builders import dates, from_levels, from_mapping, intervals, masking
from .lookup import generalize_frame
from .model import Hierarchy
from .shipped import bundled, load_adult_hierarchies

__all__ = [
    "Hierarchy",
    "generalize_frame",
    "load_adult_hierarchies",
    "bundled",
    "parse_arx",
    "generate_arx",
    "from_levels",
    "from_mapping",
    "intervals",
    "masking",
    "dates",
    "ROOT_LABEL",
]
