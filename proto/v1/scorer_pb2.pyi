from taue.proto.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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

class ScoreRequest(_message.Message):
    __slots__ = ("domain", "task_id", "final_hash", "transcript", "tool_log", "termination")
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    TASK_ID_FIELD_NUMBER: _ClassVar[int]
    FINAL_HASH_FIELD_NUMBER: _ClassVar[int]
    TRANSCRIPT_FIELD_NUMBER: _ClassVar[int]
    TOOL_LOG_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    domain: str
    task_id: str
    final_hash: str
    transcript: _containers.RepeatedCompositeFieldContainer[_common_pb2.ChatMessage]
    tool_log: _containers.RepeatedCompositeFieldContainer[ToolCall]
    termination: _common_pb2.Termination
    def __init__(self, domain: _Optional[str] = ..., task_id: _Optional[str] = ..., final_hash: _Optional[str] = ..., transcript: _Optional[_Iterable[_Union[_common_pb2.ChatMessage, _Mapping]]] = ..., tool_log: _Optional[_Iterable[_Union[ToolCall, _Mapping]]] = ..., termination: _Optional[_Union[_common_pb2.Termination, str]] = ...) -> None: ...

class RewardBreakdown(_message.Message):
    __slots__ = ("reward", "termination", "db_match", "outputs_found", "diagnostics_json")
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
    reward: int
    termination: _common_pb2.Termination
    db_match: bool
    outputs_found: _containers.ScalarMap[str, bool]
    diagnostics_json: str
    def __init__(self, reward: _Optional[int] = ..., termination: _Optional[_Union[_common_pb2.Termination, str]] = ..., db_match: _Optional[bool] = ..., outputs_found: _Optional[_Mapping[str, bool]] = ..., diagnostics_json: _Optional[str] = ...) -> None: ...

class EpisodeOutcome(_message.Message):
    __slots__ = ("task_id", "domain", "trial", "family", "reward", "termination", "condition", "politeness", "urgency", "trust")
    TASK_ID_FIELD_NUMBER: _ClassVar[int]
    DOMAIN_FIELD_NUMBER: _ClassVar[int]
    TRIAL_FIELD_NUMBER: _ClassVar[int]
    FAMILY_FIELD_NUMBER: _ClassVar[int]
    REWARD_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    CONDITION_FIELD_NUMBER: _ClassVar[int]
    POLITENESS_FIELD_NUMBER: _ClassVar[int]
    URGENCY_FIELD_NUMBER: _ClassVar[int]
    TRUST_FIELD_NUMBER: _ClassVar[int]
    task_id: str
    domain: str
    trial: int
    family: str
    reward: int
    termination: _common_pb2.Termination
    condition: str
    politeness: str
    urgency: str
    trust: str
    def __init__(self, task_id: _Optional[str] = ..., domain: _Optional[str] = ..., trial: _Optional[int] = ..., family: _Optional[str] = ..., reward: _Optional[int] = ..., termination: _Optional[_Union[_common_pb2.Termination, str]] = ..., condition: _Optional[str] = ..., politeness: _Optional[str] = ..., urgency: _Optional[str] = ..., trust: _Optional[str] = ...) -> None: ...

class SummarizeRequest(_message.Message):
    __slots__ = ("outcomes",)
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    outcomes: _containers.RepeatedCompositeFieldContainer[EpisodeOutcome]
    def __init__(self, outcomes: _Optional[_Iterable[_Union[EpisodeOutcome, _Mapping]]] = ...) -> None: ...

