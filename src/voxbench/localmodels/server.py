"""llama.cpp's OpenAI-compatible HTTP server, in-process via xllamacpp, on 127.0.0.1.

Pipecat-free on purpose: eval's judges and the CLI start it here and talk to it over
HTTP (`POST {base_url}/chat/completions`), so nothing outside `voxbench.pipelines` needs
pipecat to run a local model.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

from voxbench.localmodels.assets import LocalLLMSpec, default_judge_llm, llm_gguf
from voxbench.localmodels.prompt_cache import PromptCache
from voxbench.localmodels.token_count import LlamaPromptTokenCounter

logger = logging.getLogger(__name__)


def default_threads() -> int:
    """Half the cores, at most 4: llama.cpp threads stall together when one is descheduled."""
    return max(1, min(4, (os.cpu_count() or 2) // 2))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_serving(address: str, timeout_s: float = 60.0) -> None:
    """Return once the HTTP loop answers a request (any status, 503 while loading included).

    xllamacpp returns from its constructor before its HTTP thread enters the accept loop; a
    stop in that window is lost and the destructor then joins a thread blocked in accept()
    for ever (seen when a server is stopped right after it started). A request that was
    answered proves the loop is running, so a later stop reaches it."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(address.rstrip("/") + "/health", timeout=5):  # loopback only
                return
        except urllib.error.HTTPError:
            return  # answered, with an error status: the loop runs
        except OSError as exc:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"llama.cpp server at {address} did not answer in {timeout_s:.0f} s"
                ) from exc
            time.sleep(0.02)


class LlamaServer:
    """Start with `start()` (blocks for the model load) or as a context manager."""

    def __init__(
        self,
        spec: LocalLLMSpec | None = None,
        *,
        n_ctx: int = 16384,
        n_threads: int | None = None,
        verbosity: int = 0,
        model_path: Path | None = None,
        n_parallel: int = 1,
        n_threads_batch: int | None = None,
        port: int = 0,
        slot_dir: Path | None = None,
        n_cache_reuse: int = 0,
    ) -> None:
        self.spec = spec or default_judge_llm()
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.n_parallel = n_parallel  # slots; one per concurrent conversation keeps its prefix cache
        self.n_threads_batch = n_threads_batch  # prompt-processing threads (None: n_threads)
        self.port = port  # 0: a free port
        self.slot_dir = slot_dir  # saved prompt prefixes (see prompt_cache); None: no slot files
        # min. matching chunk (tokens) reused by shifting its KV when a prompt differs from the
        # cache mid-way (turns left out of a long call, see prompt_tokens); 0: recompute instead
        self.n_cache_reuse = n_cache_reuse
        self.verbosity = verbosity
        self.model_path = model_path
        self.load_secs: float | None = None
        self._server: Any = None
        self._address: str | None = None

    @property
    def model(self) -> str:
        return self.spec.alias

    @property
    def running(self) -> bool:
        return self._server is not None

    @property
    def base_url(self) -> str:
        return self.root_url + "/v1"

    @property
    def root_url(self) -> str:
        """The server's address without ``/v1`` (its own endpoints: tokenize, slots)."""
        if self._address is None:
            raise RuntimeError("LlamaServer is not started")
        return self._address.rstrip("/")

    @property
    def slot_context(self) -> int:
        """Tokens one conversation may use: llama.cpp splits ``n_ctx`` evenly over the slots."""
        return self.n_ctx // max(1, self.n_parallel)

    def token_counter(self) -> LlamaPromptTokenCounter:
        """Counts a chat request's prompt tokens with this model's template and tokenizer."""
        return LlamaPromptTokenCounter(self.root_url)

    def provenance(self) -> dict[str, Any]:
        """What a result made with this server should say about its judge."""
        return {
            "kind": "embedded-local",
            "model": self.spec.alias,
            "gguf": self.spec.filename,
            "sha256": self.spec.sha256,
            "runtime": "llama.cpp (xllamacpp)",
            "n_ctx": self.n_ctx,
        }

    def start(self) -> LlamaServer:
        if self._server is not None:
            return self
        path = self.model_path = self.model_path or llm_gguf(self.spec)
        t0 = time.perf_counter()
        self._server, self._address = self._launch(path, self.n_threads or default_threads())
        _wait_serving(self._address)
        self.load_secs = time.perf_counter() - t0
        logger.info("local LLM %s on %s (load %.1fs)", path.name, self._address, self.load_secs)
        return self

    def _launch(self, path: Path, threads: int) -> tuple[Any, str]:
        """Start llama.cpp on `path`; returns (handle kept alive while serving, http address)."""
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.model_alias = {self.spec.alias}
        params.n_ctx = self.n_ctx
        params.n_parallel = self.n_parallel
        params.use_jinja = True
        params.cache_prompt = True
        params.hostnames = ["127.0.0.1"]
        params.port = self.port or _free_port()
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = self.n_threads_batch or threads
        params.verbosity = self.verbosity
        params.offline = True
        params.n_cache_reuse = self.n_cache_reuse
        if self.slot_dir is not None:
            self.slot_dir.mkdir(parents=True, exist_ok=True)
            params.slot_save_path = str(self.slot_dir) + os.sep
            params.endpoint_slots = True
        server = xllamacpp.Server(params)
        return server, str(server.listening_address)

    def prompt_cache(self) -> PromptCache | None:
        """Saved warm prompts for this server's model, when it was started with a slot
        directory and one slot (slot 0 is then the one that was warmed)."""
        if self.slot_dir is None or self._address is None or self.n_parallel != 1:
            return None
        import xllamacpp

        runtime = getattr(xllamacpp, "__version__", "?")
        model_id = f"{self.spec.sha256 or self.spec.filename}:{runtime}:{self.n_ctx}"
        return PromptCache(self._address.rstrip("/"), self.slot_dir, model_id)

    def stop(self) -> None:
        server, self._server, self._address = self._server, None, None
        if server is not None:
            del server  # xllamacpp stops its HTTP loop in the destructor

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
