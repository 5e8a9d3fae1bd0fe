"""Streaming safetensors reading (memory-mapped, zero-copy per tensor) and writing.

We read the format directly rather than through `safetensors.safe_open` because numpy has no
bfloat16 there and we want per-shard slices of a memory map, not whole-tensor copies. Layout:
8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}}, bytes.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np

DTYPES: dict[str, np.dtype] = {
    "F64": np.dtype(np.float64), "F32": np.dtype(np.float32), "F16": np.dtype(np.float16),
    "BF16": np.dtype(ml_dtypes.bfloat16), "I64": np.dtype(np.int64), "I32": np.dtype(np.int32),
    "I16": np.dtype(np.int16), "I8": np.dtype(np.int8), "U8": np.dtype(np.uint8),
    "BOOL": np.dtype(np.bool_),
}
_CODES = {v: k for k, v in DTYPES.items()}
_MAX_HEADER = 100 * 1024 * 1024


class CheckpointFormatError(ValueError):
    """A safetensors file that cannot be read; the message names the file."""


def dtype_code(dtype: np.dtype) -> str:
    try:
        return _CODES[np.dtype(dtype)]
    except KeyError as err:
        raise CheckpointFormatError(f"dtype {dtype} has no safetensors code") from err


class SafetensorsFile:
    """One .safetensors file opened as a read-only memory map."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            with open(self.path, "rb") as f:
                (n,) = struct.unpack("<Q", f.read(8))
                if n > _MAX_HEADER:
                    raise CheckpointFormatError(f"{self.path}: header length {n} is implausible")
                header = json.loads(f.read(n))
        except (OSError, struct.error, json.JSONDecodeError, UnicodeDecodeError) as err:
            raise CheckpointFormatError(f"{self.path}: not a readable safetensors file ({err})"
                                        ) from err
        self.metadata = header.pop("__metadata__", {}) or {}
        self.entries: dict[str, dict] = header
        self._data_start = 8 + n
        self._mmap: np.memmap | None = None
        self._validate(self.path.stat().st_size - self._data_start)

    def _validate(self, data_bytes: int) -> None:
        """Header-only checks, so a truncated or inconsistent file fails before any read."""
        for name, entry in self.entries.items():
            try:
                start, end = entry["data_offsets"]
                size = self.dtype(name).itemsize * int(np.prod(entry["shape"]))
            except (KeyError, TypeError, ValueError) as err:
                raise CheckpointFormatError(f"{self.path}: bad header entry {name!r} ({err})"
                                            ) from err
            if end - start != size or not 0 <= start <= end <= data_bytes:
                raise CheckpointFormatError(
                    f"{self.path}: tensor {name!r} spans bytes [{start}, {end}) but its shape "
                    f"{entry['shape']} and dtype {entry['dtype']} need {size} bytes inside a "
                    f"data section of {data_bytes} (truncated or corrupt file?)")

    def names(self) -> list[str]:
        return list(self.entries)

    def shape(self, name: str) -> tuple[int, ...]:
        return tuple(self.entries[name]["shape"])

    def dtype(self, name: str) -> np.dtype:
        code = self.entries[name]["dtype"]
        if code not in DTYPES:
            raise CheckpointFormatError(
                f"{self.path}: tensor {name!r} has unsupported dtype {code}")
        return DTYPES[code]

    def tensor(self, name: str) -> np.ndarray:
        """A read-only view into the memory map (no copy until sliced and converted)."""
        if self._mmap is None:
            self._mmap = np.memmap(self.path, dtype=np.uint8, mode="r")
        entry = self.entries[name]
        start, end = entry["data_offsets"]
        raw = self._mmap[self._data_start + start: self._data_start + end]
        return raw.view(self.dtype(name)).reshape(self.shape(name))


@dataclass(frozen=True)
class TensorToWrite:
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype
    produce: Callable[[], np.ndarray]  # called once, when this tensor's bytes are written

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape)) * np.dtype(self.dtype).itemsize


def write_safetensors(path: str | Path, tensors: Iterable[TensorToWrite],
                      metadata: dict[str, str] | None = None) -> int:
    """Write tensors one at a time (each produced lazily); returns the bytes of tensor data."""
    tensors = list(tensors)
    header: dict[str, dict] = {"__metadata__": dict(metadata or {"format": "pt"})}
    offset = 0
    for t in tensors:
        header[t.name] = {"dtype": dtype_code(t.dtype), "shape": list(t.shape),
                          "data_offsets": [offset, offset + t.nbytes]}
        offset += t.nbytes
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * (-len(blob) % 8)  # align the data section to 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for t in tensors:
            array = np.ascontiguousarray(t.produce(), dtype=t.dtype)
            if array.shape != t.shape:
                raise ValueError(f"tensor {t.name!r}: produced shape {array.shape}, "
                                 f"planned {t.shape}")
            f.write(memoryview(array.reshape(-1).view(np.uint8)))
    return offset
