"""Package discovery for the one `taue` namespace (pyproject.toml holds everything else).

Each top-level folder is mounted under `taue` (docs/architecture.md); its sub-packages are found by
walking the folder, so a new domain (`envs/<name>/` with an `__init__.py`) needs no edit here.
"""

from setuptools import find_packages, setup

MOUNTS = {
    "taue": "taue",
    "taue.envs": "envs",
    "taue.simulator": "simulator",
    "taue.scorer": "scorer",
    "taue.runner": "agent-runner",
    "taue.proto": "proto",
    "taue.tracer": "tracer",
    "taue.report": "report",
}

packages = [
    name
    for mount, folder in MOUNTS.items()
    for name in [mount, *(f"{mount}.{sub}" for sub in find_packages(folder))]
]

setup(package_dir=MOUNTS, packages=packages)
