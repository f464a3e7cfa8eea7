"""The private kernel every area of skyprivacy builds on: one copy of each shared helper.

Nothing here knows about privacy models; everything here is imported by the models, the
algorithms and the subpackages (:mod:`skyprivacy.baselines`, :mod:`skyprivacy.transparency`,
:mod:`skyprivacy.fairness_queries`), never the other way round.

Modules
-------
validation
    Declared parameter constraints (:class:`~.validation.Interval`,
    :class:`~.validation.Options`, ...), the :func:`~.validation.validate_params` decorator
    that checks them at a public boundary, the imperative :func:`~.validation.check` for
    constraints that depend on other arguments, and ``random_state`` handling.  Every
    message follows the house template of :func:`skyprivacy.errors.param_error`.
exact
    How numbers are read and handed back: the printed-decimal rule (``0.9`` is 9/10),
    native Python scalars instead of numpy ones, the one relative tolerance of float
    verdicts, and the text of exact quantities.
encoding
    Missing-value markers, list-like cells, factorization of a column into codes, and the
    missing-column message.
canonical
    Canonical text, the one normalization under which cells, policy keys and hierarchy
    leaves are compared (Unicode NFC, zero-width characters removed, surrounding
    whitespace stripped or kept), applied to distinct values, with the reports of values
    that became one and of numbers spelled several ways.
optional
    Importing an optional dependency, with one wording naming the extra to install (and the
    one message when the ``dask`` extra is missing).
engines
    The engine registry: engines register under an entry-point group and
    :func:`~.engines.dispatchable` hands a call to the engine of its data; the kernel names
    no engine.
text
    Shared wording: a probability as a percentage that never reads as on the wrong side of
    its threshold, and a confidence threshold as the fraction it is.
display
    How results show themselves: the short ``repr`` and the notebook ``_repr_html_`` every
    public result takes from :func:`~.display.result_repr` / :func:`~.display.result_html`,
    the escaping and skyline picture the HTML reports share, and ``progress=True``'s tqdm bar
    (:func:`~.display.progress_callback`).
version
    The package version, read from one place.
warning
    Warnings attributed to the user's line (the first frame outside skyprivacy).
classification
    The role of every column of a table to release (a quasi-identifier, the sensitive
    column, kept as is or dropped), and every message about it, for the Python keywords and
    the command-line flags alike.
"""
