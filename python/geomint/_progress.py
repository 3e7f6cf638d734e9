"""progress=True: a plain text bar on standard error, needing no extra package."""

import sys
import time


class TextBar:
    """Called as ``bar(done, total)``; rewrites one line on a terminal, else a line every 5 s."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.last = 0.0
        self.terminal = hasattr(self.stream, "isatty") and self.stream.isatty()

    def __call__(self, done, total):
        now = time.monotonic()
        finished = done >= total
        if not finished and now - self.last < (0.2 if self.terminal else 5.0):
            return
        self.last = now
        fraction = done / total if total else 1.0
        width = 30
        filled = int(width * fraction)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} trajectories ({100 * fraction:.0f}%), {now - self.start:.1f} s"
        if self.terminal:
            self.stream.write("\r" + line + ("\n" if finished else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def callback_for(progress):
    """The callback for a ``progress`` argument: None/False none, True the text bar, or the callable."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return TextBar()
    if callable(progress):
        return progress
    raise TypeError("progress must be True, False, None or a callable progress(done, total)")
