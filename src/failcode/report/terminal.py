"""For a person at a terminal: whether to colour, the reported line with a caret, and a progress
line for runs long enough to make one wonder whether failcode hangs."""

from __future__ import annotations

import os
import threading
import time
from typing import Optional, TextIO

import click

from failcode.model import Finding
from failcode.sourcelines import SourceLines


def use_color(stream: TextIO) -> bool:
    """Colour on a terminal unless NO_COLOR (https://no-color.org) is set to a non-empty value."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def source_lines(finding: Finding, lines: SourceLines, color: bool = False) -> list[str]:
    """The reported line under a gutter with its line number, and a caret under the reported range
    (to the end of the line when the range goes on). Empty when the line cannot be read any more."""
    text = lines.line(finding.path, finding.pos.line).rstrip()
    if not text:
        return []
    start = finding.pos.column - 1
    end = finding.pos.end_column - 1 if finding.pos.end_line == finding.pos.line else len(text)
    indent = "".join(char if char == "\t" else " " for char in text[:start])  # tabs keep the caret aligned
    caret = "^" * max(1, min(end, len(text)) - start)
    number = str(finding.pos.line)
    gutter = " " * len(number)
    if color:
        caret = click.style(caret, fg="red", bold=True)
    return [f"  {number} | {text}", f"  {gutter} | {indent}{caret}"]


class Progress:
    """After `delay` seconds, and only on a terminal, keep one stderr line saying that the check is
    still running: files done of all (once `update` has been called) and the elapsed time, so a long
    run shows that it advances and how far it has to go. Erased when the check ends; pipes and CI
    logs get nothing."""

    def __init__(self, stream: TextIO, delay: float = 1.0, interval: float = 0.5) -> None:
        self.stream = stream
        self.delay = delay
        self.interval = interval
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._width = 0
        self._counts: Optional[tuple[int, int]] = None

    def update(self, done: int, total: int) -> None:
        """Files done of `total`: the engine's progress callback (one assignment, so the display
        thread never sees a half-written pair)."""
        self._counts = (done, total)

    def __enter__(self) -> "Progress":
        if self.stream.isatty():
            self._thread = threading.Thread(target=self._show, name="failcode-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            if self._width:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()

    def _show(self) -> None:
        started = time.monotonic()
        wait = self.delay
        while not self._stop.wait(wait):
            counts = self._counts
            files = f" {counts[0]}/{counts[1]} files" if counts else ""
            text = f"failcode: checking{files}... {time.monotonic() - started:.0f}s"
            self.stream.write("\r" + text.ljust(self._width))
            self.stream.flush()
            self._width = max(self._width, len(text))
            wait = self.interval
