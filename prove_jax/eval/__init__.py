"""Evaluation: BFCL multi-turn, τ²-bench and the held-out synthesized split (launch.evaluate)."""
