"""One endpoint configuration for every model call: agent role (FDEGYM_*) and env role (FDEGYM_LLM_*)."""

import pytest

from fdegym_env.llm import Endpoint, make_client


def test_agent_and_env_roles_read_their_own_variables():
    environ = {"FDEGYM_MODEL": "agent-m", "FDEGYM_BASE_URL": "https://a.example/v1", "FDEGYM_API_KEY": "ka",
               "FDEGYM_LLM_MODEL": "env-m", "FDEGYM_LLM_BASE_URL": "https://e.example/v1/", "FDEGYM_LLM_API_KEY": "ke"}
    a = Endpoint.resolve("agent", environ=environ)
    e = Endpoint.resolve("env", environ=environ)
    assert (a.model, a.base_url, a.api_key) == ("agent-m", "https://a.example/v1", "ka")
    assert (e.model, e.base_url, e.api_key) == ("env-m", "https://e.example/v1", "ke")


def test_explicit_arguments_win_and_key_files_are_read(tmp_path):
    kf = tmp_path / "key"
    kf.write_text("sk-from-file\n")
    ep = Endpoint.resolve("env", model="m", base_url="https://x.example/v1", api_key_file=kf,
                          environ={"FDEGYM_LLM_API_KEY": "ignored-when-a-file-is-passed"})
    assert ep.api_key == "sk-from-file"
    ep = Endpoint.resolve("env", model="m", base_url="https://x.example/v1",
                          environ={"FDEGYM_LLM_API_KEY_FILE": str(kf)})
    assert ep.api_key == "sk-from-file"


def test_openai_fallbacks_and_local_servers():
    ep = Endpoint.resolve("agent", model="m", environ={"OPENAI_BASE_URL": "https://o.example/v1", "OPENAI_API_KEY": "o"})
    assert (ep.base_url, ep.api_key) == ("https://o.example/v1", "o")
    local = Endpoint.resolve("env", model="m", base_url="http://localhost:8000/v1", environ={})
    assert local.is_local and local.api_key == "EMPTY"


@pytest.mark.parametrize("kwargs, needle", [
    ({"role": "agent", "environ": {}}, "FDEGYM_MODEL"),
    ({"role": "env", "model": "m", "base_url": "https://remote.example/v1", "environ": {}}, "FDEGYM_LLM_API_KEY"),
    ({"role": "judge", "environ": {}}, "expected one of"),
])
def test_errors_say_what_to_set(kwargs, needle):
    role = kwargs.pop("role")
    with pytest.raises(ValueError, match=needle):
        Endpoint.resolve(role, **kwargs)


def test_empty_key_file_is_an_error(tmp_path):
    kf = tmp_path / "key"
    kf.write_text("\n")
    with pytest.raises(ValueError, match="is empty"):
        Endpoint.resolve("agent", model="m", api_key_file=kf, environ={})


def test_make_client_builds_an_openai_client_for_the_endpoint():
    pytest.importorskip("openai")
    ep = Endpoint.resolve("env", model="m", base_url="http://127.0.0.1:9/v1", environ={})
    client = make_client(ep, timeout=5)
    assert str(client.base_url).rstrip("/") == "http://127.0.0.1:9/v1" and client.api_key == "EMPTY"


def test_every_model_caller_goes_through_the_endpoint():
    """No module outside fdegym_env/llm builds an openai client or reads a key variable itself."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    offenders = []
    for p in [*root.joinpath("fdegym_env").rglob("*.py"), *root.joinpath("agents").rglob("*.py")]:
        if "llm" in p.relative_to(root).parts[:2] and p.parent.name == "llm":
            continue
        text = p.read_text(encoding="utf-8")
        if "openai.OpenAI(" in text or '"FDEGYM_API_KEY"' in text or '"FDEGYM_LLM_API_KEY"' in text:
            offenders.append(str(p.relative_to(root)))
    assert offenders == []
