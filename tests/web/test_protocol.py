"""Client messages and the create-table body: what is accepted, and the words of a refusal."""

from __future__ import annotations

import json

import pytest

from cardroom.web.protocol import (
    Act,
    CreateTable,
    Join,
    Ping,
    ProtocolError,
    Ready,
    Start,
    clean_name,
    decode_create,
    decode_message,
    encode,
    error_frame,
)


def test_each_message_type_is_read() -> None:
    act = decode_message('{"type": "act", "action": "7D", "seq": 17, "id": "a1"}')
    assert act == Act(action="7D", seq=17, id="a1")
    assert decode_message('{"type": "join", "name": "  Ann   Lee "}') == Join(name="Ann Lee")
    assert decode_message('{"type": "start"}') == Start()
    assert decode_message('{"type": "ready", "id": 4}') == Ready(id=4)
    assert decode_message('{"type": "ping"}') == Ping()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"type": "dance"}', "unknown message type 'dance'"),
        ("{}", "unknown message type 'None'"),
        ('{"type": "act", "action": "7D"}', "missing required field `seq`"),
        ('{"type": "act", "action": "7D", "seq": "17"}', "Expected `int`, got `str`"),
        ('{"type": "act", "action": "7D", "seq": -1}', ">= 0"),
        ('{"type": "act", "action": "7D7D7D7D7D", "seq": 1}', "length <= 8"),
        ('{"type": "act", "action": "7D", "seq": 1, "cheat": true}', "unknown field `cheat`"),
        ('{"type": "ping", "id": true}', "Expected `int | str | null`, got `bool`"),
        ('{"type": "join", "name": "   "}', "a name has 1 to 24 characters, not 0"),
        ('{"type": "join", "name": "' + "x" * 25 + '"}', "not 25"),
    ],
)
def test_bad_messages_are_refused_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_message(text)
    assert info.value.code == "bad-request"
    assert words in info.value.message


def test_the_client_id_of_a_bad_message_comes_back_as_ref() -> None:
    with pytest.raises(ProtocolError) as info:
        decode_message('{"type": "act", "action": "7D", "id": "x9"}')
    assert info.value.ref == "x9"


def test_names_lose_control_and_direction_characters() -> None:
    assert clean_name("An\u202en\x00") == "Ann"
    assert clean_name("<b>Bob</b>") == "<b>Bob</b>"  # shown as text by the page, never as HTML


def test_frames_encode_as_json_text() -> None:
    frame = error_frame("stale", "the table changed since you looked: seq 3, not 2", "r")
    assert json.loads(encode(frame)) == {
        "type": "error",
        "code": "stale",
        "message": "the table changed since you looked: seq 3, not 2",
        "ref": "r",
    }


def test_create_body_defaults_and_limits() -> None:
    body = decode_create(b'{"name": "Ann"}')
    assert body == CreateTable(name="Ann")
    assert body.players == 4 and body.public and body.seats is None
    # the number of players is the lobby's to refuse, in words (rules.players): not the decoder's
    assert decode_create(b'{"name": "Ann", "players": 9}').players == 9
    for bad, words in [
        (b'{"name": "Ann", "players": "4"}', "Expected `int`"),
        (b'{"name": "Ann", "seats": [{"kind": "alien"}]}', "Invalid enum value 'alien'"),
        (b'{"name": "Ann", "seats": [{"kind": "bot", "level": "god"}]}', "'god'"),
        (b'{"name": "Ann", "takeover_after": -1}', ">= 0"),
        (b'{"players": 3}', "missing required field `name`"),
    ]:
        with pytest.raises(ProtocolError) as info:
            decode_create(bad)
        assert words in info.value.message, info.value.message


def test_a_create_request_names_a_registered_game_or_is_refused_on_that_field() -> None:
    from cardroom.games.messages import Message
    from cardroom.games.registry import REALTIME, Game, register, unregister

    assert decode_create(b'{"name": "Ann"}').game == "nain-jaune"  # none named: as before
    assert decode_create(b'{"name": "Ann", "game": "speed"}').game == "speed"
    with pytest.raises(ProtocolError) as info:
        decode_create(b'{"name": "Ann", "game": "snap"}')
    said = info.value.message
    assert isinstance(said, Message) and said.fields["field"] == "game"
    assert "unknown game 'snap': choose one of nain-jaune, spit, speed" in said
    register(Game("snap", "Snap", REALTIME, (2, 2), "m:R", "m:E", "m:V", "m", "m:T", "m:V1"))
    try:  # the protocol reads the registry: a game registered later is a game it accepts
        assert decode_create(b'{"name": "Ann", "game": "snap"}').game == "snap"
    finally:
        unregister("snap")
