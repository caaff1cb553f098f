#!/usr/bin/env python3
"""A small relying party for browser tests: an HTTPS site with a passkey login page, whose
server verifies every ceremony with py_webauthn (never with swcred's code).

  server.py --rp-id tacos.example --cert server.pem --key server.key [--port 0] [--origin URL]

Prints `ready PORT` on stdout once it listens (port 0: one the system picks), then serves until
SIGTERM or SIGINT. The origin it expects is https://RPID unless --origin names another; run
Chromium with --host-resolver-rules="MAP tacos.example 127.0.0.1:PORT" so that https://tacos.example
reaches it and the page is a secure context at the real RP ID.

  GET  /                       the login page (static/index.html, static/app.js)
  POST /api/register/options   {"username"} -> PublicKeyCredentialCreationOptionsJSON
  POST /api/register/verify    RegistrationResponseJSON -> {"ok","user","credentialId","signCount"}
  POST /api/login/options      {"username"?} -> PublicKeyCredentialRequestOptionsJSON
                               (allowCredentials lists the user's passkeys; none: discoverable)
  POST /api/login/verify       AuthenticationResponseJSON -> {"ok","user","credentialId","signCount"}
  GET  /api/log                {"events":[{"event":"register|login|rejected","user","credentialId",
                               "signCount","error"?}], "credentials":{ID:{"user","signCount"}}}

A login is accepted only when py_webauthn verifies the signature, the challenge (one use), the
origin, the RP ID, user presence and verification, and a sign count above the one stored (both 0
is allowed, as WebAuthn allows it); the count it verified is stored and logged. Everything is in
memory: a fresh server knows no one.
"""
import argparse
import base64
import json
import os
import secrets
import signal
import ssl
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import webauthn
from webauthn.helpers import exceptions as webauthn_errors
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor, ResidentKeyRequirement,
    UserVerificationRequirement)
from webauthn.helpers.cose import COSEAlgorithmIdentifier

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
PAGES = {"/": ("index.html", "text/html; charset=utf-8"), "/app.js": ("app.js", "text/javascript; charset=utf-8")}
MAX_BODY = 64 * 1024


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode()


class RelyingParty:
    """The users, their passkeys and the log; one lock around all of it."""

    def __init__(self, rp_id, origin):
        self.rp_id, self.origin = rp_id, origin
        self.lock = threading.Lock()
        self.users = {}          # name -> user handle (bytes)
        self.credentials = {}    # credential ID (b64url) -> {"user", "publicKey", "signCount"}
        self.challenges = {}     # challenge (b64url) -> ("register", name) | ("login", None)
        self.events = []

    def register_options(self, body):
        name = str(body.get("username", "")).strip()
        if not name or len(name) > 64:
            raise ValueError("a username of 1-64 characters is required")
        with self.lock:
            handle = self.users.get(name) or name.encode()
            existing = [PublicKeyCredentialDescriptor(id=b64d(i)) for i, c in self.credentials.items()
                        if c["user"] == name]
        options = webauthn.generate_registration_options(
            rp_id=self.rp_id, rp_name="Tacos", user_name=name, user_id=handle, user_display_name=name.capitalize(),
            exclude_credentials=existing, supported_pub_key_algs=[COSEAlgorithmIdentifier.ECDSA_SHA_256],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.REQUIRED))
        with self.lock:
            self.challenges[b64e(options.challenge)] = ("register", name, handle)
        return json.loads(webauthn.options_to_json(options))

    def register_verify(self, body):
        challenge, pending = self._take_challenge(body, "register")
        verified = webauthn.verify_registration_response(
            credential=body, expected_challenge=b64d(challenge), expected_origin=self.origin,
            expected_rp_id=self.rp_id, require_user_verification=True)
        _, name, handle = pending
        credential_id = b64e(verified.credential_id)
        with self.lock:
            self.users[name] = handle
            self.credentials[credential_id] = {
                "user": name, "publicKey": verified.credential_public_key, "signCount": verified.sign_count}
            return self._log("register", name, credential_id, verified.sign_count)

    def login_options(self, body):
        name = body.get("username")
        with self.lock:
            allowed = [PublicKeyCredentialDescriptor(id=b64d(i)) for i, c in self.credentials.items()
                       if name and c["user"] == name]
        if name and not allowed:
            raise ValueError(f"{name} has no passkey here")
        options = webauthn.generate_authentication_options(
            rp_id=self.rp_id, allow_credentials=allowed, user_verification=UserVerificationRequirement.REQUIRED)
        with self.lock:
            self.challenges[b64e(options.challenge)] = ("login", name, None)
        return json.loads(webauthn.options_to_json(options))

    def login_verify(self, body):
        challenge, _ = self._take_challenge(body, "login")
        credential_id = str(body.get("rawId") or body.get("id") or "")
        with self.lock:
            stored = self.credentials.get(credential_id)
            if stored is None:
                raise ValueError("unknown credential")
            stored = dict(stored)
        verified = webauthn.verify_authentication_response(
            credential=body, expected_challenge=b64d(challenge), expected_origin=self.origin,
            expected_rp_id=self.rp_id, credential_public_key=stored["publicKey"],
            credential_current_sign_count=stored["signCount"], require_user_verification=True)
        handle = body.get("response", {}).get("userHandle")
        with self.lock:
            if handle is not None and b64d(handle) != self.users.get(stored["user"]):
                raise ValueError("the user handle is not the credential's user's")
            current = self.credentials[credential_id]
            # A parallel login may have moved the count on while this one was verified.
            if verified.new_sign_count != 0 and verified.new_sign_count <= current["signCount"]:
                raise ValueError("sign count did not increase")
            current["signCount"] = verified.new_sign_count
            return self._log("login", stored["user"], credential_id, verified.new_sign_count)

    def _take_challenge(self, body, kind):
        try:
            client = json.loads(b64d(body["response"]["clientDataJSON"]))
            challenge = client["challenge"]
        except (KeyError, TypeError, ValueError):
            raise ValueError("no readable clientDataJSON")
        with self.lock:
            pending = self.challenges.pop(challenge, None)
        if pending is None or pending[0] != kind:
            raise ValueError("unknown or used challenge")
        return challenge, pending

    def _log(self, event, user, credential_id, count):
        record = {"event": event, "user": user, "credentialId": credential_id, "signCount": count}
        self.events.append(record)
        return {"ok": True, **{k: v for k, v in record.items() if k != "event"}}

    def rejected(self, path, error):
        with self.lock:
            self.events.append({"event": "rejected", "path": path, "error": error})

    def log(self):
        with self.lock:
            return {"events": list(self.events),
                    "credentials": {i: {"user": c["user"], "signCount": c["signCount"]}
                                    for i, c in self.credentials.items()}}


