"""The scorer as a gRPC service (`taue serve scorer`): rewards from the episode's observed end and
the task's expected outcome, both brought by the caller from the domain server, sealed with the
scorer's signing key when it has one."""

from __future__ import annotations

import grpc
from pydantic import ValidationError

from taue.contracts.integrity import SigningKey
from taue.contracts.run_seal import ManifestBody, seal_manifest
from taue.proto.serving import GrpcServer
from taue.proto.v1 import scorer_pb2, scorer_pb2_grpc
from taue.scorer.scoring import score_and_seal
from taue.scorer.wire import score_request_from_message, scored_message


class ScorerService(scorer_pb2_grpc.ScorerServicer):
    def __init__(self, signing_key: SigningKey | None = None) -> None:
        self.signing_key = signing_key

    async def Score(self, request, context):
        try:
            scored = score_and_seal(score_request_from_message(request), self.signing_key)
        except (ValueError, ValidationError) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid score request: {exc}")
        return scored_message(scored)

    async def SealManifest(self, request, context):
        try:
            body = ManifestBody.model_validate_json(request.manifest_json)
        except ValidationError as exc:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, f"invalid manifest: {exc.errors()[0]['msg']}"
            )
        sealed = seal_manifest(body, self.signing_key)
        return scorer_pb2.SealedManifest(manifest_json=sealed.model_dump_json())


def build_server(
    host: str = "127.0.0.1", port: int = 0, token: str | None = None, signing_key: SigningKey | None = None
) -> GrpcServer:
    """The scorer's gRPC server: calls need `token` (when given); rewards are sealed with `signing_key`."""
    server = GrpcServer(host, port, token)
    scorer_pb2_grpc.add_ScorerServicer_to_server(ScorerService(signing_key), server.server)
    server.add([scorer_pb2.DESCRIPTOR.services_by_name["Scorer"].full_name])
    return server
