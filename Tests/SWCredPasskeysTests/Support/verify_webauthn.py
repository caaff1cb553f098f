#!/usr/bin/env python3
"""Verifies swcred's WebAuthn responses with independent relying-party libraries.

  verify_webauthn.py check                       exit 0 when both libraries import, 3 otherwise
  verify_webauthn.py register LIB CHALLENGE ORIGIN RPID < RegistrationResponseJSON
      prints {"credentialPublicKey": b64url COSE key, "credentialData": b64url (fido2 only),
              "aaguid", "signCount", "backedUp", "deviceType", "userVerified", "fmt"}
  verify_webauthn.py assert LIB CHALLENGE ORIGIN RPID KEY [SIGNCOUNT] < AuthenticationResponseJSON
      KEY is the credentialPublicKey (webauthn) or credentialData (fido2) printed by register, or
      (webauthn) "spki:" and a P-256 SubjectPublicKeyInfo DER in base64url, as `swcred passkey
      export --to playwright` writes it; SIGNCOUNT (webauthn, default 0) is the relying party's
      stored count: py_webauthn rejects a new count that is not above it (unless both are 0)

LIB is "webauthn" (py_webauthn) or "fido2" (python-fido2). CHALLENGE is base64url.
Exit 0 verified, 1 rejected by the library (its message on stderr), 2 usage, 3 libraries missing.
"""
import base64
import json
import sys


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode()


def main(argv):
    if len(argv) >= 2 and argv[1] == "check":
        try:
            import webauthn  # noqa: F401
            import fido2  # noqa: F401
        except ImportError:
            return 3
        return 0
    if len(argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    mode, lib, challenge, origin, rp_id = argv[1:6]
    body = sys.stdin.read()
    rejections = rejection_types(lib)
    try:
        if lib == "webauthn":
            import webauthn
            if mode == "register":
                v = webauthn.verify_registration_response(
                    credential=body, expected_challenge=b64d(challenge), expected_origin=origin,
                    expected_rp_id=rp_id, require_user_verification=True)
                print(json.dumps({
                    "credentialPublicKey": b64e(v.credential_public_key), "aaguid": v.aaguid,
                    "signCount": v.sign_count, "backedUp": v.credential_backed_up,
                    "deviceType": str(getattr(v.credential_device_type, "value", v.credential_device_type)),
                    "userVerified": v.user_verified, "fmt": str(getattr(v.fmt, "value", v.fmt)),
                    "credentialID": b64e(v.credential_id)}))
            else:
                key = argv[6]
                key = cose_from_spki(b64d(key[5:])) if key.startswith("spki:") else b64d(key)
                current = int(argv[7]) if len(argv) > 7 else 0
                v = webauthn.verify_authentication_response(
                    credential=body, expected_challenge=b64d(challenge), expected_origin=origin,
                    expected_rp_id=rp_id, credential_public_key=key, credential_current_sign_count=current,
                    require_user_verification=True)
                print(json.dumps({"signCount": v.new_sign_count, "userVerified": v.user_verified,
                                  "backedUp": v.credential_backed_up}))
        elif lib == "fido2":
            from fido2.server import Fido2Server
            from fido2.webauthn import AttestedCredentialData, PublicKeyCredentialRpEntity
            server = Fido2Server(PublicKeyCredentialRpEntity(name="swcred test", id=rp_id),
                                 verify_origin=lambda o: o == origin)
            state = {"challenge": challenge, "user_verification": "required"}
            if mode == "register":
                auth_data = server.register_complete(state, json.loads(body))
                cred = auth_data.credential_data
                print(json.dumps({"credentialData": b64e(bytes(cred)), "aaguid": str(cred.aaguid),
                                  "signCount": auth_data.counter, "flags": int(auth_data.flags),
                                  "credentialID": b64e(cred.credential_id)}))
            else:
                cred = AttestedCredentialData(b64d(argv[6]))
                server.authenticate_complete(state, [cred], json.loads(body))
                print(json.dumps({"verified": True}))
        else:
            return 2
    except ImportError as e:
        print(f"missing library: {e}", file=sys.stderr)
        return 3
    except rejections as e:  # the library's rejection
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


def cose_from_spki(der):
    """The COSE_Key (EC2, ES256, P-256) of an SPKI DER public key, read by the cryptography package."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import load_der_public_key
    key = load_der_public_key(der)
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
        raise ValueError("not a P-256 public key")
    numbers = key.public_numbers()
    x, y = numbers.x.to_bytes(32, "big"), numbers.y.to_bytes(32, "big")
    # {1: 2, 3: -7, -1: 1, -2: x, -3: y}
    return bytes([0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]) + x + bytes([0x22, 0x58, 0x20]) + y


def rejection_types(lib):
    """The exceptions by which each library rejects a response; anything else is a bug (exit 2)."""
    from cryptography.exceptions import InvalidSignature
    if lib == "webauthn":
        from webauthn.helpers import exceptions as e
        names = ["InvalidRegistrationResponse", "InvalidAuthenticationResponse", "InvalidJSONStructure",
                 "InvalidCBORData", "InvalidAuthenticatorDataStructure", "InvalidClientDataJSONStructure",
                 "UnsupportedPublicKeyType", "InvalidPublicKeyStructure"]
        return tuple(getattr(e, n) for n in names if hasattr(e, n)) + (InvalidSignature,)
    return (ValueError, InvalidSignature)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
