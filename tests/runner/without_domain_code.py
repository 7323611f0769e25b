"""`python tests/runner/without_domain_code.py ARGS…` runs `taue ARGS…` in a process where importing
a domain's code (`taue.envs.<anything but runtime>`) fails.

Every blocked attempt is also appended to the file named by $TAUE_BLOCKED_LOG, so that an import
error some code catches and swallows is still seen by the test.
"""

from __future__ import annotations

import importlib.abc
import os
import runpy
import sys

SHARED = "taue.envs.runtime"


class BlockDomainCode(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.startswith("taue.envs.") and name != SHARED and not name.startswith(SHARED + "."):
            log = os.environ.get("TAUE_BLOCKED_LOG")
            if log:
                with open(log, "a", encoding="utf-8") as file:
                    file.write(name + "\n")
            raise ImportError(f"domain code is blocked in this process: {name}")
        return None


if __name__ == "__main__":
    sys.meta_path.insert(0, BlockDomainCode())
    sys.argv = ["taue", *sys.argv[1:]]
    runpy.run_module("taue", run_name="__main__", alter_sys=True)
