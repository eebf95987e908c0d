"""The fixed rating of each Nain Jaune bot level, ``(mu, sigma)`` on OpenSkill's scale: what a
page shows for a bot and what people's ratings are measured against (never updated).

Measured by ``cardroom tournament nain-jaune --bots easy,medium,hard,expert --games 100
--players 4 --seed 21`` (docs/web.md "Ratings")."""

from __future__ import annotations

BOT_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (19.01, 3.08),
    "medium": (20.56, 2.97),
    "hard": (23.66, 2.94),
    "expert": (35.73, 3.22),
}
