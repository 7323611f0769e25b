#!/usr/bin/env bash
# Regenerate the Python stubs of proto/taue/v1/*.proto in place (grpcio-tools pinned in pyproject).
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-.}"
python -m grpc_tools.protoc -I. --python_out="$out" --grpc_python_out="$out" --pyi_out="$out" taue/v1/*.proto
