"""Generalization hierarchies (being split into a package; see model)."""

from .model import Hierarchy, generalize_frame, load_adult_hierarchies

__all__ = ["Hierarchy", "load_adult_hierarchies", "generalize_frame"]
