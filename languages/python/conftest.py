"""Where the tests find what they compare with (set by scripts/test-languages.js)."""
import os
import pathlib

import pytest


@pytest.fixture
def dist() -> pathlib.Path:
    """The committed dist/ of the TypeScript app (main.ts)."""
    return pathlib.Path(os.environ["NODE_REPORTER_DIST"])


@pytest.fixture
def typescript_agent() -> pathlib.Path:
    """agent.k8s.yaml as languages/typescript/agent.ts synthesizes it."""
    return pathlib.Path(os.environ["NODE_REPORTER_TS_AGENT"])


@pytest.fixture
def typescript_quick_start() -> pathlib.Path:
    """agents.k8s.yaml as examples/quick-start.ts synthesizes it."""
    return pathlib.Path(os.environ["NODE_REPORTER_TS_QUICK_START"])
