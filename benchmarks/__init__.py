"""Benchmarks for PROVE-JAX (run as modules, e.g. `python -m benchmarks.load_export`)."""
