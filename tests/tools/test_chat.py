"""Chat formats: template rendering, tool-call parsing, and token deltas that keep the policy's
sampled tokens verbatim (real Qwen3 tokenizer; a self-made Granite-shaped one)."""

from __future__ import annotations

import json

import pytest

from prove_jax.tools.chat import ChatFormat, ChatTemplateError, ParsedCall, family_for
from tests.rollout.tokenizers import granite_tokenizer, hermes_tokenizer, qwen3_tokenizer

TOOLS = [
    {"type": "function", "function": {
        "name": "get_wallet", "description": "The user's wallet.",
        "parameters": {"type": "object", "properties": {}}}},
    {"type": "function", "function": {
        "name": "send_payment", "description": "Send money to a contact.",
        "parameters": {"type": "object", "required": ["contact_id", "amount"], "properties": {
            "contact_id": {"type": "string"}, "amount": {"type": "number"},
            "note": {"type": "string"}}}}},
]
NAMES = ["get_wallet", "send_payment"]
MESSAGES = [{"role": "system", "content": "You help with payments."},
            {"role": "user", "content": "Pay p_002 12.5 for lunch, then show my wallet."}]


@pytest.fixture(scope="module", params=["qwen3", "qwen2", "granite", "hermes"])
def chat(request) -> ChatFormat:
    tok = {"granite": granite_tokenizer, "hermes": hermes_tokenizer}.get(
        request.param, qwen3_tokenizer)()
    return ChatFormat(tok, request.param)


@pytest.fixture(scope="module")
def qwen3() -> ChatFormat:
    return ChatFormat(qwen3_tokenizer(), "qwen3")


def call_text(chat: ChatFormat, name: str, args: dict) -> str:
    body = json.dumps({"name": name, "arguments": args})
    return f"<tool_call>{body}</tool_call>" if chat.family == "granite" \
        else f"<tool_call>\n{body}\n</tool_call>"


def test_prompt_is_the_tokenizers_own_template(chat):
    ids = chat.tokenizer.apply_chat_template(MESSAGES, tools=TOOLS, add_generation_prompt=True,
                                             return_dict=False)
    assert chat.prompt_tokens(MESSAGES, TOOLS) == list(ids)
    text = chat.decode(chat.prompt_tokens(MESSAGES, TOOLS))
    assert "<tools>" in text and '"send_payment"' in text and text.count(chat.eot_text) == 2
    if chat.family != "granite":  # no second BOS / special token added by encoding
        assert not text.startswith("<|endoftext|>")


def test_parse_single_parallel_and_plain_answers(chat):
    one = chat.parse(call_text(chat, "send_payment", {"contact_id": "p_002", "amount": 12.5})
                     + chat.eot_text, NAMES)
    assert one.calls == (ParsedCall("send_payment", {"contact_id": "p_002", "amount": 12.5},
                                    raw=one.calls[0].raw),)
    two = chat.parse("Doing both.\n" + call_text(chat, "get_wallet", {}) + "\n"
                     + call_text(chat, "send_payment", {"contact_id": "p_003", "amount": 1}),
                     NAMES)
    assert [c.name for c in two.calls] == ["get_wallet", "send_payment"]
    assert all(c.ok for c in two.calls) and two.content == "Doing both."
    plain = chat.parse("Your balance is 40.00." + chat.eot_text, NAMES)
    assert plain.calls == () and plain.content == "Your balance is 40.00."


def test_parse_granite_list_and_object_forms(chat):
    listed = chat.parse('<tool_call>[{"name": "get_wallet", "arguments": {}}, '
                        '{"name": "send_payment", "arguments": {"contact_id": "p_1", '
                        '"amount": 2}}]</tool_call>', NAMES)
    assert [(c.name, c.ok) for c in listed.calls] == [("get_wallet", True), ("send_payment", True)]
    compact = chat.parse('<tool_call>{"name": "get_wallet", "arguments": {}}</tool_call>', NAMES)
    assert [(c.name, c.arguments) for c in compact.calls] == [("get_wallet", {})]


@pytest.mark.parametrize(("body", "kind", "error"), [
    ('{"name": "send_payment", "arguments": {"amount": 1', "malformed_call", "not valid JSON"),
    ('{"arguments": {"amount": 1}}', "malformed_call", "no 'name'"),
    ('{"name": 7, "arguments": {}}', "malformed_call", "no 'name'"),
    ('"send_payment"', "malformed_call", "must be a JSON object"),
    ("[]", "malformed_call", "empty list"),
    ('{"name": "send_payment", "arguments": [1, 2]}', "schema_error", "must be a JSON object"),
    ('{"name": "send_payment", "arguments": "amount=1"}', "schema_error", "got str"),
    ('{"name": "teleport", "arguments": {}}', "unknown_tool", "unknown tool 'teleport'"),
])
def test_malformed_calls_become_errors_not_exceptions(qwen3, body, kind, error):
    turn = qwen3.parse(f"<tool_call>\n{body}\n</tool_call><|im_end|>", NAMES)
    (call,) = turn.calls
    assert not call.ok and call.kind == kind and error in call.error


