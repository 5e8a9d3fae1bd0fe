"""Hugging Face safetensors load/export and (later) Orbax management."""
