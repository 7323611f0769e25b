"""The classifier's error type (importable without numpy)."""

from __future__ import annotations


class ClassifierUnavailable(RuntimeError):
    """The requested feature route is not installed; the message says what to install."""
