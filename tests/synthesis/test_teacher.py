"""The teacher LLM path against a tiny OpenAI-compatible server on localhost (real HTTP, no
network): turns it writes are kept only when they state every value; anything else falls back
to the template. The edge labeler parses one-word verdicts."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import pytest

from prove_jax.synthesis.graph import Edge, ToolNode
from prove_jax.synthesis.teacher import ChatClient, TeacherLabeler
from tests.chat_server import ChatHandler, serve
from tests.synthesis.common import config, run


class _Handler(ChatHandler):
    mode = "echo"  # echo: repeat the prompt (it states every value); junk: say "OK"
    seen: ClassVar[list[dict]] = []

    def reply(self, path: str, body: dict, headers: dict) -> dict:
        type(self).seen.append({"path": path, "body": body})
        prompt = body["messages"][-1]["content"]
        if "Answer with one word" in prompt:
            text = "implicit." if "->" in prompt else "none"
        else:
            text = prompt if type(self).mode == "echo" else "OK"
        return {"content": text}


@pytest.fixture
def endpoint():
    server, url = serve(_Handler)
    _Handler.seen = []
    yield url
    server.shutdown()


def test_teacher_verbalizer_end_to_end(tmp_path, graph_cache, endpoint):
    _Handler.mode = "echo"
    result = run(config(tmp_path, graph_cache, num_examples=8, teacher_url=endpoint,
                        teacher_model="fake-teacher"))
    assert len(result.kept) == 8
    assert result.stats["throughput"]["verbalizer"] == "teacher:fake-teacher"
    assert _Handler.seen and all(s["path"] == "/v1/chat/completions" for s in _Handler.seen)
    assert all(s["body"]["model"] == "fake-teacher" for s in _Handler.seen)
    requests = [t for c in result.kept for t in c.user_turns if "role-playing a user" in t]
    assert requests  # the teacher's (echoed) text became user turns


def test_teacher_turns_missing_values_fall_back_to_the_template(tmp_path, graph_cache,
                                                               endpoint):
    _Handler.mode = "junk"
    result = run(config(tmp_path, graph_cache, num_examples=8, teacher_url=endpoint + "/v1",
                        teacher_model="fake-teacher"))
    assert result.stats["throughput"]["teacher_fallbacks"] > 0
    assert not any(t == "OK" for c in result.kept for t in c.user_turns)


def test_labeler_verdicts(endpoint):
    node = ToolNode("s", "a", "A tool.", {}, {}, True)

    async def go():
        client = ChatClient(endpoint, "m")
        labeler = TeacherLabeler(client)
        try:
            with_via = await labeler(node, node, Edge("s.a", "s.b", "explicit", "schema",
                                                      (("x_id", "x_id"),)))
            without = await labeler(node, node, Edge("s.a", "s.b", "implicit", "requires"))
        finally:
            await client.aclose()
        return with_via, without

    assert asyncio.run(go()) == ("implicit", "none")
