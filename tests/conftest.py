"""Session-wide hooks of the whole suite: :mod:`skip_guard` (no silent skips)."""

from skip_guard import pytest_sessionfinish, pytest_terminal_summary

__all__ = ["pytest_sessionfinish", "pytest_terminal_summary"]
