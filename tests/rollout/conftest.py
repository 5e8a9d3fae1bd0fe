"""Fixtures every rollout test shares: the asyncio backend for anyio tests, and the Qwen3 chat
format over the real Qwen3 tokenizer."""

from __future__ import annotations

import pytest

from prove_jax.tools.chat import ChatFormat
from tests.rollout.tokenizers import qwen3_tokenizer


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def chat() -> ChatFormat:
    return ChatFormat(qwen3_tokenizer(), "qwen3")
