from taue.proto.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class EmotionCondition(_message.Message):
    __slots__ = ("family", "emotion", "politeness", "urgency", "trust", "instruction")
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    EMOTION_FIELD_NUMBER: _ClassVar[int]
    POLITENESS_FIELD_NUMBER: _ClassVar[int]
    URGENCY_FIELD_NUMBER: _ClassVar[int]
    TRUST_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    family: str
    emotion: str
    politeness: str
    urgency: str
    trust: str
    instruction: str
    def __init__(self, family: _Optional[str] = ..., emotion: _Optional[str] = ..., politeness: _Optional[str] = ..., urgency: _Optional[str] = ..., trust: _Optional[str] = ..., instruction: _Optional[str] = ...) -> None: ...

class GoalTarget(_message.Message):
    __slots__ = ("tool", "arguments_json")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    tool: str
    arguments_json: str
    def __init__(self, tool: _Optional[str] = ..., arguments_json: _Optional[str] = ...) -> None: ...

class Goal(_message.Message):
    __slots__ = ("id", "kind", "request", "evidence", "targets", "refusal_expected", "refusal_reason")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    TARGETS_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_EXPECTED_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_REASON_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    request: str
    evidence: _containers.RepeatedScalarFieldContainer[str]
    targets: _containers.RepeatedCompositeFieldContainer[GoalTarget]
    refusal_expected: bool
    refusal_reason: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., request: _Optional[str] = ..., evidence: _Optional[_Iterable[str]] = ..., targets: _Optional[_Iterable[_Union[GoalTarget, _Mapping]]] = ..., refusal_expected: _Optional[bool] = ..., refusal_reason: _Optional[_Iterable[str]] = ...) -> None: ...

class UserScenario(_message.Message):
    __slots__ = ("persona", "reason_for_call", "known_info", "volunteered", "unknown_info", "discoverable", "goals", "preferences")
    class KnownInfoEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class DiscoverableEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    PERSONA_FIELD_NUMBER: _ClassVar[int]
    REASON_FOR_CALL_FIELD_NUMBER: _ClassVar[int]
    KNOWN_INFO_FIELD_NUMBER: _ClassVar[int]
    VOLUNTEERED_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_INFO_FIELD_NUMBER: _ClassVar[int]
    DISCOVERABLE_FIELD_NUMBER: _ClassVar[int]
    GOALS_FIELD_NUMBER: _ClassVar[int]
    PREFERENCES_FIELD_NUMBER: _ClassVar[int]
    persona: str
    reason_for_call: str
    known_info: _containers.ScalarMap[str, str]
    volunteered: _containers.RepeatedScalarFieldContainer[str]
    unknown_info: _containers.RepeatedScalarFieldContainer[str]
    discoverable: _containers.ScalarMap[str, str]
    goals: _containers.RepeatedCompositeFieldContainer[Goal]
    preferences: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, persona: _Optional[str] = ..., reason_for_call: _Optional[str] = ..., known_info: _Optional[_Mapping[str, str]] = ..., volunteered: _Optional[_Iterable[str]] = ..., unknown_info: _Optional[_Iterable[str]] = ..., discoverable: _Optional[_Mapping[str, str]] = ..., goals: _Optional[_Iterable[_Union[Goal, _Mapping]]] = ..., preferences: _Optional[_Iterable[str]] = ...) -> None: ...

class UserTask(_message.Message):
    __slots__ = ("task_id", "domain", "scenario", "instruction", "emotion", "tools")
    class ToolsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TASK_ID_FIELD_NUMBER: _ClassVar[int]
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    SCENARIO_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    EMOTION_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    task_id: str
    domain: str
    scenario: UserScenario
    instruction: str
    emotion: EmotionCondition
    tools: _containers.ScalarMap[str, str]
    def __init__(self, task_id: _Optional[str] = ..., domain: _Optional[str] = ..., scenario: _Optional[_Union[UserScenario, _Mapping]] = ..., instruction: _Optional[str] = ..., emotion: _Optional[_Union[EmotionCondition, _Mapping]] = ..., tools: _Optional[_Mapping[str, str]] = ...) -> None: ...

