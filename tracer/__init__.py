"""The Tracer: the one way tasks are made (docs/tracer.md).

Tool graph (`graph`) -> seeded workflows (`walks`) grounded on seed records (`compose`) -> the user's
side written back from the trajectory (`refine`) -> feeling and condition (`conditions`) ->
verification and filtering (`verify`) -> a domain's evaluation set and training split (`build`),
described by `stats`. A domain declares its parts in `envs/<domain>/tracer.py`.
"""
