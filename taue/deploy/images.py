"""Images by digest: `taue deploy pin` writes an image's digest into the leaderboard overlay's `images:`
(the taue image, the vLLM image), and `taue cluster run` takes an `--image` only with a digest (a tag
only with `--allow-tag`).

A tag can be moved to other contents after a run; a digest names the contents themselves, so a run
(and its run.json, through `TAUE_IMAGE_DIGEST`) says exactly which image served it.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

IMAGE_NAME = "tau-emotion-bench"
"""The taue image's name in the base manifests, which an overlay's `images:` entry rewrites."""
LEADERBOARD_OVERLAY = "k8s/overlays/leaderboard/kustomization.yaml"
PLACEHOLDER_DIGEST = "sha256:" + "0" * 64
"""What the committed overlay holds until `taue deploy pin`: names no image, so nothing unpinned starts."""

_DOMAIN_PART = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*(?::[0-9]+)?"
_PATH_PART = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
REFERENCE = re.compile(
    rf"^(?P<name>(?:{_DOMAIN}/)?{_PATH_PART}(?:/{_PATH_PART})*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?"
    r"(?:@(?P<digest>[a-z0-9]+:\S+))?$"
)
"""The distribution reference grammar: NAME[:TAG][@DIGEST]; the digest is checked on its own."""
SHA256_DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")


class ImageError(ValueError):
    """An image reference that cannot be used: one line for the user."""


class ImageReference(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    tag: str | None = None
    digest: str | None = None

    def __str__(self) -> str:
        return self.name + (f":{self.tag}" if self.tag else "") + (f"@{self.digest}" if self.digest else "")


def parse_reference(text: str) -> ImageReference:
    """NAME[:TAG][@sha256:<64 hex>]; raises ImageError naming what is wrong."""
    match = REFERENCE.match(text.strip())
    if match is None:
        raise ImageError(f"not an image reference (NAME, NAME:TAG or NAME@sha256:DIGEST): {text!r}")
    digest = match["digest"]
    if digest is not None and not SHA256_DIGEST.match(digest):
        raise ImageError(f"the digest must be sha256: and 64 lower-case hex digits, got {digest!r}")
    return ImageReference(name=match["name"], tag=match["tag"], digest=digest)


def pinned_reference(text: str) -> ImageReference:
    """A reference with a real digest (not the overlay's placeholder)."""
    reference = parse_reference(text)
    if reference.digest is None:
        raise ImageError(
            f"{text!r} has no digest: give NAME@sha256:<64 hex> (`docker buildx imagetools inspect "
            "IMAGE:TAG` prints it)"
        )
    if reference.digest == PLACEHOLDER_DIGEST:
        raise ImageError(f"{text!r} has the placeholder digest (all zeros), not an image's")
    return reference


def cluster_image(text: str, allow_tag: bool) -> ImageReference:
    """The `--image` of `taue cluster run`: pinned by digest, or any valid reference with `allow_tag`."""
    try:
        reference = parse_reference(text)
    except ImageError as exc:
        raise ImageError(f"--image: {exc}") from None
    if reference.digest == PLACEHOLDER_DIGEST:
        raise ImageError(f"--image {text!r} has the placeholder digest (all zeros), not an image's")
    if reference.digest is None and not allow_tag:
        raise ImageError(
            f"--image must be pinned by digest, REGISTRY/{IMAGE_NAME}@sha256:<64 hex>, got {text!r} "
            "(--allow-tag accepts a tag, for development)"
        )
    return reference


# --- the overlay ----------------------------------------------------------------------------------


def pin_overlay(root: Path, image: str) -> tuple[Path, str]:
    """Point the leaderboard overlay's `images:` entry for `image` at its name and digest; returns the
    file and the entry's name. The entry is the one whose name ends like the image's (`.../tau-emotion-
    bench@…` pins `tau-emotion-bench`, `vllm/vllm-openai@…` pins `vllm/vllm-openai`); a tag is dropped,
    the digest decides. Comments and everything else stay as written."""
    reference = pinned_reference(image)
    path = root / LEADERBOARD_OVERLAY
    if not path.is_file():
        raise ImageError(f"{path} does not exist (use --root with the project checkout)")
    text = path.read_text(encoding="utf-8")
    entry = _entry_for(reference, overlay_images(text), path)
    updated = _replace_entry(text, entry, reference, path)
    expected = {"name": entry, "newName": reference.name, "digest": reference.digest}
    if overlay_images(updated).get(entry) != expected:
        raise ImageError(f"{path}: the `images:` entry {entry} could not be rewritten")
    path.write_text(updated, encoding="utf-8")
    return path, entry


def overlay_images(text: str) -> dict[str, dict[str, str]]:
    """A kustomization's `images:` entries by name, as kustomize reads them."""
    entries = (yaml.safe_load(text) or {}).get("images") or []
    return {entry["name"]: dict(entry) for entry in entries if "name" in entry}


def _last_part(name: str) -> str:
    return name.rsplit("/", 1)[-1]


def _entry_for(reference: ImageReference, entries: dict[str, dict[str, str]], path: Path) -> str:
    matching = [name for name in entries if _last_part(name) == _last_part(reference.name)]
    if len(matching) != 1:
        known = ", ".join(entries) or "none"
        raise ImageError(f"{path} has no `images:` entry for {reference.name!r} (entries: {known})")
    return matching[0]


def _replace_entry(text: str, entry: str, reference: ImageReference, path: Path) -> str:
    lines = text.split("\n")
    try:
        start = lines.index("images:") + 1
    except ValueError:
        raise ImageError(f"{path} has no top-level `images:` list") from None
    opening = re.compile(rf"^(?P<indent>\s*)- name: {re.escape(entry)}\s*$")
    for index in range(start, len(lines)):
        line = lines[index]
        if line and not line[0].isspace() and not line.startswith("#"):
            break  # the next top-level key: the list ended
        match = opening.match(line)
        if match is None:
            continue
        indent = match["indent"]
        end = index + 1
        while end < len(lines) and lines[end].startswith(f"{indent}  ") and lines[end].strip():
            end += 1
        rendered = [
            f"{indent}- name: {entry}",
            f"{indent}  newName: {reference.name}",
            f"{indent}  digest: {reference.digest}",
        ]
        return "\n".join([*lines[:index], *rendered, *lines[end:]])
    raise ImageError(f"{path}: the entry `- name: {entry}` is not written in block style")
