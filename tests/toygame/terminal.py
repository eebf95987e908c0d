"""The toy game's plain terminal mode: one line per event, a card code read per turn."""

from __future__ import annotations

from collections.abc import Callable

from cardroom.cards import CardError, format_cards, parse_card
from tests.toygame.engine import IllegalPlay, ToyGame
from tests.toygame.view import ToyView, view_of


def bot_card(view: ToyView) -> str:
    """The bot's card: the lowest that beats the card led, else its lowest."""
    hand = sorted(view.hand, key=lambda c: (c.rank, c.suit.order))
    if view.trick:
        beating = [c for c in hand if c.rank > view.trick[0][1].rank]
        if beating:
            return str(beating[0])
    return str(hand[0])


def play_plain(
    game: ToyGame, read: Callable[[], str], write: Callable[[str], None], human: int = 0
) -> ToyGame:
    """Play ``game`` line by line: the person at seat ``human`` types a card (``7D``), the bot
    plays the other seat; an empty read (end of input) stops the game where it is."""
    while not game.over:
        seat = game.turn
        assert seat is not None
        view = view_of(game, seat)
        if seat != human:
            text = bot_card(view)
        else:
            mine, theirs = view.tricks[human], view.tricks[1 - human]
            write(f"Your hand: {format_cards(view.hand)}. Tricks {mine}-{theirs}.")
            text = read().strip()
            if not text:
                write("No more input: the game stops here.")
                return game
        try:
            taker = game.play(seat, parse_card(text))
        except (CardError, IllegalPlay) as exc:
            write(f"Refused: {exc}")
            continue
        write(f"Seat {seat} plays {text.upper()}.")
        if taker is not None:
            write(f"Seat {taker} takes the trick.")
    winner = game.winner
    write("A draw." if winner is None else f"Seat {winner} wins, {max(game.tricks)} tricks.")
    return game
