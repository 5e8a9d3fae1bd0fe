"""`python -m launch.generate` prints what transformers' greedy generate prints."""

import subprocess
import sys
from pathlib import Path

import pytest
import torch
import transformers

from tests.checkpoint.test_hf_export import qwen_tokenizer_dir

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny_qwen_with_tokenizer(tmp_path_factory):
    """A tiny random Qwen3 with the real Qwen3 tokenizer's vocabulary and files."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(qwen_tokenizer_dir())
    config = transformers.Qwen3Config(
        vocab_size=len(tokenizer), hidden_size=64, intermediate_size=96, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, tie_word_embeddings=True,
        eos_token_id=tokenizer.convert_tokens_to_ids("<|im_end|>"),
        pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.float32).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(0.3 * torch.randn_like(p))  # peaky enough that greedy varies its tokens
    path = tmp_path_factory.mktemp("qwen_tok")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path, model, tokenizer


def _ours(path, *extra):
    proc = subprocess.run([sys.executable, "-m", "launch.generate", f"--model_dir={path}",
                           "--max_new_tokens=12", "--temperature=0", *extra], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.rstrip("\n")


@pytest.mark.parametrize("chat", [False, True])
def test_generate_matches_transformers_greedy(tiny_qwen_with_tokenizer, chat):
    path, model, tokenizer = tiny_qwen_with_tokenizer
    prompt = "Transfer 50 dollars to Alice"
    if chat:
        text = tokenizer.apply_chat_template([{"role": "user", "content": prompt}],
                                             add_generation_prompt=True, tokenize=False)
        assert text.startswith("<|im_start|>user")
    else:
        text = prompt
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    ref = model.generate(torch.tensor([ids]), max_new_tokens=12, do_sample=False,
                         pad_token_id=tokenizer.pad_token_id)[0, len(ids):]
    expected = tokenizer.decode(ref, skip_special_tokens=True)
    assert len(expected.strip()) > 0
    got = _ours(path, f"--prompt={prompt}", *(["--chat"] if chat else []))
    assert got == expected


def test_missing_model_dir_is_a_clear_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "launch.generate",
                           f"--model_dir={tmp_path / 'nope'}", "--prompt=hi"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "does not exist" in proc.stderr
