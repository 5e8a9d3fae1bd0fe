"""Chat formats: prompts through the model's own template, tool-call parsing, token deltas.

Why this file exists: an RL episode is a token sequence that grows by what the policy sampled
and by what the environment answered. Rendering the conversation again from text between turns
would silently change the policy's own tokens (Qwen3's template drops earlier turns' <think>
content; a decode/encode round trip can re-split words), so the sampled tokens would no longer
be the tokens whose log-probs the sampler reported. Instead:

  - the first prompt is rendered once with the tokenizer's own chat template
    (`apply_chat_template(..., tokenize=False)`, then encoded without adding special tokens
    again, since the template already wrote them);
  - after every assistant turn (sampled tokens ending with the end-of-turn token) we append
    only a DELTA: the template is rendered for the conversation with the assistant turn replaced
    by a probe string, and the text after the probe's end-of-turn marker is encoded. The probe
    rendering is checked to be append-only (what the template writes after a closed assistant
    turn is a prefix of what it writes once more messages follow), so the sequence equals what
    the template produces for the whole conversation, modulo the assistant content being the
    sampled tokens verbatim.

Tool calls (REFERENCE.md §6): Qwen3 / Qwen2.5 and the Hermes ChatML template (Llama-family
models imported by launch.import_gguf) write one
`<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>` block per call, several blocks
being parallel calls; Granite 4.x writes `<tool_call>{json}</tool_call>` and older Granite
releases put a JSON list of calls in one block, so both an object and a list are accepted for
every family. A malformed call never raises: it becomes a ParsedCall with an error and a kind
(`malformed_call` when no call can be read from the text, `unknown_tool`, `schema_error`) that
the episode shows the model as a tool error.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["FAMILIES", "ChatFormat", "ChatTemplateError", "ParsedCall", "ParsedTurn",
           "family_for"]


@dataclass(frozen=True)
class _Family:
    eot: str  # the end-of-turn token the policy stops on
    strip_think: bool  # calls written inside <think>…</think> are reasoning, not calls


FAMILIES: dict[str, _Family] = {
    "qwen3": _Family("<|im_end|>", strip_think=True),
    "qwen2": _Family("<|im_end|>", strip_think=False),
    "granite": _Family("<|end_of_text|>", strip_think=False),
    # ChatML with Hermes tool calls: the template launch.import_gguf gives a model whose own
    # template has no tools (SmolLM2; prove_jax.tools.hermes_template)
    "hermes": _Family("<|im_end|>", strip_think=False),
}
_MODEL_TYPES = {"qwen3": "qwen3", "qwen2": "qwen2", "granite": "granite",
                "granitemoehybrid": "granite", "granitemoe": "granite", "llama": "hermes"}
_CALL = re.compile(r"<tool_call>(.*?)(</tool_call>|\Z)", re.DOTALL)
_PROBE = "\u27e6prove:assistant-turn\u27e7"  # stands in for the sampled assistant content


class ChatTemplateError(ValueError):
    """The tokenizer's template cannot be continued by appending (names what broke)."""


def family_for(model_type: str) -> str:
    """The chat family of an HF `config.json` model_type (ValueError if none fits)."""
    try:
        return _MODEL_TYPES[model_type]
    except KeyError:
        raise ValueError(f"no chat family for model_type {model_type!r}; "
                         f"known: {sorted(_MODEL_TYPES)}") from None


@dataclass(frozen=True)
class ParsedCall:
    """One call the model wrote. `error` set means it is not executed; the model reads
    `Error: <error>` as its result. `kind` says what was wrong; the rollout maps it to the
    rewards' outcome (`prove_jax.rollout.trajectory.outcome_of`)."""

    name: str  # "" when no name could be read
    arguments: dict  # {} when no object could be read
    error: str | None = None
    kind: str = "ok"  # ok | malformed_call (no call readable) | unknown_tool | schema_error
    raw: str = ""  # the text inside the tag, for logs

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class ParsedTurn:
    content: str  # the turn's text without the end-of-turn token and tool-call blocks
    calls: tuple[ParsedCall, ...]


