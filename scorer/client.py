"""gRPC client of the scorer service; the runner's only way to get a reward."""

from __future__ import annotations

import grpc

from taue.contracts.run_seal import ManifestBody, SignedManifest
from taue.proto.serving import DEFAULT_DEADLINE, channel, wait_until_serving
from taue.proto.v1 import scorer_pb2, scorer_pb2_grpc
from taue.scorer.scoring import Scored, ScoreRequest
from taue.scorer.wire import score_request_message, scored_from_message

RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.RESOURCE_EXHAUSTED,
    grpc.StatusCode.CANCELLED,  # a server stopping cancels the calls it is serving
}


class ScorerCallError(RuntimeError):
    def __init__(self, method: str, error: grpc.aio.AioRpcError) -> None:
        super().__init__(f"scorer {method}: {error.code().name}: {error.details()}")
        self.retryable = error.code() in RETRYABLE


class ScorerClient:
    def __init__(self, address: str, deadline: float = DEFAULT_DEADLINE, token: str | None = None) -> None:
        self.address = address
        self.deadline = deadline
        self._channel = channel(address, token)
        self._stub = scorer_pb2_grpc.ScorerStub(self._channel)

    async def wait_ready(self, timeout: float = 30.0) -> None:
        await wait_until_serving(self._channel, timeout)

    async def score(self, request: ScoreRequest) -> Scored:
        """The reward breakdown, and the sealed observation when the request carried one."""
        try:
            message = await self._stub.Score(score_request_message(request), timeout=self.deadline)
        except grpc.aio.AioRpcError as exc:
            raise ScorerCallError("Score", exc) from None
        return scored_from_message(message)

    async def seal_manifest(self, body: ManifestBody) -> SignedManifest:
        """The run's manifest, stamped and signed by the scorer (unsigned when it holds no key)."""
        request = scorer_pb2.ManifestRequest(manifest_json=body.model_dump_json())
        try:
            message = await self._stub.SealManifest(request, timeout=self.deadline)
        except grpc.aio.AioRpcError as exc:
            raise ScorerCallError("SealManifest", exc) from None
        return SignedManifest.model_validate_json(message.manifest_json)

    async def close(self) -> None:
        await self._channel.close()
