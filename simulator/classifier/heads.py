"""One classification head: multinomial logistic regression trained by full-batch Adam.

Features are multiplied by one scalar (1 / their overall standard deviation) so that unit-norm
sentence vectors and TF-IDF rows both reach confident logits within the same few steps. Full-batch
updates from zero weights have no randomness, so the same features give the same head.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def softmax(scores: np.ndarray) -> np.ndarray:
    shifted = np.exp(scores - scores.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Head:
    labels: tuple[str, ...]
    scale: float
    weights: np.ndarray  # (features, classes)
    bias: np.ndarray  # (classes,)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        return softmax((features * self.scale) @ self.weights + self.bias)

    def predict(self, features: np.ndarray) -> list[str]:
        return [self.labels[i] for i in self.probabilities(features).argmax(axis=1)]


def train_head(
    features: np.ndarray,
    targets: list[str],
    labels: tuple[str, ...],
    steps: int = 100,
    learning_rate: float = 0.05,
    l2: float = 1e-2,
) -> Head:
    """Softmax regression with an L2 penalty on the weights."""
    scale = float(1 / (features.std() or 1))
    x = features.astype(np.float32) * scale
    index = {label: i for i, label in enumerate(labels)}
    onehot = np.zeros((len(targets), len(labels)), dtype=np.float32)
    onehot[np.arange(len(targets)), [index[t] for t in targets]] = 1.0
    params = [np.zeros((x.shape[1], len(labels)), np.float32), np.zeros(len(labels), np.float32)]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for step in range(1, steps + 1):
        error = (softmax(x @ params[0] + params[1]) - onehot) / len(targets)
        grads = [x.T @ error + l2 * params[0], error.sum(axis=0)]
        for p, g, m, v in zip(params, grads, moments, squares, strict=True):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= learning_rate * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + eps)
    return Head(labels=labels, scale=scale, weights=params[0], bias=params[1])
