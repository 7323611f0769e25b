"""Package discovery for the one `taue` namespace (pyproject.toml holds everything else).

Each top-level folder is mounted under `taue` by the mapping in `taue/layout.py` (the one copy; it is
run by path, as `taue` is not importable yet); its sub-packages are found by walking the folder, so a
new domain (`envs/<name>/` with an `__init__.py`) needs no edit here.
"""

import runpy

from setuptools import find_packages, setup

MOUNTS: dict[str, str] = runpy.run_path("taue/layout.py")["mounts"]()

packages = [
    name
    for mount, folder in MOUNTS.items()
    for name in [mount, *(f"{mount}.{sub}" for sub in find_packages(folder))]
]

setup(package_dir=MOUNTS, packages=packages)
