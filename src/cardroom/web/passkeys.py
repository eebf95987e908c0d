"""Passkeys (WebAuthn, through the ``webauthn`` package): protect a player with the device's own
lock and sign in with it after cookies were cleared. Browsers offer them on https and on
``localhost`` (never on a bare IP address: the relying party is the page's host name).

Registering: ``options`` for the signed-in player -> the browser's ``navigator.credentials.create``
-> ``verify`` keeps the credential's id and public key. Signing in: ``options`` with no player
(the browser picks a passkey of this site) -> ``navigator.credentials.get`` -> the credential's
id finds the player, its signature is checked against the public key kept. Each challenge is
kept in the database for 2 minutes and spent once, so any process of the server may answer.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from fastapi import Request

from cardroom.store import Player, PlayerStore

CHALLENGE_TTL = 120.0


class PasskeyError(ValueError):
    """A passkey that cannot be registered or used (the browser's answer did not verify)."""


def relying_party(request: Request) -> tuple[str, str]:
    """(rp id, origin) of the page: its host name, and scheme://host[:port]."""
    host = request.headers.get("host", request.url.netloc)
    return host.rsplit(":", 1)[0] if not host.endswith(
        "]"
    ) else host, f"{request.url.scheme}://{host}"


def _challenge_of(credential: dict[str, Any]) -> str:
    from webauthn.helpers import base64url_to_bytes

    try:
        client = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
        return str(client["challenge"])
    except (KeyError, TypeError, ValueError) as exc:
        raise PasskeyError("the browser's answer is not a passkey") from exc


async def register_options(request: Request, players: PlayerStore, player: Player) -> str:
    """The JSON options for ``navigator.credentials.create`` (a resident key of this player)."""
    from webauthn import generate_registration_options, options_to_json
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
    )

    rp_id, _origin = relying_party(request)
    challenge = secrets.token_bytes(32)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name="cardroom",
        user_name=player.name,
        user_id=player.id.encode(),
        challenge=challenge,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
            for c in await players.passkeys_of(player.id)
        ],
    )
    await players.add_challenge(
        bytes_to_base64url(challenge), player.id, time.time() + CHALLENGE_TTL
    )
    text: str = options_to_json(options)
    return text


async def register(
    request: Request, players: PlayerStore, player: Player, credential: dict[str, Any]
) -> None:
    """Check the browser's new credential and keep it; :class:`PasskeyError` if it fails."""
    from webauthn import verify_registration_response
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    challenge = _challenge_of(credential)
    now = time.time()
    if not await players.take_challenge(challenge, player.id, now):
        raise PasskeyError("this passkey request has expired: try again")
    rp_id, origin = relying_party(request)
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise PasskeyError("the passkey could not be checked") from exc
    await players.add_passkey(
        player.id,
        bytes_to_base64url(verified.credential_id),
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
        now,
    )


async def sign_in_options(request: Request, players: PlayerStore) -> str:
    """The JSON options for ``navigator.credentials.get`` (any passkey of this site)."""
    from webauthn import generate_authentication_options, options_to_json
    from webauthn.helpers import bytes_to_base64url

    rp_id, _origin = relying_party(request)
    challenge = secrets.token_bytes(32)
    options = generate_authentication_options(rp_id=rp_id, challenge=challenge)
    await players.add_challenge(bytes_to_base64url(challenge), None, time.time() + CHALLENGE_TTL)
    text: str = options_to_json(options)
    return text


async def sign_in(
    request: Request, players: PlayerStore, credential: dict[str, Any]
) -> tuple[Player, str]:
    """The player whose passkey signed the challenge, and a new browser key for them."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    challenge = _challenge_of(credential)
    now = time.time()
    if not await players.take_challenge(challenge, None, now):
        raise PasskeyError("this passkey request has expired: try again")
    credential_id = str(credential.get("rawId") or credential.get("id") or "")
    known = await players.passkey(credential_id)
    if known is None:
        raise PasskeyError("this passkey belongs to no player here")
    _player_id, public_key, count = known
    rp_id, origin = relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(public_key),
            credential_current_sign_count=count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise PasskeyError("the passkey could not be checked") from exc
    agent = request.headers.get("user-agent", "")
    return await players.signed_in_by_passkey(credential_id, verified.new_sign_count, now, agent)