class UserOptions(_message.Message):
    __slots__ = ("backend", "model", "base_url", "temperature", "enable_thinking")
    BACKEND_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    ENABLE_THINKING_FIELD_NUMBER: _ClassVar[int]
    backend: str
    model: str
    base_url: str
    temperature: float
    enable_thinking: bool
    def __init__(self, backend: _Optional[str] = ..., model: _Optional[str] = ..., base_url: _Optional[str] = ..., temperature: _Optional[float] = ..., enable_thinking: _Optional[bool] = ...) -> None: ...

class StartSessionRequest(_message.Message):
    __slots__ = ("task", "seed", "options")
    TASK_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    task: UserTask
    seed: int
    options: UserOptions
    def __init__(self, task: _Optional[_Union[UserTask, _Mapping]] = ..., seed: _Optional[int] = ..., options: _Optional[_Union[UserOptions, _Mapping]] = ...) -> None: ...

class StartSessionResponse(_message.Message):
    __slots__ = ("session_id", "first_message")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    first_message: str
    def __init__(self, session_id: _Optional[str] = ..., first_message: _Optional[str] = ...) -> None: ...

class Notification(_message.Message):
    __slots__ = ("tool", "arguments_json", "output")
    TOOL_FIELD_NUMBER: _ClassVar[int]
    ARGUMENTS_JSON_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    tool: str
    arguments_json: str
    output: str
    def __init__(self, tool: _Optional[str] = ..., arguments_json: _Optional[str] = ..., output: _Optional[str] = ...) -> None: ...

class RespondRequest(_message.Message):
    __slots__ = ("session_id", "agent_message", "notifications", "successful_calls")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    AGENT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    NOTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    SUCCESSFUL_CALLS_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    agent_message: str
    notifications: _containers.RepeatedCompositeFieldContainer[Notification]
    successful_calls: int
    def __init__(self, session_id: _Optional[str] = ..., agent_message: _Optional[str] = ..., notifications: _Optional[_Iterable[_Union[Notification, _Mapping]]] = ..., successful_calls: _Optional[int] = ...) -> None: ...

class SatisfactionState(_message.Message):
    __slots__ = ("patience", "goals_confirmed", "events", "reason", "policy_violations")
    PATIENCE_FIELD_NUMBER: _ClassVar[int]
    GOALS_CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    POLICY_VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    patience: float
    goals_confirmed: _containers.RepeatedScalarFieldContainer[str]
    events: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    policy_violations: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, patience: _Optional[float] = ..., goals_confirmed: _Optional[_Iterable[str]] = ..., events: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ..., policy_violations: _Optional[_Iterable[str]] = ...) -> None: ...

class RespondResponse(_message.Message):
    __slots__ = ("message", "done", "termination", "state")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    message: str
    done: bool
    termination: _common_pb2.Termination
    state: SatisfactionState
    def __init__(self, message: _Optional[str] = ..., done: _Optional[bool] = ..., termination: _Optional[_Union[_common_pb2.Termination, str]] = ..., state: _Optional[_Union[SatisfactionState, _Mapping]] = ...) -> None: ...

class EndSessionRequest(_message.Message):
    __slots__ = ("session_id", "notifications")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    NOTIFICATIONS_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    notifications: _containers.RepeatedCompositeFieldContainer[Notification]
    def __init__(self, session_id: _Optional[str] = ..., notifications: _Optional[_Iterable[_Union[Notification, _Mapping]]] = ...) -> None: ...

class EndSessionResponse(_message.Message):
    __slots__ = ("usage", "policy_violations")
    USAGE_FIELD_NUMBER: _ClassVar[int]
    POLICY_VIOLATIONS_FIELD_NUMBER: _ClassVar[int]
    usage: _common_pb2.Usage
    policy_violations: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, usage: _Optional[_Union[_common_pb2.Usage, _Mapping]] = ..., policy_violations: _Optional[_Iterable[str]] = ...) -> None: ...
