"""examples/mcp_client.py (the MCP client of docs/agent-protocol.md) against a real `taue serve env` on
ephemeral loopback ports: it creates an episode, lists the tools and calls one."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.paths import ROOT

EXAMPLE = ROOT / "examples" / "mcp_client.py"


@pytest.fixture(scope="module")
def control_url() -> Iterator[str]:
    env = {**os.environ, "TAUE_ADMIN_TOKEN": ADMIN_TOKEN}
    command = [
        sys.executable,
        "-m",
        "taue",
        "serve",
        "env",
        "retail",
        "--mcp-port",
        "0",
        "--control-port",
        "0",
    ]
    server = subprocess.Popen(command, env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stderr.readline()  # "retail: MCP http://127.0.0.1:P/episodes/<id>/mcp, control URL"
        found = re.search(r"control (http://127\.0\.0\.1:\d+)", line)
        assert found, line
        yield found.group(1)
    finally:
        server.terminate()
        server.wait(30)


def test_the_example_lists_the_tools_and_calls_one(control_url: str) -> None:
    env = {**os.environ, "TAUE_ADMIN_TOKEN": ADMIN_TOKEN}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--control", control_url, "--task", "retail-001"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    header, names, called = done.stdout.strip().splitlines()
    assert re.fullmatch(r"episode [0-9a-f]+ \(task retail-001\): 16 tools", header), header
    assert {"calculate", "get_order_details", "cancel_pending_order"} <= set(names.split(", "))
    assert called.strip() == "calculate 2 * (3 + 4) -> 14.0"


def test_a_wrong_admin_token_is_refused(control_url: str) -> None:
    env = {**os.environ, "TAUE_ADMIN_TOKEN": "not-the-token"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--control", control_url], capture_output=True, text=True, env=env
    )
    assert done.returncode != 0 and "401" in done.stderr


def test_the_docs_show_the_examples_code() -> None:
    example = EXAMPLE.read_text(encoding="utf-8")
    code = example[example.index("import httpx2\n") : example.index('if __name__ == "__main__":')].strip()
    docs = (ROOT / "docs" / "agent-protocol.md").read_text(encoding="utf-8")
    section = docs.split("## An MCP client in Python", 1)[1]
    block = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert code in block
    assert "import mcp" not in example and "taue" not in code  # the SDK only, nothing of ours
