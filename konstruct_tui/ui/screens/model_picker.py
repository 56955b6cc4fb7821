"""/model: pick the provider, model and base URL; see where the key comes from; save to the config.

The screen asks app/model_servers.py for local servers (Ollama, llama.cpp, LM Studio, vLLM on
127.0.0.1) in a worker and lists their models; choosing one fills the fields. Save returns the
choice; the app writes it (the screen itself writes nothing)."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ...app import REMOTE_CHOICES as REMOTE
from ...app import USUAL_PORTS, LocalServer, ModelChoice, detect_local_servers, key_source
from ...untrusted_text import neutralise
from ..untrusted import plain


class ModelPicker(ModalScreen[ModelChoice | None]):
    DEFAULT_CSS = """
    ModelPicker { align: center middle; }
    ModelPicker > #model-dialog { width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1; }
    ModelPicker #model-title { text-style: bold; color: $accent; }
    ModelPicker #model-servers { height: auto; max-height: 8; }
    ModelPicker #model-fields { height: auto; max-height: 7; }
    ModelPicker .field { height: 1; margin-top: 1; }
    ModelPicker .field Label { width: 10; }
    ModelPicker .field Input, ModelPicker .field Select { width: 1fr; }
    ModelPicker #model-key { color: $text-muted; }
    ModelPicker #model-problem { color: $error; }
    ModelPicker #model-answers { height: auto; align-horizontal: center; }
    ModelPicker #model-answers Button { margin: 0 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, current: ModelChoice | None = None, *, detect: bool = True) -> None:
        super().__init__()
        self.current = current or REMOTE[0]
        self.detect = detect
        self.choices: list[ModelChoice] = list(REMOTE)

    def compose(self) -> ComposeResult:
        usual = ", ".join(f"{name} {port}" for name, port in USUAL_PORTS)
        with Vertical(id="model-dialog"):
            yield Static("Model  (enter on a server fills the fields · ctrl+s saves · esc cancels)", id="model-title")
            yield Static(f"looking for local servers on 127.0.0.1 ({usual})…", id="model-detected")
            yield OptionList(*self._options([]), id="model-servers")
            with VerticalScroll(id="model-fields"):
                with Horizontal(classes="field"):
                    yield Label("provider")
                    yield Select([("openai (any OpenAI-compatible server)", "openai"), ("openai-responses (OpenAI Responses API)", "openai-responses"),
                                  ("anthropic", "anthropic")],
                                 value=self.current.provider, allow_blank=False, id="model-provider", compact=True)
                with Horizontal(classes="field"):
                    yield Label("model")
                    yield Input(self.current.model, id="model-name", compact=True)
                with Horizontal(classes="field"):
                    yield Label("base URL")
                    yield Input(self.current.base_url or "", placeholder="the provider's own (leave empty)", id="model-url", compact=True)
                with Horizontal(classes="field"):
                    yield Label("reasoning")
                    yield Input(self.current.reasoning, placeholder="low | medium | high | a token budget (empty: the server's default)",
                                id="model-reasoning", compact=True)
            yield Static(id="model-key")
            yield Static(id="model-problem")
            with Horizontal(id="model-answers"):
                yield Button("Save (ctrl+s)", id="model-save", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="model-cancel", compact=True)

    def on_mount(self) -> None:
        self._show_key()
        self.query_one("#model-servers", OptionList).focus()
        if self.detect:
            self._detect()

    @work(thread=True, exit_on_error=False, group="detect", name="local model servers")
    def _detect(self) -> list[LocalServer]:
        return detect_local_servers()

    def on_worker_state_changed(self, event) -> None:  # type: ignore[no-untyped-def]
        if event.worker.group != "detect" or not event.worker.is_finished:
            return
        servers: list[LocalServer] = event.worker.result or []
        self.show_servers(servers)

    def show_servers(self, servers: list[LocalServer]) -> None:
        found = ", ".join(f"{s.name} at {s.base_url}" for s in servers)
        self.query_one("#model-detected", Static).update(
            f"found on this machine: {plain(found, keep_layout=False)}" if servers else "no local server answered on 127.0.0.1 (Ollama 11434, llama.cpp 8080, LM Studio 1234, vLLM 8000)"
        )
        options = self.query_one("#model-servers", OptionList)
        options.clear_options()
        options.add_options(self._options(servers))
        options.highlighted = 0

    def _options(self, servers: list[LocalServer]) -> list[Option]:
        self.choices = []
        shown: list[Option] = []
        for server in servers:
            for model in server.models or ("(type the model name)",):
                self.choices.append(ModelChoice("openai", model if server.models else "", server.base_url))
                shown.append(Option(Content.assemble(neutralise(f"{server.name} · {model}  ", keep_layout=False), (server.base_url, "dim"))))
        for remote in REMOTE:
            self.choices.append(remote)
            shown.append(Option(Content.assemble(f"{remote.provider} · {remote.model}  ", ("the provider's own endpoint, needs a key", "dim"))))
        return shown

    @on(OptionList.OptionSelected, "#model-servers")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        choice = self.choices[event.option_index]
        self.query_one("#model-provider", Select).value = choice.provider
        self.query_one("#model-name", Input).value = choice.model
        self.query_one("#model-url", Input).value = choice.base_url or ""
        self.query_one("#model-name", Input).focus()

    @on(Input.Changed)
    @on(Select.Changed)
    def _show_key(self) -> None:
        try:
            choice = self.choice
        except NoMatches:  # a field reports its first value before the others are mounted
            return
        self.query_one("#model-key", Static).update(f"key: {key_source(choice.provider, choice.base_url)}")

    @property
    def choice(self) -> ModelChoice:
        provider = self.query_one("#model-provider", Select).value
        return ModelChoice(str(provider), self.query_one("#model-name", Input).value.strip(),
                           self.query_one("#model-url", Input).value.strip() or None, self.query_one("#model-reasoning", Input).value.strip())

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save() if event.button.id == "model-save" else self.action_cancel()

    def action_save(self) -> None:
        problem = self.choice.problem()
        if problem:
            self.query_one("#model-problem", Static).update(plain(problem))
            return
        self.dismiss(self.choice)

    def action_cancel(self) -> None:
        self.dismiss(None)
