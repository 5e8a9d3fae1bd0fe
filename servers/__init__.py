"""Stateful MCP servers (issues 3 and 7). Nothing here imports JAX or prove_jax."""
