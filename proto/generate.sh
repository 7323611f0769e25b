#!/usr/bin/env bash
# Regenerate the Python stubs of proto/v1/*.proto (grpcio-tools pinned in pyproject).
# The folder is the Python package `taue.proto`, so protoc sees it as `taue/proto/`: the stubs then
# import each other as `taue.proto.v1.*`. The protobuf package stays `taue.v1` (the wire names).
# With an argument, the stubs are written under that folder instead (as v1/*.py).
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-.}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
files=()
for proto in v1/*.proto; do files+=("taue/proto/$proto"); done
python -m grpc_tools.protoc -Itaue/proto=. --python_out="$scratch" --grpc_python_out="$scratch" \
  --pyi_out="$scratch" "${files[@]}"
mkdir -p "$out/v1"
cp "$scratch"/taue/proto/v1/*.py "$scratch"/taue/proto/v1/*.pyi "$out/v1/"
