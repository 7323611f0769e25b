"""The scorer as a gRPC service (`taue serve scorer`): rewards from the episode's observed end and
the task's expected outcome, both brought by the caller from the domain server."""

from __future__ import annotations

import grpc
from pydantic import ValidationError

from taue.proto.serving import GrpcServer
from taue.proto.v1 import scorer_pb2, scorer_pb2_grpc
from taue.scorer.scoring import score_episode
from taue.scorer.wire import (
    breakdown_message,
    score_request_from_message,
)


class ScorerService(scorer_pb2_grpc.ScorerServicer):
    async def Score(self, request, context):
        try:
            breakdown = score_episode(score_request_from_message(request))
        except (ValueError, ValidationError) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid score request: {exc}")
        return breakdown_message(breakdown)


def build_server(host: str = "127.0.0.1", port: int = 0) -> GrpcServer:
    server = GrpcServer(host, port)
    scorer_pb2_grpc.add_ScorerServicer_to_server(ScorerService(), server.server)
    server.add([scorer_pb2.DESCRIPTOR.services_by_name["Scorer"].full_name])
    return server
