"""``POST /inbound/raw``: raw MIME from a mail provider's webhook, HMAC-signed.

Headers: ``X-Mirrorpost-Timestamp`` (Unix seconds, within five minutes) and
``X-Mirrorpost-Signature``: hex HMAC-SHA256 of ``"<timestamp>." + body`` with
``INBOUND_WEBHOOK_SECRET``. Optional ``X-Envelope-From`` and ``X-Envelope-To``.
Answers 202 once the message is stored, 503 if it could not be (send it again); 400 to a timestamp
that is not Unix seconds written with the digits 0 to 9, 401 to one missing or more than five minutes
off and to a bad signature.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time

from flask import Blueprint, abort, current_app, jsonify, request

from app.inbound.receive import receive
from app.rules.numbers import NumberError, whole_number

blueprint = Blueprint("inbound", __name__)
log = logging.getLogger(__name__)
MAX_SKEW = 300
LATEST_SECONDS = 10**11  # the year 5138: a timestamp is a number of at most 11 digits


def signature(secret: str, timestamp: str, body: bytes) -> str:
    return hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


@blueprint.post("/inbound/raw")
def inbound_raw():
    server = current_app.extensions["mirrorpost"]
    secret = server.settings.inbound_webhook_secret
    if not secret:
        abort(404)
    timestamp = request.headers.get("X-Mirrorpost-Timestamp", "")
    given = request.headers.get("X-Mirrorpost-Signature", "")
    body = request.get_data(cache=False)
    if not timestamp:
        return jsonify(error="X-Mirrorpost-Timestamp missing"), 401
    try:
        seconds = whole_number(timestamp, 0, LATEST_SECONDS)
    except NumberError as error:
        return jsonify(error=f"X-Mirrorpost-Timestamp {error} (Unix seconds)"), 400
    if abs(time.time() - seconds) > MAX_SKEW:
        return jsonify(error="X-Mirrorpost-Timestamp more than five minutes off"), 401
    if not hmac.compare_digest(signature(secret, timestamp, body), given.lower()):
        return jsonify(error="bad signature"), 401
    if not body.strip():
        return jsonify(error="empty message"), 400
    envelope_to = [a.strip() for a in request.headers.get("X-Envelope-To", "").split(",") if a.strip()]
    try:
        receipt = receive(server.db, server.settings, server.signer, body, "webhook",
                          request.headers.get("X-Envelope-From"), envelope_to)
    except Exception:  # not stored: the sender should try again
        log.exception("could not store a message posted to the webhook")
        return jsonify(error="not stored; try again later"), 503
    return jsonify(id=receipt.inbound_id, duplicate=receipt.duplicate), 202
