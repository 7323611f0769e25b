"""The `Termination` enum of `v1/common.proto` and the contracts' termination names, both ways."""

from __future__ import annotations

from taue.proto.v1 import common_pb2

TERMINATIONS = {
    "user_stop": common_pb2.USER_STOP,
    "user_unsatisfied": common_pb2.USER_UNSATISFIED,
    "agent_transfer": common_pb2.AGENT_TRANSFER,
    "max_turns": common_pb2.MAX_TURNS,
    "max_tool_calls": common_pb2.MAX_TOOL_CALLS,
    "timeout": common_pb2.TIMEOUT,
    "agent_error": common_pb2.AGENT_ERROR,
    "infra_error": common_pb2.INFRA_ERROR,
}
TERMINATION_NAMES = {value: name for name, value in TERMINATIONS.items()}