class Metrics(_message.Message):
    __slots__ = ("episodes", "tasks", "trials", "avg_reward", "avg_at_k", "pass_hat_k", "at_least_k_of_n", "unsatisfied_rate", "terminations", "by_domain", "by_family", "headline", "neutral", "emotion_delta", "by_politeness", "by_urgency", "by_trust")
    class PassHatKEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    class AtLeastKOfNEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    class TerminationsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class ByDomainEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Metrics
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Metrics, _Mapping]] = ...) -> None: ...
    class ByFamilyEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Metrics
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Metrics, _Mapping]] = ...) -> None: ...
    class ByPolitenessEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Metrics
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Metrics, _Mapping]] = ...) -> None: ...
    class ByUrgencyEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Metrics
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Metrics, _Mapping]] = ...) -> None: ...
    class ByTrustEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: Metrics
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[Metrics, _Mapping]] = ...) -> None: ...
    EPISODES_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    TRIALS_FIELD_NUMBER: _ClassVar[int]
    AVG_REWARD_FIELD_NUMBER: _ClassVar[int]
    AVG_AT_K_FIELD_NUMBER: _ClassVar[int]
    PASS_HAT_K_FIELD_NUMBER: _ClassVar[int]
    AT_LEAST_K_OF_N_FIELD_NUMBER: _ClassVar[int]
    UNSATISFIED_RATE_FIELD_NUMBER: _ClassVar[int]
    TERMINATIONS_FIELD_NUMBER: _ClassVar[int]
    BY_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    BY_FAMILY_FIELD_NUMBER: _ClassVar[int]
    HEADLINE_FIELD_NUMBER: _ClassVar[int]
    NEUTRAL_FIELD_NUMBER: _ClassVar[int]
    EMOTION_DELTA_FIELD_NUMBER: _ClassVar[int]
    BY_POLITENESS_FIELD_NUMBER: _ClassVar[int]
    BY_URGENCY_FIELD_NUMBER: _ClassVar[int]
    BY_TRUST_FIELD_NUMBER: _ClassVar[int]
    episodes: int
    tasks: int
    trials: int
    avg_reward: float
    avg_at_k: float
    pass_hat_k: _containers.ScalarMap[str, float]
    at_least_k_of_n: _containers.ScalarMap[str, float]
    unsatisfied_rate: float
    terminations: _containers.ScalarMap[str, int]
    by_domain: _containers.MessageMap[str, Metrics]
    by_family: _containers.MessageMap[str, Metrics]
    headline: str
    neutral: Metrics
    emotion_delta: EmotionDelta
    by_politeness: _containers.MessageMap[str, Metrics]
    by_urgency: _containers.MessageMap[str, Metrics]
    by_trust: _containers.MessageMap[str, Metrics]
    def __init__(self, episodes: _Optional[int] = ..., tasks: _Optional[int] = ..., trials: _Optional[int] = ..., avg_reward: _Optional[float] = ..., avg_at_k: _Optional[float] = ..., pass_hat_k: _Optional[_Mapping[str, float]] = ..., at_least_k_of_n: _Optional[_Mapping[str, float]] = ..., unsatisfied_rate: _Optional[float] = ..., terminations: _Optional[_Mapping[str, int]] = ..., by_domain: _Optional[_Mapping[str, Metrics]] = ..., by_family: _Optional[_Mapping[str, Metrics]] = ..., headline: _Optional[str] = ..., neutral: _Optional[_Union[Metrics, _Mapping]] = ..., emotion_delta: _Optional[_Union[EmotionDelta, _Mapping]] = ..., by_politeness: _Optional[_Mapping[str, Metrics]] = ..., by_urgency: _Optional[_Mapping[str, Metrics]] = ..., by_trust: _Optional[_Mapping[str, Metrics]] = ...) -> None: ...

class EmotionDelta(_message.Message):
    __slots__ = ("delta", "ci_low", "ci_high", "pairs")
    DELTA_FIELD_NUMBER: _ClassVar[int]
    CI_LOW_FIELD_NUMBER: _ClassVar[int]
    CI_HIGH_FIELD_NUMBER: _ClassVar[int]
    PAIRS_FIELD_NUMBER: _ClassVar[int]
    delta: float
    ci_low: float
    ci_high: float
    pairs: int
    def __init__(self, delta: _Optional[float] = ..., ci_low: _Optional[float] = ..., ci_high: _Optional[float] = ..., pairs: _Optional[int] = ...) -> None: ...