class Handler(BaseHTTPRequestHandler):
    server_version = "swcred-fixture-rp"
    timeout = 30
    routes = {"/api/register/options": "register_options", "/api/register/verify": "register_verify",
              "/api/login/options": "login_options", "/api/login/verify": "login_verify"}

    def log_message(self, format, *args):  # quiet: the tests read /api/log
        pass

    def do_GET(self):
        if self.path == "/api/log":
            return self._json(200, self.server.rp.log())
        page = PAGES.get(self.path.split("?")[0])
        if page is None:
            return self._json(404, {"ok": False, "error": "not found"})
        with open(os.path.join(STATIC, page[0]), "rb") as f:
            self._send(200, f.read(), page[1])

    def do_POST(self):
        method = self.routes.get(self.path)
        if method is None:
            return self._json(404, {"ok": False, "error": "not found"})
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._json(413, {"ok": False, "error": "too large"})
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(body, dict):
                raise ValueError("a JSON object is required")
            return self._json(200, getattr(self.server.rp, method)(body))
        except (ValueError, KeyError, TypeError, webauthn_errors.InvalidRegistrationResponse,
                webauthn_errors.InvalidAuthenticationResponse, webauthn_errors.InvalidJSONStructure,
                webauthn_errors.InvalidCBORData, webauthn_errors.InvalidAuthenticatorDataStructure) as e:
            message = f"{type(e).__name__}: {e}"
            self.server.rp.rejected(self.path, message)
            return self._json(400, {"ok": False, "error": message})

    def _json(self, status, value):
        self._send(status, json.dumps(value).encode(), "application/json")

    def _send(self, status, data, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)


def main():
    parser = argparse.ArgumentParser(description="the fixture relying party (see the module's docstring)")
    parser.add_argument("--rp-id", required=True)
    parser.add_argument("--origin")
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    # A parent may hand down SIGTERM blocked (a test runner's thread) and SIGINT ignored (a shell's
    # background job): both must end this server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    server.rp = RelyingParty(args.rp_id, args.origin or f"https://{args.rp_id}")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    # The handshake happens in each connection's thread (on its first read), so a client that
    # connects and says nothing holds up only itself, for at most Handler.timeout seconds.
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"ready {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
