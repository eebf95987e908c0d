"""Every test reads English words unless it asks for another language (whatever the locale)."""

from __future__ import annotations

import os

os.environ["CARDROOM_LANG"] = "en"
