from taue.proto.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ManifestRequest(_message.Message):
    __slots__ = ("manifest_json",)
    MANIFEST_JSON_FIELD_NUMBER: _ClassVar[int]
    manifest_json: str
    def __init__(self, manifest_json: _Optional[str] = ...) -> None: ...

class SealedManifest(_message.Message):
    __slots__ = ("manifest_json",)
    MANIFEST_JSON_FIELD_NUMBER: _ClassVar[int]
    manifest_json: str
    def __init__(self, manifest_json: _Optional[str] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ("name", "arguments_json", "ok", "output", "writes")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    OK_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    WRITES_FIELD_NUMBER: _ClassVar[int]
    name: str
    arguments_json: str
    ok: bool
    output: str
    writes: bool
    def __init__(self, name: _Optional[str] = ..., arguments_json: _Optional[str] = ..., ok: _Optional[bool] = ..., output: _Optional[str] = ..., writes: _Optional[bool] = ...) -> None: ...

class ExpectedOutcome(_message.Message):
    __slots__ = ("task_id", "state_hash", "outputs", "gold", "transfer_expected")
    TASK_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_HASH_FIELD_NUMBER: _ClassVar[int]
    OUTPUTS_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    TRANSFER_EXPECTED_FIELD_NUMBER: _ClassVar[int]
    task_id: str
    state_hash: str
    outputs: _containers.RepeatedScalarFieldContainer[str]
    gold: _containers.RepeatedCompositeFieldContainer[ToolCall]
    transfer_expected: bool
    def __init__(self, task_id: _Optional[str] = ..., state_hash: _Optional[str] = ..., outputs: _Optional[_Iterable[str]] = ..., gold: _Optional[_Iterable[_Union[ToolCall, _Mapping]]] = ..., transfer_expected: _Optional[bool] = ...) -> None: ...

class ScoreRequest(_message.Message):
    __slots__ = ("domain", "task_id", "final_hash", "transcript", "tool_log", "termination", "expected", "episode_id", "observation_json", "policy_violations", "policy_enforced")
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    TASK_ID_FIELD_NUMBER: _ClassVar[int]
    FINAL_HASH_FIELD_NUMBER: _ClassVar[int]
    TRANSCRIPT_FIELD_NUMBER: _ClassVar[int]
    TOOL_LOG_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    EPISODE_ID_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_JSON_FIELD_NUMBER: _ClassVar[int]
    POLICY_VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    POLICY_ENFORCED_FIELD_NUMBER: _ClassVar[int]
    domain: str
    task_id: str
    final_hash: str
    transcript: _containers.RepeatedCompositeFieldContainer[_common_pb2.ChatMessage]
    tool_log: _containers.RepeatedCompositeFieldContainer[ToolCall]
    termination: _common_pb2.Termination
    expected: ExpectedOutcome
    episode_id: str
    observation_json: str
    policy_violations: _containers.RepeatedScalarFieldContainer[str]
    policy_enforced: bool
    def __init__(self, domain: _Optional[str] = ..., task_id: _Optional[str] = ..., final_hash: _Optional[str] = ..., transcript: _Optional[_Iterable[_Union[_common_pb2.ChatMessage, _Mapping]]] = ..., tool_log: _Optional[_Iterable[_Union[ToolCall, _Mapping]]] = ..., termination: _Optional[_Union[_common_pb2.Termination, str]] = ..., expected: _Optional[_Union[ExpectedOutcome, _Mapping]] = ..., episode_id: _Optional[str] = ..., observation_json: _Optional[str] = ..., policy_violations: _Optional[_Iterable[str]] = ..., policy_enforced: _Optional[bool] = ...) -> None: ...

class RewardBreakdown(_message.Message):
    __slots__ = ("reward", "termination", "db_match", "outputs_found", "diagnostics_json", "integrity_json", "policy_violations", "policy_enforced")
    class OutputsFoundEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: bool
        def __init__(self, key: _Optional[str] = ..., value: _Optional[bool] = ...) -> None: ...
    REWARD_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    DB_MATCH_FIELD_NUMBER: _ClassVar[int]
    OUTPUTS_FOUND_FIELD_NUMBER: _ClassVar[int]
    DIAGNOSTICS_JSON_FIELD_NUMBER: _ClassVar[int]
    INTEGRITY_JSON_FIELD_NUMBER: _ClassVar[int]
    POLICY_VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    POLICY_ENFORCED_FIELD_NUMBER: _ClassVar[int]
    reward: int
    termination: _common_pb2.Termination
    db_match: bool
    outputs_found: _containers.ScalarMap[str, bool]
    diagnostics_json: str
    integrity_json: str
    policy_violations: _containers.RepeatedScalarFieldContainer[str]
    policy_enforced: bool
    def __init__(self, reward: _Optional[int] = ..., termination: _Optional[_Union[_common_pb2.Termination, str]] = ..., db_match: _Optional[bool] = ..., outputs_found: _Optional[_Mapping[str, bool]] = ..., diagnostics_json: _Optional[str] = ..., integrity_json: _Optional[str] = ..., policy_violations: _Optional[_Iterable[str]] = ..., policy_enforced: _Optional[bool] = ...) -> None: ...
