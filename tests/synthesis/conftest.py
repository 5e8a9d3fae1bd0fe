"""One shared synthesized dataset (and graph cache) for the tests that only read it."""

from __future__ import annotations

import pytest

from tests.synthesis.common import config, run


@pytest.fixture(scope="session")
def graph_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("graph_cache")


@pytest.fixture(scope="session")
def dataset(tmp_path_factory, graph_cache):
    """240 kept examples over library I's servers, default knobs."""
    out = tmp_path_factory.mktemp("synth")
    return run(config(out, graph_cache, num_examples=240, test_frac=0.2))
