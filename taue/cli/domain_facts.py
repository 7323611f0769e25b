"""The figures `taue domains` prints, without building any seed database.

Three caches keep the command under a second (it used to rebuild all ten seed databases, 20-40 s):

- **seed facts** (`seed_facts.json`, committed beside this module): each domain's rows per table and
  database size, with a fingerprint of what the seed is made of (the sources of the generator and the
  tables, the seed). A domain whose fingerprint differs (or an outside domain) builds its seed once and
  keeps the figures in the user cache. Regenerate the committed file after changing a generator:
  `python -m taue.cli.domain_facts`; a test checks it is current.
- **rows** (`domain_rows.json`, committed beside this module, then `domains.json` in the user cache
  dir: `TAUE_CACHE_DIR`, else `$XDG_CACHE_HOME/taue`, else `~/.cache/taue`): every figure of a
  domain, keyed by a digest of every file in its folder and of the shared runtime. When all of them
  match, the command imports no domain at all — on a fresh clone too, from the committed file (the
  same command regenerates it; a test checks it is current).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import os
import pkgutil
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlmodel import SQLModel

    from taue.envs.runtime.domain import Domain

SEED_FACTS_PATH = Path(__file__).resolve().with_name("seed_facts.json")
ROWS_PATH = Path(__file__).resolve().with_name("domain_rows.json")
NOT_DOMAINS = ("runtime", "task_sets")
"""`taue.envs.runtime.discovery.NOT_DOMAINS`, written out so that listing names imports no domain."""
ROWS_FORMAT = 1


def cache_dir() -> Path:
    if explicit := os.environ.get("TAUE_CACHE_DIR"):
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")) / "taue"


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_json(path: Path, data: dict[str, Any]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # a read-only home only costs the next call the same work


# --- seed facts -------------------------------------------------------------------------------------


def seed_modules(domain: Domain) -> list[ModuleType]:
    """The modules the seed is made of: the generator's and the tables', and every module of the
    domain's package or of the shared runtime that they name, transitively."""
    package = domain.generate.__module__.rpartition(".")[0]
    prefixes = (f"{package}.", "taue.envs.runtime.")
    found: dict[str, ModuleType] = {}
    todo = [domain.generate.__module__, *(table.__module__ for table in domain.tables)]
    while todo:
        name = todo.pop()
        module = sys.modules.get(name)
        if name in found or module is None:
            continue
        found[name] = module
        for value in vars(module).values():
            other = value.__name__ if isinstance(value, ModuleType) else getattr(value, "__module__", None)
            if isinstance(other, str) and other.startswith(prefixes) and other not in found:
                todo.append(other)
    return [found[name] for name in sorted(found)]


def _table_name(table: type[SQLModel]) -> str:
    """The table's name: sqlmodel types `__tablename__` as a str or a `declared_attr` function, but a
    domain's tables set it to a str."""
    name = table.__tablename__
    if not isinstance(name, str):
        raise TypeError(f"{table.__name__}.__tablename__ is not a str")
    return name


def seed_fingerprint(domain: Domain) -> str:
    digest = hashlib.sha256(f"{domain.seed}\n".encode())
    digest.update(" ".join(sorted(_table_name(table) for table in domain.tables)).encode())
    for module in seed_modules(domain):
        digest.update(f"\n{module.__name__}\n".encode())
        digest.update(inspect.getsource(module).encode())
    return digest.hexdigest()[:20]


def build_seed_facts(domain: Domain) -> dict[str, Any]:
    """Build the seed database (seconds) and count it."""
    image = domain.seed_image
    return {
        "fingerprint": seed_fingerprint(domain),
        "db_tables": {table: len(rows) for table, rows in sorted(image.row_texts.items())},
        "db_size": len(image.image_bytes),
    }