class ChatFormat:
    """A tokenizer plus its family: renders prompts, parses calls, computes deltas.

    `template_kwargs` go to every template rendering (e.g. {"enable_thinking": False} for the
    hybrid Qwen3 template)."""

    def __init__(self, tokenizer: Any, family: str,
                 template_kwargs: Mapping[str, Any] | None = None):
        if family not in FAMILIES:
            raise ValueError(f"unknown chat family {family!r}; known: {sorted(FAMILIES)}")
        if not getattr(tokenizer, "chat_template", None):
            raise ValueError(f"tokenizer {type(tokenizer).__name__} has no chat template")
        self.tokenizer, self.family = tokenizer, family
        self.spec = FAMILIES[family]
        self.template_kwargs = dict(template_kwargs or {})
        ids = tokenizer.encode(self.spec.eot, add_special_tokens=False)
        if len(ids) != 1:
            raise ValueError(f"{family}: end-of-turn {self.spec.eot!r} is not one token of this "
                             f"tokenizer (got ids {ids})")
        self.eot_id: int = ids[0]

    @property
    def eot_text(self) -> str:
        return self.spec.eot

    # ------------------------------------------------------------------ text <-> tokens
    def render(self, messages: Sequence[Mapping[str, Any]], tools: Sequence[dict] | None = None,
               add_generation_prompt: bool = True) -> str:
        """The template's text for a conversation (tools listed in the system turn)."""
        return self.tokenizer.apply_chat_template(
            [dict(m) for m in messages], tools=list(tools) if tools else None,
            add_generation_prompt=add_generation_prompt, tokenize=False,
            **self.template_kwargs)

    def encode(self, text: str) -> list[int]:
        """Token ids of rendered text; the template already wrote every special token."""
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def decode(self, tokens: Sequence[int]) -> str:
        return self.tokenizer.decode(list(tokens), skip_special_tokens=False)

    def prompt_tokens(self, messages: Sequence[Mapping[str, Any]],
                      tools: Sequence[dict] | None = None) -> list[int]:
        """The episode's first context: rendered once, ending with the generation prompt."""
        return self.encode(self.render(messages, tools, add_generation_prompt=True))

    # ------------------------------------------------------------------ deltas
    def continuation(self, history: Sequence[Mapping[str, Any]],
                     new: Iterable[Mapping[str, Any]], tools: Sequence[dict] | None = None,
                     add_generation_prompt: bool = True) -> list[int]:
        """Tokens to append after an assistant turn's sampled tokens (which end with the
        end-of-turn token) so that the sequence continues with `new` messages (tool results
        as role "tool", a scripted user turn) and, by default, the next generation prompt.

        `history` ends with that assistant turn; its content is not used (the probe replaces
        it), only its position, so the sampled tokens are never re-rendered."""
        if not history or history[-1].get("role") != "assistant":
            raise ValueError("continuation: history must end with the assistant turn")
        probe = [*history[:-1], {"role": "assistant", "content": _PROBE}]
        closed = self._after_probe(self.render(probe, tools, add_generation_prompt=False))
        full = self._after_probe(self.render(probe + [dict(m) for m in new], tools,
                                             add_generation_prompt))
        if not full.startswith(closed):
            raise ChatTemplateError(
                f"{self.family}: the template is not append-only after an assistant turn: "
                f"{closed!r} alone, but {full[:len(closed) + 20]!r} once messages follow")
        return self.encode(full[len(self.eot_text):])

    def _after_probe(self, text: str) -> str:
        if text.count(_PROBE) != 1:
            raise ChatTemplateError(f"{self.family}: the template did not render the assistant "
                                    "content verbatim exactly once")
        after = text[text.index(_PROBE) + len(_PROBE):]
        if not after.startswith(self.eot_text):
            raise ChatTemplateError(f"{self.family}: the template does not close an assistant "
                                    f"turn with {self.eot_text!r} (got {after[:40]!r})")
        return after

    @staticmethod
    def tool_message(content: str, name: str = "") -> dict:
        """A tool result as the templates take it (role "tool"); the template decides how it is
        shown (Qwen and Granite 4: <tool_response> blocks in a user turn)."""
        return {"role": "tool", "content": content, "name": name}

    # ------------------------------------------------------------------ parsing
    def parse(self, text: str, tool_names: Iterable[str]) -> ParsedTurn:
        """Split a sampled turn (decoded text) into its content and its calls; never raises."""
        names = set(tool_names)
        if self.eot_text in text:
            text = text[:text.index(self.eot_text)]
        body = text
        if self.spec.strip_think and "</think>" in body:
            body = body[body.rindex("</think>") + len("</think>"):]
        calls: list[ParsedCall] = []
        for match in _CALL.finditer(body):
            inner = match.group(1)
            if not match.group(2):
                calls.append(_bad(inner, "unterminated <tool_call> (no </tool_call>)"))
                continue
            calls.extend(_parse_block(inner, names))
        content = _CALL.sub("", text).strip()
        return ParsedTurn(content, tuple(calls))


def _bad(raw: str, error: str, kind: str = "malformed_call", name: str = "") -> ParsedCall:
    return ParsedCall(name, {}, error, kind, raw)


def _parse_block(raw: str, names: set[str]) -> list[ParsedCall]:
    """One <tool_call> block: a call object, or a JSON list of them."""
    text = raw.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        return [_bad(raw, f"tool call is not valid JSON ({err.msg} at char {err.pos}): "
                          f"{text[:200]!r}")]
    if isinstance(obj, list):
        if not obj:
            return [_bad(raw, "tool call is an empty list")]
        return [_parse_call(item, names, raw) for item in obj]
    return [_parse_call(obj, names, raw)]


def _parse_call(obj: Any, names: set[str], raw: str) -> ParsedCall:
    if not isinstance(obj, dict):
        return _bad(raw, f"a tool call must be a JSON object with 'name' and 'arguments', "
                         f"got {type(obj).__name__}")
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return _bad(raw, "tool call has no 'name' (expected {\"name\": ..., \"arguments\": "
                         "{...}})")
    if name not in names:
        return _bad(raw, f"unknown tool {name!r}; available tools: {', '.join(sorted(names))}",
                    kind="unknown_tool", name=name)
    args = obj.get("arguments", {})  # a missing object means no arguments; the tool checks
    if isinstance(args, str):  # some models write the arguments as a JSON string
        with contextlib.suppress(json.JSONDecodeError):
            args = json.loads(args)
    if not isinstance(args, dict):
        return _bad(raw, f"{name}: 'arguments' must be a JSON object, got "
                         f"{type(args).__name__}", kind="schema_error", name=name)
    return ParsedCall(name, args, raw=raw)
