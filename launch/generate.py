"""Try a checkpoint: print the model's completion of a prompt.

    python -m launch.generate --model_dir=DIR --prompt="Hello" [--chat] [--max_new_tokens=64]
        [--temperature=0] [--top_p=1] [--top_k=0] [--seed=0]

DIR is a Hugging Face checkpoint dir (ours, exported, or downloaded) with its tokenizer. With
--chat the prompt goes through the tokenizer's chat template as one user message.
"""

from __future__ import annotations

from pathlib import Path

from absl import app, flags

from launch.cli import parse_flags, usage_error

_MODEL_DIR = flags.DEFINE_string("model_dir", None, "Hugging Face checkpoint dir", required=True)
_PROMPT = flags.DEFINE_string("prompt", None, "text to complete", required=True)
_CHAT = flags.DEFINE_bool("chat", False, "render the prompt as one user message")
_MAX_NEW = flags.DEFINE_integer("max_new_tokens", 64, "tokens to generate at most")
_TEMPERATURE = flags.DEFINE_float("temperature", 0.0, "0 is greedy")
_TOP_P = flags.DEFINE_float("top_p", 1.0, "nucleus sampling mass")
_TOP_K = flags.DEFINE_integer("top_k", 0, "top-k sampling (0: off)")
_SEED = flags.DEFINE_integer("seed", 0, "sampling seed")
_DTYPE = flags.DEFINE_string("dtype", None, "parameter dtype (default: the checkpoint's)")


def main(argv: list[str]) -> None:
    del argv
    model_dir = Path(_MODEL_DIR.value)
    if not model_dir.is_dir():
        usage_error(f"model directory {model_dir} does not exist")
    import transformers

    from prove_jax.checkpoint.hf import load_hf
    from prove_jax.sampling import Sampler, SamplingParams

    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    except (OSError, ValueError) as err:
        usage_error(f"no usable tokenizer in {model_dir}: {err}")
    model, cfg = load_hf(model_dir, dtype=_DTYPE.value)
    if _CHAT.value:
        text = tokenizer.apply_chat_template([{"role": "user", "content": _PROMPT.value}],
                                             add_generation_prompt=True, tokenize=False)
    else:
        text = _PROMPT.value
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    if not ids:
        usage_error("the prompt is empty after tokenization")
    eos = cfg.eos_token_id
    stops = set(eos if isinstance(eos, tuple) else [] if eos is None else [eos])
    if tokenizer.eos_token_id is not None:
        stops.add(tokenizer.eos_token_id)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    params = SamplingParams(max_new_tokens=_MAX_NEW.value, temperature=_TEMPERATURE.value,
                            top_p=_TOP_P.value, top_k=_TOP_K.value,
                            stop_token_ids=tuple(sorted(stops)))
    out = Sampler(model, pad_id=pad).generate([ids], params, seeds=[_SEED.value])[0]
    print(tokenizer.decode(out.tokens, skip_special_tokens=True))


if __name__ == "__main__":
    app.run(main, flags_parser=parse_flags)
