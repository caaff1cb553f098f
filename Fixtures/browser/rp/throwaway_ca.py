#!/usr/bin/env python3
"""Makes a throw-away certificate authority and a server certificate for one host, and (with
--nssdb) trusts the authority in an NSS database, where Chromium on Linux looks for local roots.

  throwaway_ca.py DIR HOST [--nssdb HOME]

writes DIR/ca.pem, DIR/server.pem and DIR/server.key (P-256, valid for one day, the key 0600);
with --nssdb, creates HOME/.pki/nssdb (empty password) and adds ca.pem as a trusted SSL root,
through `certutil` (Debian: libnss3-tools). Use a temporary HOME: never your own.
Exit 0 done, 2 usage, 3 the cryptography package or certutil missing.
"""
import datetime
import os
import subprocess
import sys


def make(directory, host):
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError:
        return 3
    now = datetime.datetime.now(datetime.timezone.utc)
    start, end = now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=1)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "swcred throw-away test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(start).not_valid_after(end)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(end)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    with open(os.path.join(directory, "ca.pem"), "wb") as f:
        f.write(ca.public_bytes(pem))
    with open(os.path.join(directory, "server.pem"), "wb") as f:
        f.write(leaf.public_bytes(pem))
    descriptor = os.open(os.path.join(directory, "server.key"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as f:
        f.write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return 0


def trust(directory, home):
    database = os.path.join(home, ".pki", "nssdb")
    os.makedirs(database, mode=0o700, exist_ok=True)
    try:
        subprocess.run(["certutil", "-N", "-d", "sql:" + database, "--empty-password"], check=True,
                       stdout=subprocess.DEVNULL, timeout=30)
        subprocess.run(["certutil", "-A", "-d", "sql:" + database, "-n", "swcred throw-away test CA",
                        "-t", "C,,", "-i", os.path.join(directory, "ca.pem")], check=True, timeout=30)
    except FileNotFoundError:
        return 3
    return 0


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--nssdb"):
        print(__doc__, file=sys.stderr)
        return 2
    status = make(argv[1], argv[2])
    if status == 0 and len(argv) == 5:
        status = trust(argv[1], argv[4])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
