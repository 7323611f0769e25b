# syntax=docker/dockerfile:1
# One image for every τ-Emotion-Bench service; each service picks its command:
#   taue serve env DOMAIN | taue serve simulator | taue serve scorer | taue run ...
# Build:  docker build -t tau-emotion-bench .
# Extras: docker build --build-arg TAUE_EXTRAS=emotion -t tau-emotion-bench .
# No model weights are baked in: LLM backends are reached over an OpenAI-compatible endpoint (vLLM).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/taue
WORKDIR /src
# Dependencies first, so that a code-only change reuses this layer.
COPY pyproject.toml README.md ./
RUN /opt/taue/bin/python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && /opt/taue/bin/pip install -r /tmp/requirements.txt
COPY . .
ARG TAUE_EXTRAS=""
# A regular (not editable) install: the venv holds code and data (policies, tasks), /src is left behind.
RUN /opt/taue/bin/pip install "/src${TAUE_EXTRAS:+[$TAUE_EXTRAS]}" \
    && /opt/taue/bin/taue domains

FROM ${PYTHON_IMAGE} AS runtime
ARG TAUE_UID=10001
RUN groupadd --system --gid "${TAUE_UID}" taue \
    && useradd --system --uid "${TAUE_UID}" --gid taue --home-dir /tmp --no-create-home \
       --shell /usr/sbin/nologin taue \
    && mkdir -p /runs && chown "${TAUE_UID}:${TAUE_UID}" /runs
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
ENTRYPOINT ["taue"]
CMD ["--help"]
