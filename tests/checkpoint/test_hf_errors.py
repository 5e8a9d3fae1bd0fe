"""Bad checkpoints fail with errors that name the path or tensor; nothing half-built escapes."""

import json
import re
import shutil

import pytest
import torch
from safetensors.torch import load_file, save_file

from prove_jax.checkpoint.hf import CheckpointError, export_hf, load_hf
from prove_jax.checkpoint.safetensors_io import CheckpointFormatError
from prove_jax.models.config import ConfigError


@pytest.fixture
def ckpt(hf_checkpoint, tmp_path):
    """A private, editable copy of a tiny Qwen3 checkpoint."""
    src, _ = hf_checkpoint("qwen3_untied")
    dst = tmp_path / "ckpt"
    shutil.copytree(src, dst)
    return dst


def _rewrite(path, edit):
    tensors = load_file(path / "model.safetensors")
    edit(tensors)
    save_file(tensors, path / "model.safetensors", metadata={"format": "pt"})


def test_missing_model_dir(tmp_path):
    with pytest.raises(FileNotFoundError, match=re.escape(str(tmp_path / "nope"))):
        load_hf(tmp_path / "nope")


def test_missing_config(ckpt):
    (ckpt / "config.json").unlink()
    with pytest.raises(CheckpointError, match=r"no config\.json"):
        load_hf(ckpt)


def test_unsupported_model_type(ckpt):
    config = json.loads((ckpt / "config.json").read_text())
    config["model_type"] = "mistral"
    (ckpt / "config.json").write_text(json.dumps(config))
    with pytest.raises(ConfigError, match="unsupported model_type 'mistral'"):
        load_hf(ckpt)


def test_no_weights(ckpt):
    (ckpt / "model.safetensors").unlink()
    with pytest.raises(CheckpointError, match="no safetensors weights in"):
        load_hf(ckpt)


def test_missing_tensor(ckpt):
    _rewrite(ckpt, lambda t: t.pop("model.layers.2.mlp.up_proj.weight"))
    with pytest.raises(CheckpointError, match=r"missing tensor 'model\.layers\.2\.mlp\.up_proj"):
        load_hf(ckpt)


def test_wrong_shape(ckpt):
    def shrink(t):
        t["model.layers.0.self_attn.k_proj.weight"] = torch.zeros(8, 64)

    _rewrite(ckpt, shrink)
    with pytest.raises(CheckpointError,
                       match=r"'model\.layers\.0\.self_attn\.k_proj\.weight'.*\[8, 64\], "
                             r"expected \[48, 64\]"):
        load_hf(ckpt)


def test_corrupt_file(ckpt):
    (ckpt / "model.safetensors").write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00{bad")
    with pytest.raises(CheckpointFormatError, match=r"model\.safetensors"):
        load_hf(ckpt)


def test_index_naming_a_missing_shard(hf_checkpoint, tmp_path):
    _, hf = hf_checkpoint("qwen2_bias")
    hf.save_pretrained(tmp_path / "src", max_shard_size="50KB")
    victim = sorted((tmp_path / "src").glob("model-*.safetensors"))[1]
    victim.unlink()
    with pytest.raises(CheckpointError, match=re.escape(victim.name)):
        load_hf(tmp_path / "src")


def test_bad_dtype(ckpt):
    with pytest.raises(CheckpointError, match="unsupported dtype 'int8'"):
        load_hf(ckpt, dtype="int8")


def test_failed_export_keeps_earlier_export(ckpt, tmp_path):
    model, cfg = load_hf(ckpt)
    out = export_hf(model, cfg, tmp_path / "export")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(FileNotFoundError, match="tokenizer directory"):
        export_hf(model, cfg, out, tokenizer_dir=tmp_path / "no-tokenizer")
    with pytest.raises(CheckpointError, match="no tokenizer files"):
        export_hf(model, cfg, out, tokenizer_dir=tmp_path)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_truncated_file_fails_before_reading(ckpt):
    data = (ckpt / "model.safetensors").read_bytes()
    (ckpt / "model.safetensors").write_bytes(data[:-100])
    with pytest.raises(CheckpointFormatError, match=r"truncated or corrupt"):
        load_hf(ckpt)


def test_unexpected_tensors_are_reported(ckpt, caplog):
    _rewrite(ckpt, lambda t: t.update({"model.layers.0.self_attn.rotary.inv_freq": torch.ones(4)}))
    with caplog.at_level("WARNING"):
        load_hf(ckpt)
    assert "ignoring 1 tensors" in caplog.text and "rotary.inv_freq" in caplog.text


def test_export_over_earlier_export_keeps_user_files(ckpt, tmp_path):
    model, cfg = load_hf(ckpt)
    out = export_hf(model, cfg, tmp_path / "export", max_shard_size="20KB")
    assert len(list(out.glob("model-*.safetensors"))) > 2
    (out / "NOTES.md").write_text("mine")
    export_hf(model, cfg, out)  # now a single file: the old shards and index must go
    names = sorted(p.name for p in out.iterdir())
    assert names == ["NOTES.md", "config.json", "generation_config.json", "model.safetensors"]
    assert load_hf(out)[1] == cfg
