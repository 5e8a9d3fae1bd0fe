"""The PyTorch side of benchmarks/train_step.py: one GRPO step of the transformers model.

Run by train_step.py in its own subprocess (`--side torch`); see there for what is measured.
"""

from __future__ import annotations

import argparse
import os

import torch
import transformers

from benchmarks.train_step import finish, make_batch, rss_bytes, time_steps

CLIP_LOW, CLIP_HIGH = 0.2, 0.28  # LossConfig's defaults
MAX_GRAD_NORM = 1.0  # OptimConfig's default global-norm clip


def token_logp(model: torch.nn.Module, tokens: torch.Tensor,
               attention_mask: torch.Tensor) -> torch.Tensor:
    """log p(tokens[:, t+1] | tokens[:, :t+1]) [B, T-1]: full logits, log_softmax, gather."""
    logits = model(input_ids=tokens[:, :-1], attention_mask=attention_mask[:, :-1]).logits
    logp = torch.log_softmax(logits.float(), dim=-1)
    return logp.gather(-1, tokens[:, 1:, None]).squeeze(-1)


def grpo_loss(logp: torch.Tensor, old_logp: torch.Tensor, adv: torch.Tensor,
              mask: torch.Tensor) -> torch.Tensor:
    """Clipped surrogate, token mean over the mask (ours with kl_coef=0, token-mean)."""
    ratio = torch.exp(logp - old_logp)
    unclipped = -adv[:, None] * ratio
    clipped = -adv[:, None] * torch.clamp(ratio, 1.0 - CLIP_LOW, 1.0 + CLIP_HIGH)
    return (torch.maximum(unclipped, clipped) * mask).sum() / mask.sum().clamp(min=1.0)


def run_torch(args: argparse.Namespace) -> None:
    torch.set_num_threads(os.cpu_count() or 1)
    transformers.utils.logging.disable_progress_bar()
    baseline = rss_bytes()
    model = transformers.AutoModelForCausalLM.from_pretrained(args.ckpt, dtype=torch.float32)
    model.train()
    loaded = rss_bytes()
    b = {k: torch.from_numpy(v) for k, v in make_batch(args.batch, args.seq,
                                                        model.config.vocab_size).items()}
    tokens, attn = b["tokens"].long(), b["attention_mask"].long()
    mask = b["loss_mask"][:, 1:].float()
    with torch.no_grad():
        old_logp = token_logp(model, tokens, attn)  # ratio 1 at the first step
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=0.0)

    def one_step() -> float:
        loss = grpo_loss(token_logp(model, tokens, attn), old_logp, b["advantages"], mask)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
        opt.step()
        opt.zero_grad(set_to_none=True)
        return float(norm)

    result = time_steps(one_step, args.warmup, args.steps)
    result["desc"] = (f"torch {torch.__version__} ({torch.get_num_threads()} threads), "
                      f"attn_implementation={model.config._attn_implementation}")
    finish(result, baseline, loaded)
