"""Compact tool schemas and the Hermes ChatML template's own rendering rules."""

from __future__ import annotations

from prove_jax.tools.compact import compact_schema
from prove_jax.tools.hermes_template import (
    DEFAULT_SYSTEM,
    hermes_chatml_template,
    system_default_of,
)
from tests.rollout.tokenizers import hermes_tokenizer

SEND = {"type": "function", "function": {
    "name": "send_payment", "description": "Send money to a contact.",
    "parameters": {"type": "object", "additionalProperties": False, "required": ["amount"],
                   "properties": {
                       "amount": {"type": "number", "description": "USD", "minimum": 0.01,
                                  "maximum": 5000},
                       "kind": {"type": "string", "enum": ["a", "b"], "default": "a"},
                       "tags": {"type": "array", "maxItems": 3,
                                "items": {"type": "string", "maxLength": 9}}}}}}


def test_compact_schema_keeps_what_a_call_needs_and_drops_validation_detail():
    out = compact_schema(SEND)["function"]
    assert out["name"] == "send_payment" and out["description"] == "Send money to a contact."
    params = out["parameters"]
    assert params == {"type": "object", "required": ["amount"], "properties": {
        "amount": {"type": "number", "description": "USD"},
        "kind": {"type": "string", "enum": ["a", "b"]},
        "tags": {"type": "array", "items": {"type": "string"}}}}
    empty = compact_schema({"type": "function", "function": {
        "name": "get_wallet", "description": "d",
        "parameters": {"type": "object", "properties": {}, "required": []}}})
    assert empty["function"]["parameters"] == {"type": "object", "properties": {}}
    assert SEND["function"]["parameters"]["properties"]["amount"]["minimum"] == 0.01  # untouched


def test_hermes_template_renders_openai_tool_calls_and_groups_tool_results():
    tok = hermes_tokenizer()
    text = tok.apply_chat_template([
        {"role": "user", "content": "pay"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": "send_payment",
                                              "arguments": {"amount": 2}}},
            {"type": "function", "function": {"name": "send_payment",
                                              "arguments": '{"amount": 3}'}}]},
        {"role": "tool", "content": "ok 2"}, {"role": "tool", "content": "ok 3"},
        {"role": "user", "content": "thanks"}], tools=[SEND], tokenize=False)
    assert text.startswith(f"<|im_start|>system\n{DEFAULT_SYSTEM}\n\n# Tools")
    assert ('<|im_start|>assistant\n<tool_call>\n{"name": "send_payment", "arguments": '
            '{"amount": 2}}\n</tool_call>\n<tool_call>\n{"name": "send_payment", "arguments": '
            '{"amount": 3}}\n</tool_call><|im_end|>\n') in text
    assert ("<|im_start|>user\n<tool_response>\nok 2\n</tool_response>\n<tool_response>\nok 3"
            "\n</tool_response><|im_end|>\n<|im_start|>user\nthanks<|im_end|>\n") in text
    assert text.count("<|im_start|>user") == 3


def test_default_system_sentence_comes_from_the_models_own_template():
    smol = ("{% if messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are SmolLM"
            "<|im_end|>\n' }}{% endif %}")
    assert system_default_of(smol) == "You are SmolLM"
    assert system_default_of(None) == DEFAULT_SYSTEM
    assert '"You are \\"quoted\\""' in hermes_chatml_template('You are "quoted"')