def seed_facts(domain: Domain) -> dict[str, Any]:
    """`build_seed_facts(domain)`, from the committed file or the user cache when the seed is the same."""
    fingerprint = seed_fingerprint(domain)
    for path in (SEED_FACTS_PATH, cache_dir() / "seed_facts.json"):
        facts = _read_json(path).get(domain.name)
        if isinstance(facts, dict) and facts.get("fingerprint") == fingerprint:
            return facts
    facts = build_seed_facts(domain)
    user = cache_dir() / "seed_facts.json"
    _write_json(user, {**_read_json(user), domain.name: facts})
    return facts


# --- whole rows -------------------------------------------------------------------------------------


def _envs_folder() -> Path:
    import taue.envs

    return Path(next(iter(taue.envs.__path__)))


def folder_domain_names() -> tuple[str, ...] | None:
    """The registered names, found without importing a domain; None when an installed distribution
    registers a domain too (its files are not ours to fingerprint)."""
    if importlib.metadata.entry_points(group="taue.domains"):
        return None
    modules = pkgutil.iter_modules([str(_envs_folder())])
    return tuple(sorted(m.name for m in modules if m.ispkg and m.name not in NOT_DOMAINS))


def folder_fingerprint(folder: Path) -> str:
    """A digest of every file of a domain folder, of the shared runtime and of the seed facts."""
    digest = hashlib.blake2b(digest_size=16)
    runtime = _envs_folder() / "runtime"
    files = [(f"{folder.name}/{p.relative_to(folder)}", p) for p in folder.rglob("*") if p.is_file()]
    files += [(f"runtime/{p.name}", p) for p in runtime.glob("*.py")]
    files += [("seed_facts.json", SEED_FACTS_PATH)]
    for name, path in sorted(files):
        if "__pycache__" in name or name.endswith(".pyc"):
            continue
        digest.update(f"\0{name}\0".encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0missing")
    return digest.hexdigest()


def cached_rows() -> list[dict[str, Any]] | None:
    """Every domain's figures from the user cache, or None when any domain changed since."""
    names = folder_domain_names()
    if not names:
        return None
    sources = [_stored_rows(ROWS_PATH), _stored_rows(cache_dir() / "domains.json")]
    rows = []
    for name in names:
        fingerprint = folder_fingerprint(_envs_folder() / name)
        entry = next((s[name] for s in sources if s.get(name, {}).get("fingerprint") == fingerprint), None)
        if entry is None:
            return None
        rows.append(entry["facts"])
    return rows


def _stored_rows(path: Path) -> dict[str, Any]:
    """name -> {"fingerprint", "facts"} of a rows file; empty when absent or of another format."""
    stored = _read_json(path)
    domains = stored.get("domains") if stored.get("format") == ROWS_FORMAT else None
    return {n: e for n, e in (domains or {}).items() if isinstance(e, dict)}


def remember_rows(rows: list[dict[str, Any]]) -> None:
    """Keep the figures of this project's folder domains for the next call."""
    names = folder_domain_names()
    if not names:
        return
    path = cache_dir() / "domains.json"
    stored = _read_json(path)
    domains = stored.get("domains", {}) if stored.get("format") == ROWS_FORMAT else {}
    for row in rows:
        if row["name"] in names:
            fingerprint = folder_fingerprint(_envs_folder() / row["name"])
            domains[row["name"]] = {"fingerprint": fingerprint, "facts": row}
    _write_json(path, {"format": ROWS_FORMAT, "domains": domains})


def main() -> None:
    """Rebuild every domain's seed and rewrite the committed seed facts, then the committed rows."""
    from taue.cli.commands.domains import domain_facts
    from taue.envs.runtime.discovery import domain_names, get_domain

    facts = {name: build_seed_facts(get_domain(name)) for name in domain_names()}
    SEED_FACTS_PATH.write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {SEED_FACTS_PATH} ({len(facts)} domains)")
    rows = {
        name: {"fingerprint": folder_fingerprint(_envs_folder() / name), "facts": domain_facts(name)}
        for name in domain_names()
    }
    _write_json(ROWS_PATH, {"format": ROWS_FORMAT, "domains": rows})
    print(f"wrote {ROWS_PATH} ({len(rows)} domains)")


if __name__ == "__main__":
    main()
