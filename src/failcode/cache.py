"""Per-file facts cached by content hash + failcode version + extraction settings.

Entries are written atomically (temp file + rename) so concurrent runs never read half an entry;
an entry that cannot be loaded is ignored and rebuilt. Entries are unpickled with failcode's own
fact classes only: a cache directory planted in a checked repository must not run code. A cache directory that cannot be created or
written is skipped: the lint still runs, just without a cache.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Optional, Union

from failcode.config import Settings
from failcode.files import read_source
from failcode.model import FileError, FileFacts
from failcode.version import __version__

TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by failcode.\n"
# Written into a new cache directory, as ruff does: backup tools skip it (CACHEDIR.TAG) and git never
# lists it as untracked (.gitignore), without the user adding it to their own ignore files.
MARKERS = {"CACHEDIR.TAG": TAG, ".gitignore": "# Automatically created by failcode.\n*\n"}
Entry = Union[FileFacts, FileError]


def _code_hash() -> str:
    """Hash of failcode's own source, so a development build never reuses another build's facts."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class _FactsUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if module == "failcode.model":
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not a failcode fact")


class Cache:
    def __init__(self, directory: Path, salt: str) -> None:
        self.directory = directory
        self.salt = salt

    @classmethod
    def open(cls, settings: Settings, directory: Optional[Path] = None, prescreen: bool = True) -> Optional["Cache"]:
        """The cache for these settings; facts extracted without the pre-screen are kept apart, so
        `--no-prescreen` compares against LibCST's own facts rather than cached screened ones."""
        directory = directory or (Path(os.environ["FAILCODE_CACHE_DIR"]) if os.environ.get("FAILCODE_CACHE_DIR")
                                  else settings.root / ".failcode_cache")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for name, text in MARKERS.items():
                marker = directory / name
                if not marker.exists():
                    marker.write_text(text)
            if not os.access(directory, os.W_OK):
                return None
        except OSError:
            return None
        return cls(directory, f"{__version__}:{_code_hash()}:{settings.extraction_key()}:{prescreen}")

    def key(self, task) -> Optional[str]:
        try:
            data = read_source(task.path)
        except OSError:
            return None
        digest = hashlib.sha256(data)
        digest.update(f"\0{self.salt}\0{task.display}\0{task.module}\0{task.is_package}".encode())
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / key

    def get(self, key: str) -> Optional[Entry]:
        try:
            with open(self._path(key), "rb") as handle:
                entry = _FactsUnpickler(handle).load()
        except Exception:  # noqa: BLE001 - a missing, truncated or garbage entry is a miss
            return None
        return entry if isinstance(entry, (FileFacts, FileError)) else None

    def put(self, key: str, entry: Entry) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(entry, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, path)
        except OSError:
            return
