"""A ChatML chat template that renders tools in the Hermes form, for models whose own template
has none (SmolLM2's ChatML template drops `tools` and cannot show a tool result).

The form is the one the Qwen2.5/Qwen3 families use and `prove_jax.tools.chat` parses:
  - the tools' JSON signatures, one per line, inside <tools></tools> in the system turn;
  - each call as `<tool_call>\\n{"name": ..., "arguments": {...}}\\n</tool_call>` in the
    assistant turn (OpenAI-style `tool_calls` on a message are rendered the same way);
  - consecutive tool results as <tool_response> blocks inside one user turn.
Every turn closes with `<|im_end|>\\n`, so the text after a closed assistant turn is a prefix of
the text once more messages follow (what `ChatFormat.continuation` checks).
"""

from __future__ import annotations

import re

__all__ = ["DEFAULT_SYSTEM", "hermes_chatml_template", "system_default_of"]

DEFAULT_SYSTEM = "You are a helpful assistant."

# {system} is filled in by hermes_chatml_template (Jinja braces are doubled for str.format).
_TEMPLATE = """\
{{%- if messages and messages[0]['role'] == 'system' -%}}
{{%- set system = messages[0]['content'] -%}}{{%- set rest = messages[1:] -%}}
{{%- else -%}}
{{%- set system = {system} -%}}{{%- set rest = messages -%}}
{{%- endif -%}}
{{{{- '<|im_start|>system\\n' + system -}}}}
{{%- if tools -%}}
{{{{- '\\n\\n# Tools\\n\\nYou may call one or more functions to help with the user query. The \
available functions, one JSON signature per line, are inside <tools></tools>:\\n<tools>' -}}}}
{{%- for tool in tools -%}}{{{{- '\\n' + (tool | tojson) -}}}}{{%- endfor -%}}
{{{{- '\\n</tools>\\n\\nTo call a function, write its name and arguments as a JSON object \
inside <tool_call></tool_call> tags:\\n<tool_call>\\n{{"name": <function-name>, "arguments": \
<args-json-object>}}\\n</tool_call>' -}}}}
{{%- endif -%}}
{{{{- '<|im_end|>\\n' -}}}}
{{%- for message in rest -%}}
{{%- if message['role'] == 'tool' -%}}
{{%- if loop.first or rest[loop.index0 - 1]['role'] != 'tool' -%}}\
{{{{- '<|im_start|>user' -}}}}{{%- endif -%}}
{{{{- '\\n<tool_response>\\n' + message['content'] + '\\n</tool_response>' -}}}}
{{%- if loop.last or rest[loop.index0 + 1]['role'] != 'tool' -%}}\
{{{{- '<|im_end|>\\n' -}}}}{{%- endif -%}}
{{%- elif message['role'] == 'assistant' -%}}
{{{{- '<|im_start|>assistant\\n' + (message['content'] or '') -}}}}
{{%- for call in message.get('tool_calls') or [] -%}}
{{%- set fn = call['function'] if call['function'] is defined else call -%}}
{{%- if loop.first and message['content'] -%}}{{{{- '\\n' -}}}}{{%- endif -%}}
{{%- if not loop.first -%}}{{{{- '\\n' -}}}}{{%- endif -%}}
{{{{- '<tool_call>\\n{{"name": ' + (fn['name'] | tojson) + ', "arguments": ' -}}}}
{{%- if fn['arguments'] is string -%}}{{{{- fn['arguments'] -}}}}\
{{%- else -%}}{{{{- fn['arguments'] | tojson -}}}}{{%- endif -%}}
{{{{- '}}\\n</tool_call>' -}}}}
{{%- endfor -%}}
{{{{- '<|im_end|>\\n' -}}}}
{{%- else -%}}
{{{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' -}}}}
{{%- endif -%}}
{{%- endfor -%}}
{{%- if add_generation_prompt -%}}{{{{- '<|im_start|>assistant\\n' -}}}}{{%- endif -%}}
"""


def hermes_chatml_template(default_system: str = DEFAULT_SYSTEM) -> str:
    """The Jinja template, with `default_system` as the system turn when none is given."""
    import json

    return _TEMPLATE.format(system=json.dumps(default_system))


def system_default_of(template: str | None) -> str:
    """The default system sentence a ChatML template writes when the conversation has none
    (SmolLM2: "You are a helpful AI assistant named SmolLM, trained by Hugging Face")."""
    found = re.search(r"<\|im_start\|>system\n(.*?)<\|im_end\|>", template or "", re.DOTALL)
    return found.group(1) if found else DEFAULT_SYSTEM
