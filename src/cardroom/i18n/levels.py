"""The bots' levels in words, for every game: the level alone (``easy``) and the bot named by
it (``the easy bot``). Messages are msgids: translate them where they are shown."""

from __future__ import annotations

from cardroom.i18n import N_

LEVEL_WORDS: dict[str, str] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}
"""Each level's name."""

BOT_WORDS: dict[str, str] = {
    "easy": N_("the easy bot"),
    "medium": N_("the medium bot"),
    "hard": N_("the hard bot"),
    "expert": N_("the expert bot"),
}
"""The bot of each level, as a sentence names it (``you play like {bot}``)."""


def web_words() -> list[str]:
    """The msgids the pages take from the server's list of levels (``/api/games``)."""
    return [*LEVEL_WORDS.values(), *BOT_WORDS.values()]
