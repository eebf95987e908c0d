"""The table's calls said aloud in the terminal through espeak-ng, where it is installed."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Sequence

from cardroom.i18n import Translator
from cardroom.i18n.words import engine_event_dict, event_text

VOICES = {"en": "en-gb", "fr": "fr-fr", "cy": "cy"}
SPOKEN_KINDS = frozenset({"takes", "without", "grand-opera", "out"})
"""The turn-based table's events a table says aloud (its announcements)."""


class Speaker:
    """Says lines with ``espeak-ng`` in the language's voice, without waiting for it to finish.

    ``program`` is None when espeak-ng is not installed: then nothing is said.
    """

    def __init__(self, lang: Translator, program: str | None = None) -> None:
        self.tr = lang
        self.program = program or shutil.which("espeak-ng")
        self.voice = VOICES.get(self.tr.lang, "en-gb")

    @property
    def available(self) -> bool:
        """True if espeak-ng was found."""
        return self.program is not None

    def say(self, text: str) -> None:
        """Say ``text`` (in the background)."""
        if self.program is None or not text:
            return
        try:
            subprocess.Popen(
                [self.program, "-v", self.voice, "--", text],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        except OSError:
            self.program = None  # it went away: stay silent from now on

    def say_events(self, events: Iterable[object], names: Sequence[str]) -> None:
        """Say the announcements among a turn-based engine's events."""
        for event in events:
            data = engine_event_dict(event)
            if data["kind"] in SPOKEN_KINDS:
                self.say(event_text(data, names.__getitem__, self.tr))
