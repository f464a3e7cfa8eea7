"""Experimental methods: implemented to a written specification, with what they do *not*
protect stated next to what they do.

Nothing here is imported by ``import skyprivacy``; import a submodule explicitly, e.g.
``import skyprivacy.experimental.group_tagging``.  APIs in this namespace may change between
minor versions.

Submodules
----------
group_tagging
    Group tagging, Fairly Iterative Shuffling (FIS), the Relation-Impact fair classifier and
    differentially private count reports (Sengupta and Mishra, "Fairly Private Through Group
    Tagging and Relation Impact", as read by the project's specification ``group-tagging``).
"""
