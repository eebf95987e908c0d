"""The inviter is told the bot's answer: the creator of a table reads each invitation of a bot
with its state and in words of their language (declined, accepted, not answered yet); anybody
else reads nothing, and a bot's token is refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.conftest import browser
from tests.web.test_bot_api import _bearer, make_bot, speed_table
from tests.web.test_players import ORIGIN, create, name


def test_the_inviter_reads_that_the_bot_declined_in_their_language(client: TestClient) -> None:
    name(client, "Ann")
    make_bot(client, "Mistral")
    _other, token = make_bot(client, "Tramontane")
    table = create(
        client, players=3, seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]
    )["table"]
    before = client.get(f"/api/tables/{table}/invites")
    assert before.status_code == 200, before.text
    assert before.json() == {"creator": True, "free": [1, 2], "invites": []}
    for seat, bot in ((1, "Mistral"), (2, "Tramontane")):
        invited = client.post(
            f"/api/tables/{table}/seats/{seat}/invite", json={"bot": bot}, headers=ORIGIN
        )
        assert invited.status_code == 200, invited.text
    with browser(client) as program:
        declined = program.post(f"/api/bot/tables/{table}/decline", headers=_bearer(token))
        assert declined.status_code == 200 and declined.json() == {"declined": True}
    told = client.get(f"/api/tables/{table}/invites", headers={"accept-language": "fr"}).json()
    waiting, refused = told["invites"]
    assert (waiting["seat"], waiting["bot"], waiting["state"]) == (1, "Mistral", "waiting")
    assert (refused["seat"], refused["bot"], refused["state"]) == (2, "Tramontane", "declined")
    assert refused["id"] == "bot.invite-declined"
    assert refused["text"] == "Tramontane a refusé l’invitation à la place 3"
    assert waiting["text"] == "Mistral n’a pas encore répondu (place 2)"
    english = client.get(f"/api/tables/{table}/invites?lang=en").json()["invites"][1]["text"]
    assert english == "Tramontane declined the invitation to seat 3"
    welsh = client.get(f"/api/tables/{table}/invites?lang=cy").json()["invites"][1]["text"]
    assert welsh.startswith("Gwrthododd Tramontane")
    # nobody but the creator reads them, and a bot's token never does
    with browser(client) as eve:
        name(eve, "Eve")
        nothing = eve.get(f"/api/tables/{table}/invites")
        assert nothing.status_code == 200
        assert nothing.json() == {"creator": False, "free": [], "invites": []}
        assert eve.get(f"/api/tables/{table}/invites", headers=_bearer(token)).status_code == 403


def test_an_accepted_invitation_is_told_and_the_seat_is_no_longer_free(
    client: TestClient,
) -> None:
    name(client, "Ann")
    _bot, token = make_bot(client)
    table = speed_table(client)["table"]
    client.post(f"/api/tables/{table}/seats/1/invite", json={"bot": "Mistral"}, headers=ORIGIN)
    with browser(client) as program:
        assert (
            program.post(f"/api/bot/tables/{table}/accept", headers=_bearer(token)).status_code
            == 200
        )
    told = client.get(f"/api/tables/{table}/invites?lang=en").json()
    assert told["free"] == []
    (accepted,) = told["invites"]
    assert accepted["state"] == "accepted"
    assert accepted["text"] == "Mistral accepted: it takes seat 2"
