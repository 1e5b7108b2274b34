"""Shared pytest setup."""

import pytest

# The store conformance suite lives in the package; let pytest explain its failed asserts.
pytest.register_assert_rewrite("pulse_core.conformance")
