"""The scorer as a gRPC service (`taue serve scorer`): it owns the tasks and replays ground truth."""

from __future__ import annotations

import grpc
from pydantic import ValidationError

from taue.proto.serving import GrpcServer
from taue.proto.v1 import scorer_pb2, scorer_pb2_grpc
from taue.scorer.scoring import Scorer
from taue.scorer.wire import (
    breakdown_message,
    score_request_from_message,
)


class ScorerService(scorer_pb2_grpc.ScorerServicer):
    def __init__(self, scorer: Scorer | None = None) -> None:
        self.scorer = scorer or Scorer()

    async def Score(self, request, context):
        try:
            score_request = score_request_from_message(request)
            breakdown = await self.scorer.score(score_request)
        except KeyError as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc).strip("'\""))
        except (ValueError, ValidationError) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"invalid score request: {exc}")
        return breakdown_message(breakdown)


def build_server(host: str = "127.0.0.1", port: int = 0) -> GrpcServer:
    server = GrpcServer(host, port)
    scorer_pb2_grpc.add_ScorerServicer_to_server(ScorerService(), server.server)
    server.add([scorer_pb2.DESCRIPTOR.services_by_name["Scorer"].full_name])
    return server
