"""τ²'s LLM user simulator over real HTTP: a tiny OpenAI-compatible server on 127.0.0.1 plays
scripted replies (no network). Two-turn conversations, the user's own tools on telecom, an
unreachable endpoint failing only its episode, and the config fields that select the user."""

from __future__ import annotations

import asyncio
import socket

import pytest
from tau2.data_model.message import AssistantMessage, ToolMessage, UserMessage

from prove_jax.eval.tau2 import run_tau2
from prove_jax.eval.tau2_env import Tau2Env, episode_id, greeting, load_tasks
from prove_jax.eval.tau2_score import score_episode
from prove_jax.eval.tau2_user import (
    OpenAIUser,
    ScriptedUser,
    UserEndpoint,
    user_factory_from_config,
)
from prove_jax.tools.chat import ChatFormat
from tests.chat_server import ChatHandler, serve
from tests.eval.tau2_support import ScriptPolicy, calls_text, play
from tests.rollout.tokenizers import qwen3_tokenizer


@pytest.fixture(scope="module")
def chat() -> ChatFormat:
    return ChatFormat(qwen3_tokenizer(), "qwen3")


# ---------------------------------------------------------------------------- the LLM user
class FakeUserLLM:
    """A /v1/chat/completions server on 127.0.0.1 that answers with scripted messages."""

    def __init__(self, replies: list[dict]):
        self.replies, self.seen = list(replies), []
        fake = self

        class Handler(ChatHandler):
            def reply(self, path: str, body: dict, headers: dict) -> dict:
                fake.seen.append({"path": path, "body": body,
                                  "auth": headers.get("Authorization")})
                return fake.replies.pop(0) if fake.replies else {"content": "###STOP###"}

        self.server, self.url = serve(Handler)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_llm():
    servers = []

    def make(replies):
        servers.append(FakeUserLLM(replies))
        return servers[-1]

    yield make
    for s in servers:
        s.close()


def test_openai_user_drives_a_two_turn_conversation(chat, fake_llm, monkeypatch):
    monkeypatch.setenv("FAKE_USER_KEY", "sekret")
    llm = fake_llm([{"content": "Hi, I'm Emma Kim, user emma_kim_9957. Cancel EHGLP3."},
                    {"content": "I was told I didn't need insurance. Please refund it."},
                    {"content": "Fine. ###STOP###"}])
    task = load_tasks("airline", 1)[0]
    key = episode_id("airline", task)
    policy = ScriptPolicy(chat, {key: [
        [calls_text(("get_reservation_details", {"reservation_id": "EHGLP3"})),
         "I see reservation EHGLP3. It is past the free cancellation window."],
        ["I am sorry, without insurance it cannot be refunded."]]})
    user = OpenAIUser(UserEndpoint(llm.url + "/v1", "fake-user", "FAKE_USER_KEY"))
    env = Tau2Env("airline", task, user)

    rec = play(env, key, policy, chat)
    assert rec.failed is None and rec.finish_reason == "user_done"
    assert len(rec.turns) == 2 and rec.turns[0][0][0]["kind"] == "ok"
    assert [s["path"] for s in llm.seen] == ["/v1/chat/completions"] * 3
    first, second, third = (s["body"] for s in llm.seen)
    assert first["model"] == "fake-user" and first["temperature"] == 0.0
    assert llm.seen[0]["auth"] == "Bearer sekret" and "tools" not in first
    system = first["messages"][0]
    assert system["role"] == "system" and "EHGLP3" in system["content"]
    assert "###STOP###" in system["content"]  # tau2's user guidelines
    assert first["messages"][1:] == [{"role": "user", "content": greeting()}]
    # Roles flipped: the agent's answer is the simulator's user turn; no agent tool calls.
    assert second["messages"][-1] == {"role": "user", "content":
                                      "I see reservation EHGLP3. It is past the free "
                                      "cancellation window."}
    assert second["messages"][-2]["role"] == "assistant"
    assert len(third["messages"]) == 6
    kinds = [type(m).__name__ + ("+calls" if getattr(m, "tool_calls", None) else "")
             for m in env.messages]
    assert kinds == ["AssistantMessage", "UserMessage", "AssistantMessage+calls",
                     "ToolMessage", "AssistantMessage", "UserMessage", "AssistantMessage",
                     "UserMessage"]
    assert score_episode("airline", task, env.messages)["success"]


def test_openai_user_tools_run_on_the_phone(chat, fake_llm):
    llm = fake_llm([{"content": None, "tool_calls": [
        {"id": "u1", "type": "function",
         "function": {"name": "check_status_bar", "arguments": "{}"}}]},
        {"content": "My phone shows airplane mode and I have no data."},
        {"content": "###STOP###"}])
    task = load_tasks("telecom", 1)[0]
    key = episode_id("telecom", task)
    policy = ScriptPolicy(chat, {key: [["Please turn airplane mode off."]]})
    env = Tau2Env("telecom", task, OpenAIUser(UserEndpoint(llm.url, "fake-user")))

    rec = play(env, key, policy, chat)
    assert rec.failed is None and rec.finish_reason == "user_done"
    assert "airplane mode" in rec.messages[2]["content"]  # the first message the model read
    first, second = llm.seen[0]["body"], llm.seen[1]["body"]
    assert "check_status_bar" in {t["function"]["name"] for t in first["tools"]}
    tool_result = second["messages"][-1]
    assert tool_result["role"] == "tool" and tool_result["tool_call_id"] == "u1"
    assert "Airplane Mode" in tool_result["content"]
    calls = [m for m in env.messages if isinstance(m, UserMessage) and m.tool_calls]
    assert calls and calls[0].tool_calls[0].requestor == "user"
    assert any(isinstance(m, ToolMessage) and m.requestor == "user" for m in env.messages)
    assert isinstance(env.messages[0], AssistantMessage)


def test_unreachable_user_endpoint_fails_only_that_episode(chat, fake_llm):
    llm = fake_llm([{"content": "I want to cancel EHGLP3."}, {"content": "###STOP###"}])
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    tasks = load_tasks("airline", 2)
    good, bad = UserEndpoint(llm.url, "fake-user"), UserEndpoint(dead, "fake-user", timeout_s=5)

    def users(domain, task):
        return OpenAIUser(good if task.id == tasks[0].id else bad)

    policy = ScriptPolicy(chat, {episode_id("airline", t): [["I cannot help with that."]]
                                 for t in tasks})
    result = asyncio.run(run_tau2(policy, chat, ["airline"], user_factory=users, limit=2))
    ok, broken = result["rows"]
    assert ok["failed"] is None and ok["finish_reason"] == "user_done"
    assert broken["failed"] is not None and dead in broken["failed"]
    assert broken["reward"] == 0.0 and not broken["success"]
    assert result["categories"]["airline"]["failed"] == 1


def test_model_without_user_endpoint_is_refused_naming_the_field():
    with pytest.raises(ValueError, match=r"eval\.user_base_url"):
        user_factory_from_config({"user_base_url": ""}, "model")
    with pytest.raises(ValueError, match=r"eval\.user_model"):
        user_factory_from_config({"user_base_url": "http://127.0.0.1:9"}, "model")
    task = load_tasks("retail", 1)[0]
    for kind in ("oracle", "oracle_drop_last"):
        assert isinstance(user_factory_from_config({}, kind)("retail", task), ScriptedUser)
    made = user_factory_from_config({"user_base_url": "http://h:1/v1", "user_model": "m"},
                                    "model")("retail", task)
    assert isinstance(made, OpenAIUser) and made.endpoint.url == "http://h:1/v1/chat/completions"
