#!/usr/bin/env bash
# A Python 3.11 base image made from Debian 12 packages, for an engine that cannot pull
# python:3.11-slim-bookworm (no registry for base images): debootstrap, the host's CA bundle (so that
# pip in the image build trusts a TLS-intercepting proxy the host trusts), `docker import`.
#   docker/local-base.sh [TAG]          (root; needs debootstrap; default TAG local/python:3.11-bookworm)
#   docker build --build-arg PYTHON_IMAGE=local/python:3.11-bookworm -t tau-emotion-bench:latest .
# Variables: TAUE_DEBIAN_MIRROR (default http://deb.debian.org/debian), TAUE_CA_BUNDLE (default the
# host's /etc/ssl/certs/ca-certificates.crt).
set -euo pipefail
tag=${1:-local/python:3.11-bookworm}
mirror=${TAUE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
ca=${TAUE_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
command -v debootstrap >/dev/null || { echo "error: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 2; }
rootfs=$(mktemp -d /var/tmp/taue-base.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3,ca-certificates \
  bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 || { tail -5 "$rootfs.log" >&2; exit 1; }
rm -f "$rootfs.log"
if [ -f "$ca" ]; then
  cp "$ca" "$rootfs/etc/ssl/certs/ca-certificates.crt"
  printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$rootfs/etc/pip.conf"
fi
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
tar -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["python3"]' - "$tag" >/dev/null
echo "imported: $tag"
