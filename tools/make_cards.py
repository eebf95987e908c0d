"""Write the web pages' playing cards: one SVG per card plus a back, under web/static/cards/.

Run from the repository root: ``python tools/make_cards.py``. The drawings are cardroom's own
(MIT, like the project): rank and suit in two corners, a big suit in the middle, the court
cards with their letter and a simple emblem. Suits are drawn as paths, so no font is needed
for them; ranks use the browser's sans-serif font.
"""

from __future__ import annotations

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "cardroom" / "web" / "static" / "cards"

W, H = 100, 140
RED, BLACK = "#c8102e", "#1a1a1a"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

# Each suit drawn in a 100 x 100 box.
SUIT_PATHS = {
    "D": "M50 2 L88 50 L50 98 L12 50 Z",
    "H": (
        "M50 94 C22 72 3 54 3 32 C3 14 16 4 30 4 C40 4 47 10 50 18 "
        "C53 10 60 4 70 4 C84 4 97 14 97 32 C97 54 78 72 50 94 Z"
    ),
    "S": (
        "M50 3 C78 26 97 44 97 63 C97 78 85 87 72 87 C63 87 56 83 53 77 "
        "C54 86 58 93 67 98 L33 98 C42 93 46 86 47 77 C44 83 37 87 28 87 "
        "C15 87 3 78 3 63 C3 44 22 26 50 3 Z"
    ),
    "C": (
        "M50 4 A22 22 0 0 1 66 42 A22 22 0 1 1 54 74 C55 86 59 93 67 98 L33 98 "
        "C41 93 45 86 46 74 A22 22 0 1 1 34 42 A22 22 0 0 1 50 4 Z"
    ),
}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}

# Court emblems in a 40 x 24 box: a crown (king), a coronet with a flower (queen), a cap (jack).
EMBLEMS = {
    "K": "M2 22 L2 6 L11 14 L20 2 L29 14 L38 6 L38 22 Z",
    "Q": "M4 22 L4 12 C10 16 14 16 20 6 C26 16 30 16 36 12 L36 22 Z",
    "J": "M4 22 C4 10 12 4 22 4 C30 4 36 8 38 14 L26 14 L26 22 Z",
}


def suit(s: str, x: float, y: float, size: float, color: str) -> str:
    """A suit symbol whose top-left corner is (x, y), ``size`` wide."""
    k = size / 100
    return (
        f'<path d="{SUIT_PATHS[s]}" fill="{color}" '
        f'transform="translate({x:g} {y:g}) scale({k:g})"/>'
    )


def corner(rank: str, s: str, color: str) -> str:
    """Rank and small suit for the top-left corner (the caller rotates a copy)."""
    size = 20 if rank == "10" else 22
    return (
        f'<text x="12" y="25" font-family="{FONT}" font-size="{size}" font-weight="700" '
        f'fill="{color}" text-anchor="middle" letter-spacing="-1">{rank}</text>'
        + suit(s, 4, 30, 16, color)
    )


def card_svg(rank: str, s: str, letter: str | None = None, name: str | None = None) -> str:
    """One card face (``letter``: the index printed for ``rank`` in another language's packs)."""
    color = RED if s in "DH" else BLACK
    name = name or f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[s]}"
    shown = letter or rank
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" '
        f'width="{W}" height="{H}" role="img" aria-label="{name}">',
        f"<title>{name}</title>",
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="#fff" '
        'stroke="#9a9a9a" stroke-width="2"/>',
        corner(shown, s, color),
        f'<g transform="rotate(180 {W / 2:g} {H / 2:g})">{corner(shown, s, color)}</g>',
    ]
    if rank in EMBLEMS:
        tint = "#fbe3e6" if color == RED else "#e6e9f0"
        parts += [
            f'<rect x="24" y="14" width="52" height="112" rx="5" fill="{tint}" '
            f'stroke="{color}" stroke-width="1.5"/>',
            f'<path d="{EMBLEMS[rank]}" fill="#e0b000" stroke="{color}" stroke-width="1.5" '
            'transform="translate(30 20)"/>',
            f'<text x="50" y="90" font-family="{FONT}" font-size="46" font-weight="700" '
            f'fill="{color}" text-anchor="middle">{shown}</text>',
            suit(s, 38, 98, 24, color),
        ]
    else:
        big = 58 if rank == "A" else 46
        parts.append(suit(s, (W - big) / 2, (H - big) / 2, big, color))
    parts.append("</svg>")
    return "".join(parts) + "\n"


def back_svg() -> str:
    """The back of a card: a yellow dwarf's pattern of diamonds."""
    cells = "".join(
        f'<path d="M{x} {y - 6} L{x + 6} {y} L{x} {y + 6} L{x - 6} {y} Z" fill="#f2c230"/>'
        for x in range(22, 80, 14)
        for y in range(22, 120, 14)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}" role="img" aria-label="card back"><title>card back</title>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="8" fill="#1f4e8c" '
        'stroke="#9a9a9a" stroke-width="2"/>'
        f'<rect x="10" y="10" width="{W - 20}" height="{H - 20}" rx="4" fill="none" '
        f'stroke="#f2c230" stroke-width="2"/>{cells}</svg>\n'
    )


LICENSE = """The card images in this folder (52 faces and back.svg) were drawn for cardroom by
tools/make_cards.py and are cardroom's own work, released under the MIT licence like the
rest of the project (see the project's licence). Regenerate them with
`python tools/make_cards.py`.
"""


def main() -> None:
    """Write every card, the back and the licence note."""
    OUT.mkdir(parents=True, exist_ok=True)
    for s in "CDHS":
        for rank in RANKS:
            (OUT / f"{rank}{s}.svg").write_text(card_svg(rank, s), encoding="utf-8")
    (OUT / "back.svg").write_text(back_svg(), encoding="utf-8")
    # The court cards of packs printed with other letters (French V, D, R), one folder a
    # language; the letters and names come from cardroom.i18n, where the words are chosen.
    from cardroom.cards import Card
    from cardroom.i18n.grammar import card_phrase
    from cardroom.i18n.words import RANK_LETTERS

    for lang, letters in RANK_LETTERS.items():
        (OUT / lang).mkdir(exist_ok=True)
        for value, letter in letters.items():
            for s in "CDHS":
                card = Card.parse(f"{RANKS[value - 1]}{s}")
                svg = card_svg(RANKS[value - 1], s, letter, card_phrase(card, lang).bare)
                (OUT / lang / f"{card.code}.svg").write_text(svg, encoding="utf-8")
    (OUT / "LICENSE").write_text(LICENSE, encoding="utf-8")
    print(f"wrote 53 cards to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
