# syntax=docker/dockerfile:1
# One image for every τ-Emotion-Bench service; each service picks its command:
#   taue serve env DOMAIN | taue serve simulator | taue serve scorer | taue run ...
# Build:  docker build -t tau-emotion-bench .
# What it installs is exactly docker/requirements.lock (pyproject.toml's dependencies and the `s3` extra,
# pinned with hashes; regenerate with `taue deploy lock`). Another set of extras is another lock:
#   taue deploy lock --extra gcs --out docker/requirements-gcs.lock
#   docker build --build-arg TAUE_LOCK=docker/requirements-gcs.lock -t tau-emotion-bench .
# No model weights are baked in: LLM backends are reached over an OpenAI-compatible endpoint (vLLM).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/taue
WORKDIR /src
# Dependencies first, so that a code-only change reuses this layer: the lock's versions and files (each
# checked against its sha256), nothing resolved at build time; the build backend comes from it too.
ARG TAUE_LOCK=docker/requirements.lock
COPY ${TAUE_LOCK} /tmp/requirements.lock
RUN /opt/taue/bin/pip install --require-hashes -r /tmp/requirements.lock
COPY . .
# The project alone: a regular (not editable) install, so the venv holds code and data (policies,
# tasks) and /src is left behind; `pip check` fails the build where the lock lacks a dependency.
RUN /opt/taue/bin/pip install --no-deps --no-build-isolation /src \
    && /opt/taue/bin/pip check \
    && /opt/taue/bin/taue domains

FROM ${PYTHON_IMAGE} AS runtime
ARG TAUE_UID=10001
# /secrets: where docker compose mounts the named volume `secrets` (`taue deploy secrets /secrets` writes
# the admin token and the signing key into it); a fresh named volume takes this folder's owner and mode,
# so the services, all uid 10001 on a read-only root filesystem, can write and read it and nobody else.
RUN groupadd --system --gid "${TAUE_UID}" taue \
    && useradd --system --uid "${TAUE_UID}" --gid taue --home-dir /tmp --no-create-home \
       --shell /usr/sbin/nologin taue \
    && mkdir -p /runs /secrets && chown "${TAUE_UID}:${TAUE_UID}" /runs /secrets && chmod 0700 /secrets
COPY --from=build /opt/taue /opt/taue
# HOME=/tmp and no bytecode writes: the services run on a read-only root filesystem with /tmp writable.
ENV PATH=/opt/taue/bin:$PATH \
    HOME=/tmp \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /runs
VOLUME ["/runs"]
USER ${TAUE_UID}:${TAUE_UID}
# MCP (8000-8004), domain control (9000), simulator (50051), scorer (50052).
EXPOSE 8000 9000 50051 50052
# No init (tini) on purpose: taue runs as PID 1, and every long-running command installs its own
# SIGTERM/SIGINT handlers (PID 1 gets no signal it has no handler for): `taue serve ...` stops
# cleanly, `taue run` deletes its in-flight episodes and exits 143 (tests/runner/test_signals.py runs
# it as PID 1 in a PID namespace). Its `--workers` processes die with it, and it starts no other
# process that could leave zombies for PID 1 to reap.
ENTRYPOINT ["taue"]
CMD ["--help"]
