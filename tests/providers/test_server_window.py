"""The context window a local server says it runs the model with (llama.cpp /props, vLLM
/v1/models, Ollama /api/show), used when the config names none; the config always wins."""

from __future__ import annotations

import json

import httpx

from konstruct_tui.providers import resolve, server_window, with_server_window


def server(routes: dict[tuple[str, str], dict]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        answer = routes.get((request.method, request.url.path))
        return httpx.Response(200, json=answer) if answer is not None else httpx.Response(404, json={"error": "not found"})

    return httpx.MockTransport(handle)


LLAMACPP = {("GET", "/props"): {"default_generation_settings": {"n_ctx": 32768, "params": {"n_predict": -1}}, "total_slots": 1}}
VLLM = {("GET", "/v1/models"): {"object": "list", "data": [{"id": "Qwen/Qwen3-14B", "object": "model", "max_model_len": 40960}]}}
OLLAMA_SHOW = {"parameters": "num_ctx                        16384\nstop                           \"<|im_end|>\"",
               "model_info": {"general.architecture": "qwen3", "qwen3.context_length": 40960}}


def test_llamacpp_props() -> None:
    assert server_window("http://127.0.0.1:8080/v1", "qwen3", server(LLAMACPP)) == 32768


def test_vllm_models_names_max_model_len_for_the_model_asked() -> None:
    assert server_window("http://127.0.0.1:8000/v1", "Qwen/Qwen3-14B", server(VLLM)) == 40960
    assert server_window("http://127.0.0.1:8000/v1", "another", server(VLLM)) is None


VERSION = {("GET", "/api/version"): {"version": "0.12.3"}}


def test_ollama_show_prefers_the_num_ctx_it_runs_with() -> None:
    assert server_window("http://127.0.0.1:11434/v1", "qwen3:14b", server({**VERSION, ("POST", "/api/show"): OLLAMA_SHOW})) == 16384
    without = {**VERSION, ("POST", "/api/show"): {"parameters": "", "model_info": {"qwen3.context_length": 40960}}}
    assert server_window("http://127.0.0.1:11434", "qwen3:14b", server(without)) == 40960


def test_config_wins_and_vendors_are_not_asked() -> None:
    asked: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        asked.append(request.url.path)
        return httpx.Response(200, json=json.loads(json.dumps(LLAMACPP[("GET", "/props")])))

    sized = resolve(provider="openai", model="qwen3", base_url="http://127.0.0.1:8080/v1", environ={}, config={"models": {"qwen3": {"context_tokens": 8192}}})
    assert with_server_window(sized, httpx.MockTransport(handle)).context_tokens == 8192
    vendor = resolve(provider="openai", model="gpt-4.1", environ={"OPENAI_API_KEY": "k"}, config={})
    assert with_server_window(vendor, httpx.MockTransport(handle)).context_tokens is None
    assert asked == []
    local = resolve(provider="openai", model="qwen3", base_url="http://127.0.0.1:8080/v1", environ={}, config={})
    assert with_server_window(local, httpx.MockTransport(handle)).context_tokens == 32768


def test_a_server_that_is_not_ollama_gets_no_post() -> None:
    posted: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            posted.append(request.url.path)  # a chat server's queued reply would be spent
        return httpx.Response(501)

    assert server_window("http://127.0.0.1:9/v1", "m", httpx.MockTransport(handle)) is None and posted == []


def test_a_server_that_says_nothing_leaves_the_default() -> None:
    assert server_window("http://127.0.0.1:1234/v1", "m", server({})) is None
    broken = httpx.MockTransport(lambda r: httpx.Response(200, text="<html>not json</html>"))
    assert server_window("http://127.0.0.1:1234/v1", "m", broken) is None


def llamacpp_props(generation: dict) -> httpx.MockTransport:
    return server({("GET", "/props"): {"default_generation_settings": generation, "total_slots": 1}})


LOCAL = {"provider": "openai", "model": "qwen3", "base_url": "http://127.0.0.1:8080/v1", "environ": {}}


def test_llamacpp_n_predict_is_the_output_limit_where_the_config_names_none() -> None:
    local = resolve(**LOCAL, config={})
    assert local.max_output_tokens == 4096
    newer = with_server_window(local, llamacpp_props({"n_ctx": 32768, "params": {"n_predict": 2048}}))
    assert (newer.context_tokens, newer.max_output_tokens) == (32768, 2048)
    older = with_server_window(local, llamacpp_props({"n_ctx": 32768, "n_predict": 8000}))  # before `params` existed
    assert older.max_output_tokens == 8000


def test_an_unlimited_n_predict_or_a_configured_limit_leaves_the_limit_alone() -> None:
    local = resolve(**LOCAL, config={})
    assert with_server_window(local, llamacpp_props({"n_ctx": 32768, "params": {"n_predict": -1}})).max_output_tokens == 4096
    configured = resolve(**LOCAL, config={"models": {"qwen3": {"max_output_tokens": 1000}}})
    assert with_server_window(configured, llamacpp_props({"n_ctx": 32768, "params": {"n_predict": 2048}})).max_output_tokens == 1000
    per_provider = resolve(**LOCAL, config={"openai": {"max_output_tokens": 4096}})  # the default's own number, named: still the config's
    assert with_server_window(per_provider, llamacpp_props({"n_ctx": 32768, "params": {"n_predict": 2048}})).max_output_tokens == 4096
    for odd in ("2048", True, 0, None, [2048]):
        assert with_server_window(local, llamacpp_props({"n_ctx": 32768, "params": {"n_predict": odd}})).max_output_tokens == 4096, odd


def test_an_output_limit_as_large_as_the_window_keeps_half_for_the_prompt() -> None:
    local = resolve(**LOCAL, config={})
    settings = with_server_window(local, llamacpp_props({"n_ctx": 16384, "params": {"n_predict": 16384}}))
    assert settings.max_output_tokens == 8192 and settings.context_chars() == (16384 - 8192) * 3


async def test_the_servers_limit_goes_out_as_max_tokens() -> None:
    from konstruct_tui.providers import open_provider

    settings = with_server_window(resolve(**LOCAL, config={}), llamacpp_props({"n_ctx": 32768, "params": {"n_predict": 2048}}))
    provider = open_provider(settings)
    _, _, body = provider.request("rules", [], [])  # type: ignore[attr-defined]
    await provider.aclose()  # type: ignore[attr-defined]
    assert body["max_tokens"] == 2048


def test_ollama_num_predict_too() -> None:
    show = {"parameters": "num_ctx 16384\nnum_predict 1024\nstop \"<|im_end|>\"", "model_info": {}}
    local = resolve(provider="openai", model="qwen3:14b", base_url="http://127.0.0.1:11434/v1", environ={}, config={})
    settings = with_server_window(local, server({**VERSION, ("POST", "/api/show"): show}))
    assert (settings.context_tokens, settings.max_output_tokens) == (16384, 1024)
