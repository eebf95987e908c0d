"""The fixed rating of each Spit bot level, ``(mu, sigma)`` on OpenSkill's scale: what a page
shows for a bot and what people's ratings are measured against (never updated).

Measured by ``tools/bot_ratings.py --games 200`` (every pair of levels; docs/web.md
"Ratings")."""

from __future__ import annotations

BOT_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (-10.53, 3.24),
    "medium": (14.28, 2.65),
    "hard": (35.84, 2.72),
    "expert": (63.79, 3.43),
}
