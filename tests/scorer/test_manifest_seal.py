"""`Scorer.SealManifest` over gRPC: the scorer stamps and signs a run's manifest with its key, needs
the admin token like every call, and refuses a body that is not a manifest."""

from __future__ import annotations

import grpc
import pytest

from taue.contracts.integrity import SigningKey
from taue.contracts.run_seal import ManifestBody, plan_digest
from taue.proto.serving import channel
from taue.proto.v1 import scorer_pb2, scorer_pb2_grpc
from taue.scorer.client import ScorerCallError, ScorerClient
from taue.scorer.service import build_server

TOKEN = "manifest-seal-token"
BODY = ManifestBody(
    run_id="r1",
    settings={"agent": "oracle", "domains": ["airline"], "trials": 1},
    planned=[("airline-001", 0)],
    whole_plan_sha256=plan_digest([("airline-001", 0)]),
)


async def test_the_scorer_seals_a_manifest_with_its_key_and_the_token() -> None:
    key = SigningKey.random()
    server = build_server(token=TOKEN, signing_key=key)
    await server.start()
    client = ScorerClient(server.address, token=TOKEN)
    try:
        sealed = await client.seal_manifest(BODY)
        assert sealed.key_id == key.id and sealed.sealed_at and sealed.signature_problem(key) is None
        assert sealed.run_id == "r1" and sealed.planned == [("airline-001", 0)]
        forged = sealed.model_copy(update={"planned": []})
        assert "does not match its signature" in str(forged.signature_problem(key))
        assert "another key" in str(sealed.signature_problem(SigningKey.random()))
        stub = scorer_pb2_grpc.ScorerStub(channel(server.address, "wrong"))
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.SealManifest(
                scorer_pb2.ManifestRequest(manifest_json=BODY.model_dump_json()), timeout=10
            )
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        good = scorer_pb2_grpc.ScorerStub(channel(server.address, TOKEN))
        with pytest.raises(grpc.aio.AioRpcError) as bad:
            await good.SealManifest(scorer_pb2.ManifestRequest(manifest_json='{"run_id": 1}'), timeout=10)
        assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "invalid manifest" in str(
            bad.value.details()
        )
    finally:
        await client.close()
        await server.stop()


async def test_a_scorer_without_a_key_seals_unsigned_and_a_dead_one_is_an_error() -> None:
    server = build_server(token=TOKEN)
    await server.start()
    client = ScorerClient(server.address, token=TOKEN)
    try:
        sealed = await client.seal_manifest(BODY)
        assert sealed.signature is None and sealed.key_id is None and sealed.sealed_at
    finally:
        await client.close()
        await server.stop()
    dead = ScorerClient(server.address, token=TOKEN, deadline=2)
    try:
        with pytest.raises(ScorerCallError, match="SealManifest"):
            await dead.seal_manifest(BODY)
    finally:
        await dead.close()
