"""Shared pytest setup."""

import os

import pytest
from hypothesis import settings

# the `openai_server` fixture: a scriptable OpenAI-compatible server on 127.0.0.1
pytest_plugins = ["tests.openai_server"]

# Hypothesis profiles. "ci" (loaded unless HYPOTHESIS_PROFILE or --hypothesis-profile names
# another) keeps hypothesis' usual counts; the game properties run a share of them (see
# tests/strategies.py game_settings). "deep" is for thousands of games:
#   pytest tests/werewolf/test_properties_*.py --hypothesis-profile=deep
settings.register_profile("ci", max_examples=100, print_blob=True)
settings.register_profile("deep", max_examples=500, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The store conformance suite lives in the package; let pytest explain its failed asserts.
pytest.register_assert_rewrite("pulse_core.conformance", "werewolf.conformance")
