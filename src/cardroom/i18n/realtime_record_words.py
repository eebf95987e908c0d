"""The words of a Spit or Speed record's errors live in :mod:`cardroom.i18n.record_words`, with
every other record's: this name is kept so that older imports still work."""

from __future__ import annotations

from cardroom.i18n.record_words import REALTIME_RECORD_MESSAGES

__all__ = ["REALTIME_RECORD_MESSAGES"]
