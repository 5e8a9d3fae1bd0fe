"""One episode (and one group of them) as HTML markup.

Every piece of episode text is model or tool output: it goes through `esc` (text and attribute
values alike) and nowhere else; numbers are formatted here. Elements carry data-* attributes
(data-episode, data-turn, data-call, data-outcome, data-truth, data-component, ...) that the
page's filters and the tests read.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from typing import Any

from prove_jax.viewer.data import Group, reward_of

__all__ = ["FOLD_CHARS", "MAX_TEXT_CHARS", "esc", "render_episode", "render_group"]

FOLD_CHARS = 600  # tool results and system prompts longer than this start folded
FOLD_CHAT_CHARS = 4000  # user/assistant text is what people read: folded only when huge
# One text longer than this is shown cut (with its length): it bounds a page's size, a model
# that looped for a whole context is no more readable at 2 MB than at 256 KB.
MAX_TEXT_CHARS = 256_000
MALFORMED = "malformed_call"


def esc(value: Any) -> str:
    """Text (or any value, via str) safe as HTML content and as a quoted attribute value."""
    return html.escape("" if value is None else str(value), quote=True)


def _num(x: Any, digits: int = 3) -> str:
    if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
        return "–" if x is None else esc(x)
    return f"{x:.{digits}f}"


def _text(text: Any, fold_at: int, label: str) -> str:
    s = "" if text is None else text if isinstance(text, str) else json.dumps(text)
    note = ""
    if len(s) > MAX_TEXT_CHARS:
        note = f'<div class="warn">cut: {len(s):,} chars, first {MAX_TEXT_CHARS:,} shown</div>'
        s = s[:MAX_TEXT_CHARS]
    body = f"<pre>{esc(s)}</pre>{note}"
    if len(s) > fold_at:
        preview = esc(s[:100].replace("\n", " "))
        return (f"<details><summary>{esc(label)} ({len(s):,} chars): {preview}…</summary>"
                f"{body}</details>")
    return body


def _args(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return str(value)


def _covered_by(record: dict[str, Any]) -> dict[int, list[int]]:
    """call index -> the truth calls (alignment positions) it covered."""
    out: dict[int, list[int]] = {}
    for g, a in enumerate(record.get("alignment") or []):
        if isinstance(a, dict) and isinstance(a.get("call"), int):
            out.setdefault(a["call"], []).append(g)
    return out


def _call(i: int, call: dict[str, Any], record: dict[str, Any],
          covers: dict[int, list[int]]) -> str:
    outcome = str(call.get("outcome") or "unknown")
    kind = str(call.get("kind") or "")
    malformed = kind == MALFORMED
    cls = f"call outcome-{esc(outcome)}" + (" malformed" if malformed else "")
    head = (f'<span class="outcome">{esc(outcome)}</span> <b>#{i} {esc(call.get("name"))}</b>'
            + (' <span class="flag">malformed</span>' if malformed else "")
            + (f' <span class="meta">kind {esc(kind)}</span>' if kind and kind != outcome
               else "")
            + (f' <span class="meta">@{esc(call.get("server"))}</span>'
               if call.get("server") else ""))
    parts = [f'<div class="{cls}" data-call="{i}" data-outcome="{esc(outcome)}" '
             f'data-kind="{esc(kind)}">{head}', _text(_args(call.get("arguments")), FOLD_CHARS,
                                                        "arguments")]
    if call.get("error"):
        parts.append(f'<div class="warn">error: {esc(call["error"])}</div>')
    alignment = record.get("alignment") or []
    for g in covers.get(i, []):
        a = alignment[g]
        order = "" if a.get("in_order", True) else ' <span class="warn">out of order</span>'
        parts.append(f'<div class="covers" data-truth="{g}">covers truth step '
                     f'{esc(a.get("step"))} · {esc(a.get("name"))} ({esc(a.get("hits"))}/'
                     f'{esc(a.get("keys"))} values){order}</div>')
    if alignment and i not in covers:
        parts.append('<div class="uncovering">covers no truth call</div>')
    parts.append("</div>")
    return "".join(parts)


def _turns(record: dict[str, Any], covers: dict[int, list[int]]) -> str:
    calls = record.get("calls") or []
    shown: set[int] = set()
    out = []
    for t, turn in enumerate(record.get("turns") or []):
        role = str(turn.get("role", "?"))
        body = []
        if role == "tool":
            i = turn.get("call")
            call = calls[i] if isinstance(i, int) and 0 <= i < len(calls) else {}
            outcome = str(call.get("outcome") or "unknown")
            body.append(f'<div class="call outcome-{esc(outcome)}" data-result="{esc(i)}">'
                        f'<span class="outcome">{esc(outcome)}</span> result of '
                        f'#{esc(i)} {esc(call.get("name"))}'
                        f'{_text(call.get("result"), FOLD_CHARS, "result")}</div>')
        else:
            fold = FOLD_CHARS if role == "system" else FOLD_CHAT_CHARS
            body.append(_text(turn.get("text"), fold, role))
            if role == "assistant" and turn.get("complete") is False:
                body.append('<div class="warn">turn cut (incomplete)</div>')
            for i in turn.get("calls") or []:
                if isinstance(i, int) and 0 <= i < len(calls):
                    shown.add(i)
                    body.append(_call(i, calls[i], record, covers))
        out.append(f'<div class="turn role-{esc(role)}" data-turn="{t}" data-role="{esc(role)}">'
                   f'<div class="role">{esc(role)}</div>{"".join(body)}</div>')
    # Calls no turn names (an older file, a cut transcript) still show: nothing is dropped.
    rest = [_call(i, c, record, covers) for i, c in enumerate(calls) if i not in shown]
    if rest:
        out.append('<div class="turn"><div class="role">calls outside the transcript</div>'
                   + "".join(rest) + "</div>")
    return "".join(out)


def _rewards(record: dict[str, Any]) -> str:
    rewards = record.get("rewards")
    if not rewards:
        return '<div class="meta">no rewards</div>'
    rows = []
    for name, value in sorted(rewards.items(), key=lambda kv: (kv[0] != "total", kv[0])):
        width = min(abs(value), 1.0) * 100 if isinstance(value, int | float) and \
            math.isfinite(value) else 0.0
        neg = ' class="neg"' if isinstance(value, int | float) and value < 0 else ""
        rows.append(f'<span class="reward-name">{esc(name)}</span><span class="bar reward" '
                    f'data-component="{esc(name)}" data-value="{_num(value, 6)}">'
                    f'<span{neg} style="width:{width:.1f}%"></span></span>'
                    f'<span class="reward-value">{_num(value)}</span>')
    return f'<div class="rewards">{"".join(rows)}</div>'


def _alignment(record: dict[str, Any]) -> str:
    alignment = record.get("alignment")
    if not alignment:
        return ""
    steps = (record.get("truth") or {}).get("steps") or []
    calls = record.get("calls") or []
    rows, pos = [], {}
    for g, a in enumerate(alignment):
        step = a.get("step")
        k = pos[step] = pos.get(step, -1) + 1  # position within its truth step
        truth = steps[step][k] if isinstance(step, int) and step < len(steps) and \
            k < len(steps[step]) else {}
        args = _args(truth.get("arguments")) if isinstance(truth, dict) and truth else ""
        c = a.get("call")
        if isinstance(c, int):
            name = calls[c].get("name") if c < len(calls) else "?"
            by = f'call #{c} {esc(name)} ({esc(a.get("hits"))}/{esc(a.get("keys"))} values)'
            row = f'<tr class="truth-call covered" data-truth="{g}" data-covered-by="{c}">'
        else:
            by = '<span class="warn">missed</span>'
            row = f'<tr class="truth-call missed" data-truth="{g}" data-missed="1">'
        order = "" if a.get("in_order", True) or c is None else \
            '<span class="warn" data-in-order="false">out of order</span>'
        rows.append(f"{row}<td>{esc(step)}</td><td>{esc(a.get('name'))}</td>"
                    f"<td><pre>{esc(args)}</pre></td><td>{by}</td><td>{order}</td></tr>")
    return ('<table class="alignment"><tr><th>truth step</th><th>call</th><th>arguments</th>'
            f'<th>covered by</th><th>order</th></tr>{"".join(rows)}</table>')


def _hashes(record: dict[str, Any]) -> str:
    final = record.get("final_hashes") or {}
    expected = record.get("expected_hashes")
    if not final and not expected:
        return ""
    rows = []
    for server in sorted(set(final) | set(expected or {})):
        f, e = final.get(server), (expected or {}).get(server)
        mark = "" if expected is None else ('<span class="mark-ok">✓</span>' if f == e
                                             else '<span class="mark-bad">✗</span>')
        rows.append(f'<tr data-server="{esc(server)}"><td>{esc(server)}</td>'
                    f'<td><code>{esc(f)}</code></td><td><code>{esc(e)}</code></td>'
                    f"<td>{mark}</td></tr>")
    match = record.get("state_match")
    verdict = "" if match is None else (
        '<span class="mark-ok" data-state-match="true">state matches ✓</span>' if match
        else '<span class="mark-bad" data-state-match="false">state differs ✗</span>')
    return (f'<div class="hashes">{verdict}<table><tr><th>server</th><th>final</th>'
            f'<th>expected</th><th></th></tr>{"".join(rows)}</table></div>')


def _flags(record: dict[str, Any]) -> dict[str, str]:
    kinds = set()
    for c in record.get("calls") or []:
        kinds.add(str(c.get("outcome")))
        if c.get("kind") == MALFORMED:
            kinds.add("malformed")
    reward = reward_of(record)
    failed = bool(record.get("failed")) or record.get("finish_reason") == "failed"
    return {"reward": "" if reward is None else f"{reward:.6f}",
            "outcomes": " ".join(sorted(kinds)), "failed": "1" if failed else "0",
            "finish": str(record.get("finish_reason") or "")}


def render_episode(record: dict[str, Any]) -> str:
    """One episode as an <article>: header, rewards, state, alignment, then the chat."""
    flags = _flags(record)
    covers = _covered_by(record)
    adv = record.get("advantage")
    adv_cls = "" if not isinstance(adv, int | float) else "adv-pos" if adv > 0 else \
        "adv-neg" if adv < 0 else ""
    failed = (f'<div class="warn" data-failed-reason="1">failed: {esc(record["failed"])}</div>'
              if record.get("failed") else "")
    head = (f'<h2>sample {esc(record.get("sample"))} · reward '
            f'{_num(reward_of(record))}</h2><div class="meta">advantage <b class="advantage '
            f'{adv_cls}">{_num(adv)}</b> · finish <b class="finish">'
            f'{esc(record.get("finish_reason"))}</b> · seed {esc(record.get("seed"))} · '
            f'{esc(record.get("assistant_turns"))} assistant / {esc(record.get("user_turns"))} '
            f'user turns</div>{failed}')
    cls = "episode failed" if flags["failed"] == "1" else "episode"
    episode_id = f'{record.get("task_id")}#{record.get("sample")}'
    return (f'<article class="{cls}" data-episode="{esc(episode_id)}" '
            f'data-reward="{flags["reward"]}" data-outcomes="{esc(flags["outcomes"])}" '
            f'data-failed="{flags["failed"]}" data-finish="{esc(flags["finish"])}">'
            f"{head}{_rewards(record)}{_hashes(record)}{_alignment(record)}"
            f'<div class="chat">{_turns(record, covers)}</div></article>')


def render_group(group: Group, episodes_html: Sequence[str], part: str = "") -> str:
    """A group's episodes side by side, one column each (`part` names a split group's share)."""
    first = group.episodes[0] if group.episodes else {}
    rewards = [x for r in group.episodes if (x := reward_of(r)) is not None]
    mean = _num(sum(rewards) / len(rewards)) if rewards else "–"
    servers = ", ".join(str(s) for s in first.get("servers") or [])
    head = (f'<h2>{esc(group.task_id)} <span class="meta">{esc(first.get("task_kind"))}'
            f' · group {esc(group.group)} · {len(group.episodes)} samples · mean reward '
            f'{mean} · world seed {esc(first.get("world_seed"))} · {esc(servers)}'
            f'{esc(part)}</span></h2>')
    cols = f"repeat({max(len(episodes_html), 1)}, minmax(380px, 1fr))"
    return (f'<section class="group" data-task="{esc(group.task_id)}" '
            f'data-group="{esc(group.group)}">{head}'
            f'<div class="cols" style="grid-template-columns:{cols}">'
            f'{"".join(episodes_html)}</div></section>')
