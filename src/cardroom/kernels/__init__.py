"""What the compiled kernels (numba) share: their cache folder and random streams, below
``bots`` and ``sim``. Each game's kernel lives in its folder (``games/<game>/kernel.py``).

Importing this package makes sure numba can cache the compiled code: when neither
the package's ``__pycache__`` nor the user's cache folder can be written (a read-only install
and home), the cache goes to a temporary folder removed at exit, so a simulation still runs
(compiling once per run) instead of failing at import.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _user_cache() -> Path | None:
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "numba"
    try:
        return Path.home() / ".cache" / "numba"
    except RuntimeError:  # no home folder at all
        return None


def prepare_numba_cache() -> str | None:
    """Point numba at a temporary cache folder if it has nowhere to write; return that folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    user = _user_cache()
    if _writable(Path(__file__).parent / "__pycache__") or (user is not None and _writable(user)):
        return None
    try:
        folder = tempfile.mkdtemp(prefix="cardroom-numba-")
    except OSError:
        return None
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # read by numba at import, and by worker processes
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = folder  # type: ignore[attr-defined]
    return folder


prepare_numba_cache()
