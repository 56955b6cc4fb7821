"""What every tool is: a typed input model (the source of its JSON schema), a frozen result, and a
`mutating` flag that defaults to True, so a tool that forgets to say is gated like a writer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, get_args, get_origin

from pydantic import BaseModel, ConfigDict

from ..workspace import EditRun, Workspace, WriteJournal

if TYPE_CHECKING:
    from ..commands import Cancellation, PolicyConfig
    from ..sandbox import SandboxSettings
    from .run_command import GrantCheck
    from .graph_access import GraphAccess


class ToolError(Exception):
    """Told to the model as the tool's result (and by the CLI as one line, exit 2). Anything else a
    tool raises is a bug."""


class ToolInput(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass
class ToolContext:
    """What a tool call may use. `run` spans one agent run (or one CLI call) for the edit guards."""

    workspace: Workspace
    run: EditRun = field(default_factory=EditRun)
    journal: WriteJournal | None = None
    killed: Callable[[], bool] = lambda: False  # the kill switch, asked between the entries of a batch
    graph: GraphAccess | None = None  # the session's CodeGraph; None: a headless call (see graph_access)
    # What run_command consults; all None for the person's own call (`konstruct tool`):
    trust: GrantCheck | None = None  # the run's grants (a TrustSession)
    cancellation: Cancellation | None = None  # the kill switch's handle on child process groups
    command_policy: PolicyConfig | None = None  # None: the project's stored command policy
    sandbox: SandboxSettings | None = None  # settings for this run only; None: the project's own
    sandbox_abi: int | None = None  # lowers the Landlock ABI used (tests, `KONSTRUCT_SANDBOX_ABI`)


@dataclass(frozen=True)
class ToolResult:
    tool: str
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return self.payload


InputT = TypeVar("InputT", bound=ToolInput)


class Tool(Generic[InputT]):
    name: ClassVar[str]
    description: ClassVar[str]
    Input: ClassVar[type[ToolInput]]  # the model `Tool[Model]` names, unless the class sets its own
    mutating: ClassVar[bool] = True

    def __init_subclass__(cls, *, name: str | None = None, mutating: bool | None = None, **kwargs: Any) -> None:
        """`class ReadCode(Tool[ReadCodeInput], name="read_code", mutating=False):` with the class's
        docstring as the description the model reads (its words joined by single spaces), unless the
        class computes one itself."""
        super().__init_subclass__(**kwargs)
        if name is not None:
            cls.name = name
        if mutating is not None:
            cls.mutating = mutating
        if "description" not in cls.__dict__ and cls.__doc__:
            cls.description = " ".join(cls.__doc__.split())
        if "Input" in cls.__dict__:
            return
        for base in getattr(cls, "__orig_bases__", ()):
            model = get_args(base)[0] if get_origin(base) is Tool and get_args(base) else None
            if isinstance(model, type) and issubclass(model, ToolInput):
                cls.Input = model

    def run(self, params: InputT, context: ToolContext) -> ToolResult:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def schema(cls) -> dict[str, Any]:
        return cls.Input.model_json_schema()