def test_parse_edge_cases(qwen3):
    encoded = json.dumps(json.dumps({"contact_id": "p_2", "amount": 3}))
    as_string = qwen3.parse('<tool_call>\n{"name": "send_payment", "arguments": '
                            + encoded + "}\n</tool_call>", NAMES)
    assert as_string.calls[0].ok and as_string.calls[0].arguments == {"contact_id": "p_2",
                                                                      "amount": 3}
    no_args = qwen3.parse('<tool_call>\n{"name": "get_wallet"}\n</tool_call>', NAMES)
    assert no_args.calls[0].ok and no_args.calls[0].arguments == {}
    cut = qwen3.parse('<tool_call>\n{"name": "get_wallet", "argu', NAMES)
    assert not cut.calls[0].ok and "unterminated" in cut.calls[0].error
    assert cut.calls[0].kind == "malformed_call"
    mixed = qwen3.parse('<tool_call>\n{"name": "teleport"}\n</tool_call>\n<tool_call>\n'
                        '{"name": "get_wallet", "arguments": {}}\n</tool_call>', NAMES)
    assert [(c.name, c.ok) for c in mixed.calls] == [("teleport", False), ("get_wallet", True)]
    # Qwen3: a call sketched inside <think> is reasoning, not a call.
    thought = qwen3.parse('<think>\nmaybe <tool_call>\n{"name": "get_wallet", "arguments": {}}\n'
                          '</tool_call>?\n</think>\n\nNo call needed.<|im_end|>', NAMES)
    assert thought.calls == ()
    after = qwen3.parse('<think>\nok\n</think>\n\n<tool_call>\n{"name": "get_wallet", '
                        '"arguments": {}}\n</tool_call>', NAMES)
    assert [c.name for c in after.calls] == ["get_wallet"]


def play(chat: ChatFormat, turns: list[tuple[str, list[dict]]]):
    """Append sampled turns and deltas like an episode does; return tokens, history, sampled."""
    history = [dict(m) for m in MESSAGES]
    tokens = chat.prompt_tokens(history, TOOLS)
    spans = []
    for text, new in turns:
        sampled = chat.encode(text + chat.eot_text)
        assert sampled[-1] == chat.eot_id
        spans.append((len(tokens), sampled))
        tokens += sampled
        history.append({"role": "assistant", "content": text})
        tokens += chat.continuation(history, new, TOOLS)
        history.extend(new)
    return tokens, history, spans


def test_delta_plus_sampled_equals_the_template_rendering(chat):
    pay = call_text(chat, "send_payment", {"contact_id": "p_002", "amount": 12.5, "note": "lunch"})
    wallet = call_text(chat, "get_wallet", {})
    turns = [
        (pay, [chat.tool_message('{"payment_id": "pay_0100", "status": "completed"}')]),
        (wallet + "\n" + call_text(chat, "get_wallet", {"x": 1}),  # two parallel results
         [chat.tool_message('{"balance": 87.5}'), chat.tool_message("Error: unknown arg x")]),
        ("Paid 12.50; your balance is 87.50.", [{"role": "user", "content": "Thanks! Again?"}]),
        (pay, [chat.tool_message('{"payment_id": "pay_0101"}')]),
    ]
    tokens, history, spans = play(chat, turns)
    expected = chat.encode(chat.render(history, TOOLS, add_generation_prompt=True))
    assert tokens == expected
    for start, sampled in spans:  # the sampled tokens sit verbatim where they were appended
        assert tokens[start:start + len(sampled)] == sampled
    # A delta without a generation prompt (the conversation ends after the results).
    end = chat.continuation(history[:-1], history[-1:], TOOLS, add_generation_prompt=False)
    assert chat.decode(end).endswith(chat.eot_text + "\n")


def test_qwen3_think_is_kept_verbatim_where_rerendering_drops_it(qwen3):
    thought = "<think>\nThe user wants a payment; p_002 is the contact.\n</think>\n\n"
    answer = thought + "Paid."
    tokens, history, spans = play(qwen3, [(answer, [{"role": "user", "content": "And now?"}])])
    start, sampled = spans[0]
    assert tokens[start:start + len(sampled)] == sampled
    assert "The user wants a payment" in qwen3.decode(tokens)
    rerendered = qwen3.render(history, TOOLS)
    assert "The user wants a payment" not in rerendered  # the template dropped the thinking
    assert qwen3.encode(rerendered) != tokens
    # Everything but the thinking agrees: removing it from our text gives the re-rendering.
    assert qwen3.decode(tokens).replace(thought, "") == rerendered


def test_continuation_rejects_misuse_and_non_append_only_templates(qwen3):
    with pytest.raises(ValueError, match="must end with the assistant turn"):
        qwen3.continuation(MESSAGES, [{"role": "user", "content": "x"}], TOOLS)

    class Odd:  # closes assistant turns differently depending on what follows
        chat_template = "x"

        def __init__(self, inner):
            self.inner = inner

        def encode(self, text, add_special_tokens=False):
            return self.inner.encode(text, add_special_tokens=add_special_tokens)

        def apply_chat_template(self, messages, **kw):
            text = self.inner.apply_chat_template(messages, **kw)
            return text.replace("<|im_end|>\n<|im_start|>user", "<|im_end|><|im_start|>user")

    odd = ChatFormat(Odd(qwen3_tokenizer()), "qwen3")
    history = [*MESSAGES, {"role": "assistant", "content": "hi"}]
    with pytest.raises(ChatTemplateError, match="not append-only"):
        odd.continuation(history, [{"role": "user", "content": "x"}], TOOLS)


def test_bad_configuration_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown chat family"):
        ChatFormat(qwen3_tokenizer(), "mistral")
    with pytest.raises(ValueError, match="is not one token"):
        ChatFormat(granite_tokenizer(), "qwen3")
    assert family_for("granitemoehybrid") == "granite" and family_for("qwen2") == "qwen2"
    assert family_for("llama") == "hermes"
    with pytest.raises(ValueError, match="no chat family"):
        family_for("mistral")
