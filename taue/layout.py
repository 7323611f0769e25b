"""Where each part of the `taue` namespace lives in the repository: the one copy of the folder mapping.

setup.py runs this file by path at build time (`runpy`, before `taue` is importable), so it imports
nothing; the installed package ships it, so code reads the mapping as `taue.layout.mounts()`. Every
other place that names the folders is checked against it by a test (CONTRIBUTING.md, "The folder
mapping").
"""

_MOUNTS = {
    "taue": "taue",
    "taue.envs": "envs",
    "taue.simulator": "simulator",
    "taue.scorer": "scorer",
    "taue.runner": "agent-runner",
    "taue.proto": "proto",
    "taue.tracer": "tracer",
    "taue.report": "report",
}


def mounts() -> dict[str, str]:
    """package -> its folder, relative to the repository root; a fresh copy, the caller's to change."""
    return dict(_MOUNTS)
