"""The fixed rating of each Speed bot level, ``(mu, sigma)`` on OpenSkill's scale: what a page
shows for a bot and what people's ratings are measured against (never updated).

Measured by ``tools/bot_ratings.py --games 200`` (every pair of levels; docs/web.md
"Ratings")."""

from __future__ import annotations

BOT_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (6.87, 2.41),
    "medium": (20.45, 2.01),
    "hard": (29.00, 2.06),
    "expert": (45.23, 2.60),
}
