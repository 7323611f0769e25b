from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class Termination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERMINATION_UNSPECIFIED: _ClassVar[Termination]
    USER_STOP: _ClassVar[Termination]
    USER_UNSATISFIED: _ClassVar[Termination]
    AGENT_TRANSFER: _ClassVar[Termination]
    MAX_TURNS: _ClassVar[Termination]
    MAX_TOOL_CALLS: _ClassVar[Termination]
    TIMEOUT: _ClassVar[Termination]
    AGENT_ERROR: _ClassVar[Termination]
    INFRA_ERROR: _ClassVar[Termination]
TERMINATION_UNSPECIFIED: Termination
USER_STOP: Termination
USER_UNSATISFIED: Termination
AGENT_TRANSFER: Termination
MAX_TURNS: Termination
MAX_TOOL_CALLS: Termination
TIMEOUT: Termination
AGENT_ERROR: Termination
INFRA_ERROR: Termination

class ChatMessage(_message.Message):
    __slots__ = ("role", "content")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    role: str
    content: str
    def __init__(self, role: _Optional[str] = ..., content: _Optional[str] = ...) -> None: ...

class Usage(_message.Message):
    __slots__ = ("prompt_tokens", "completion_tokens")
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    prompt_tokens: int
    completion_tokens: int
    def __init__(self, prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ...) -> None: ...
