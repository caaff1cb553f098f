#!/usr/bin/env python3
"""Passkey login flows in a real Chromium, both ways, judged by the fixture relying party
(Fixtures/browser/rp/server.py, which verifies every ceremony with py_webauthn).

  login_flow.py --swcred PATH --mode playwright|cdp [--driver auto|selenium|playwright]
                [--chromium /usr/bin/chromium] [--timeout SECONDS]
  login_flow.py --probe --mode playwright|cdp      exit 0 when everything needed is installed, else 77

1. A throw-away CA signs tacos.example's certificate; Chromium trusts it through an NSS database
   in a temporary HOME, and --host-resolver-rules sends https://tacos.example to the server.
2. swcred registers alice as the app ABCDE12345.com.example.tacoshop (Fixtures/apps/TacoShop,
   whose webcredentials:tacos.example Fixtures/sites approves); the server verifies it.
3. `swcred passkey export --to playwright` seeds a Playwright context (storage state), or `--to
   cdp` seeds Chromium's virtual authenticator (WebAuthn.addCredential, from Selenium or a
   Playwright CDP session); the page signs alice in twice.
4. The page registers a new passkey for bob and signs him in.
5. The browser's state comes back (`storage_state(credentials=True)` or WebAuthn.getCredentials)
   into `swcred passkey import`; swcred then signs bob in as a browser at https://tacos.example and
   as the app, and alice as the app, each response verified by the server.
Every count the server verified must go strictly up per passkey (the only 0 is a registration's),
and a copy of alice's passkey from before the browser used it must be refused (the judge says no).

Prints one JSON line: {"mode","driver","seconds","counts":{USER:[…]},"imported":{…}}.
Exit 0 passed, 1 failed (the reason on stderr), 2 usage, 77 skipped (a tool is missing; the reason
on stdout).
"""
import argparse
import http.client
import json
import os
import select
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time

from flow_support import (
    RP_ID, STEP_TIMEOUT, Failure, PlaywrightPage, SeleniumPage, Skip, check, trace)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RP = os.path.join(ROOT, "Fixtures", "browser", "rp")
ORIGIN = "https://" + RP_ID
APP = ["--entitlements", os.path.join(ROOT, "Fixtures", "apps", "TacoShop.entitlements"),
       "--aasa-dir", os.path.join(ROOT, "Fixtures", "sites")]


class Site:
    """The fixture relying party as a process, and an HTTPS client that reaches it as tacos.example."""

    def __init__(self, work):
        self.work = work
        status = subprocess.run([sys.executable, os.path.join(RP, "throwaway_ca.py"), work, RP_ID,
                                 "--nssdb", os.path.join(work, "home")], timeout=STEP_TIMEOUT).returncode
        if status == 3:
            raise Skip("certutil or the cryptography package is missing")
        check(status == 0, f"throwaway_ca.py exited {status}")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(RP, "server.py"), "--rp-id", RP_ID,
             "--cert", os.path.join(work, "server.pem"), "--key", os.path.join(work, "server.key")],
            stdout=subprocess.PIPE, text=True)
        # The server says when it listens: no sleeping, a bounded wait for its line.
        ready, _, _ = select.select([self.process.stdout], [], [], STEP_TIMEOUT)
        line = self.process.stdout.readline() if ready else ""
        check(line.startswith("ready "), f"the relying party did not start: {line!r}")
        self.port = int(line.split()[1])
        self.tls = ssl.create_default_context(cafile=os.path.join(work, "ca.pem"))

    def request(self, method, path, body=None):
        connection = http.client.HTTPSConnection(RP_ID, self.port, context=self.tls, timeout=STEP_TIMEOUT)
        # Resolve tacos.example to the server, as the browser's --host-resolver-rules does.
        connection.sock = self.tls.wrap_socket(
            socket.create_connection(("127.0.0.1", self.port), timeout=STEP_TIMEOUT), server_hostname=RP_ID)
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        value = json.loads(response.read())
        connection.close()
        return response.status, value

    def post(self, path, body):
        status, value = self.request("POST", path, body)
        check(status == 200, f"{path}: the relying party refused: {value.get('error')}")
        return value

    def log(self):
        return self.request("GET", "/api/log")[1]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Swcred:
    """The swcred under test, on a throw-away store."""

    def __init__(self, binary, work, store="keychain"):
        self.binary, self.work = binary, work
        home = os.path.join(work, "home")
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "SWIFT_BACKTRACE": "enable=no",
                    "SWCRED_STORE": os.path.join(work, store + ".swcred"),
                    "SWCRED_KEY_FILE": os.path.join(work, store + ".key"),
                    "XDG_DATA_HOME": os.path.join(home, "data"), "XDG_CONFIG_HOME": os.path.join(home, "config"),
                    "XDG_STATE_HOME": os.path.join(home, "state")}

    def run(self, *arguments, stdin=None):
        trace("swcred " + " ".join(arguments[:2]))
        result = subprocess.run([self.binary, *arguments], input=stdin, capture_output=True, text=True,
                                env=self.env, timeout=STEP_TIMEOUT)
        check(result.returncode == 0, f"swcred {' '.join(arguments[:3])} exited {result.returncode}: "
                                      f"{result.stderr.strip()[:400]}")
        return result.stdout

    def file(self, name, value):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            json.dump(value, f)
        return path

    def register(self, site, user, caller):
        options = site.post("/api/register/options", {"username": user})
        response = json.loads(self.run("passkey", "register", self.file(f"create-{user}.json", options), *caller))
        return site.post("/api/register/verify", response)

    def sign_in(self, site, user, caller, accepted=True):
        options = site.post("/api/login/options", {"username": user})
        response = json.loads(self.run("passkey", "assert", self.file(f"get-{user}.json", options), *caller))
        if not accepted:
            return site.request("POST", "/api/login/verify", response)
        return site.post("/api/login/verify", response)


def browser_round(mode, driver, chromium, swcred, site, work):
    """Steps 3-5's browser half: seed, sign alice in twice, register and sign in bob, hand back."""
    home = os.path.join(work, "home")
    seen = []
    if mode == "playwright":
        state = os.path.join(work, "seed-state.json")
        swcred.run("passkey", "export", "--to", "playwright", "--rp-id", RP_ID, "-o", state)
        page = PlaywrightPage(chromium, site.port, home, storage_state=state)
    else:
        seeds = os.path.join(work, "seed-cdp.json")
        swcred.run("passkey", "export", "--to", "cdp", "--rp-id", RP_ID, "-o", seeds)
        page = SeleniumPage(chromium, site.port, home) if driver == "selenium" else \
            PlaywrightPage(chromium, site.port, home)
    trace("browser started")
    try:
        if mode == "cdp":
            page.cdp("WebAuthn.enable", {"enableUI": False})
            authenticator = page.cdp("WebAuthn.addVirtualAuthenticator", {"options": {
                "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
                "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]
            with open(seeds) as f:
                for credential in json.load(f):
                    page.cdp("WebAuthn.addCredential", {"authenticatorId": authenticator, "credential": credential})
        page.goto(ORIGIN + "/")
        for _ in range(2):
            seen.append(page.act("#login", "alice", "signed-in"))
        seen.append(page.act("#register", "bob", "registered"))
        seen.append(page.act("#login", "bob", "signed-in"))
        handed = os.path.join(work, "handed-back.json")
        if mode == "playwright":
            page.storage_state(handed)
        else:
            credentials = page.cdp("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
            descriptor = os.open(handed, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as f:
                json.dump(credentials, f)
    finally:
        page.close()
        trace("browser closed")
    return seen, handed, state if mode == "playwright" else seeds


def requirements(arguments):
    """The driver to use, or Skip naming what is missing."""
    if not os.access(arguments.chromium, os.X_OK):
        raise Skip(f"{arguments.chromium} is missing")
    if shutil.which("certutil") is None:
        raise Skip("certutil (libnss3-tools) is missing")
    try:
        import webauthn  # noqa: F401  (the relying party's judge)
        import cryptography  # noqa: F401  (the throw-away CA)
    except ImportError:
        raise Skip("the webauthn package (py_webauthn) is missing")
    try:
        import playwright  # noqa: F401
        has_playwright = True
    except ImportError:
        has_playwright = False
    try:
        import selenium  # noqa: F401
        has_selenium = shutil.which("chromedriver") is not None
    except ImportError:
        has_selenium = False
    driver = arguments.driver
    if arguments.mode == "playwright" or driver == "auto":
        driver = "selenium" if arguments.mode == "cdp" and has_selenium else "playwright"
    if driver == "playwright" and not has_playwright:
        raise Skip("the playwright package is missing")
    if driver == "selenium" and not has_selenium:
        raise Skip("selenium or chromedriver is missing")
    return driver


def run(arguments):
    started = time.monotonic()
    chromium = arguments.chromium
    driver = requirements(arguments)
    if arguments.probe:
        print(f"ready: {arguments.mode} through {driver}")
        return

    work = tempfile.mkdtemp(prefix="swcred-browser-")
    site = None
    try:
        site = Site(work)
        trace("site ready")
        swcred = Swcred(arguments.swcred, work)
        browser_caller = ["--origin", ORIGIN]
        # 2. The app registers alice; the relying party verifies the attestation.
        registered = swcred.register(site, "alice", APP)
        check(registered["signCount"] == 0, f"a new swcred passkey reports {registered['signCount']}")
        # 3-4. The browser.
        seen, handed, seed = browser_round(arguments.mode, driver, chromium, swcred, site, work)
        alice_in_browser = [s["signCount"] for s in seen if s["user"] == "alice"]
        check(alice_in_browser == [1, 2], f"alice's counts in the browser: {alice_in_browser}")
        # 5. The hand-back, then swcred signs in with the page's passkey and the seeded one.
        summary = json.loads(swcred.run("passkey", "import", handed, "--from", arguments.mode, "--format", "json"))
        check((summary["added"], summary["updated"], summary["unchanged"]) == (1, 1, 0),
              f"import summary {summary}")
        # Playwright's state carries no user names: bob's passkey is listed without one.
        listed = swcred.run("passkey", "list").splitlines()
        check(len(listed) == 2 and any("\talice\t" in line for line in listed), f"passkey list: {listed}")
        swcred.sign_in(site, "bob", browser_caller)
        swcred.sign_in(site, "bob", APP)
        swcred.sign_in(site, "alice", APP)
        # A second import of the same document is stale now: nothing rolls back.
        again = json.loads(swcred.run("passkey", "import", handed, "--from", arguments.mode, "--format", "json"))
        check(again["unchanged"] == 2, f"stale re-import {again}")
        swcred.sign_in(site, "bob", browser_caller)
        # The judge can say no: a copy of alice's passkey from before the browser used it (count 0,
        # in another store) is a cloned authenticator to the relying party, which has seen 3.
        clone = Swcred(arguments.swcred, work, store="clone")
        clone.run("passkey", "import", seed, "--from", arguments.mode)
        status, refusal = clone.sign_in(site, "alice", APP, accepted=False)
        check(status == 400 and "count" in refusal.get("error", ""), f"a stale clone was not refused: {refusal}")
        log = site.log()
    finally:
        if site is not None:
            site.stop()
        shutil.rmtree(work, ignore_errors=True)

    rejected = [e for e in log["events"] if e["event"] == "rejected"]
    check(len(rejected) == 1, f"the relying party rejected: {rejected}")
    counts = {}
    for event in log["events"]:
        if event["event"] == "rejected":
            continue
        counts.setdefault(event["user"], []).append(event["signCount"])
    for user, series in counts.items():
        check(all(b > a for a, b in zip(series, series[1:])), f"{user}'s counts are not strictly increasing: {series}")
    # alice: registered 0, the browser's 1 and 2, swcred's 3; bob: the browser's, then swcred's three.
    check(counts.get("alice") == [0, 1, 2, 3], f"alice's verified counts: {counts.get('alice')}")
    bob = counts.get("bob", [])
    check(len(bob) == 5 and bob[2:] == [bob[1] + 1, bob[1] + 2, bob[1] + 3], f"bob's verified counts: {bob}")
    print(json.dumps({"mode": arguments.mode, "driver": driver, "seconds": round(time.monotonic() - started, 2),
                      "counts": counts, "imported": summary, "refused": rejected[0].get("error")}))


def main():
    parser = argparse.ArgumentParser(description="passkey login flows in Chromium (see the module's docstring)")
    parser.add_argument("--swcred")
    parser.add_argument("--mode", choices=["playwright", "cdp"], required=True)
    parser.add_argument("--driver", choices=["auto", "selenium", "playwright"], default="auto")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--probe", action="store_true", help="only check that everything needed is installed")
    arguments = parser.parse_args()
    if not arguments.probe and not arguments.swcred:
        parser.error("--swcred is required")

    # A parent may hand down blocked signals (the Swift test runner's threads do): the deadline
    # below and a terminate() of the relying party must work.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM, signal.SIGTERM, signal.SIGINT})

    def expired(*_):
        raise Failure(f"not done in {arguments.timeout} s")

    def terminated(*_):  # the finally blocks close the browser and stop the relying party
        raise Failure("terminated")
    signal.signal(signal.SIGALRM, expired)
    signal.signal(signal.SIGTERM, terminated)
    signal.alarm(arguments.timeout)
    try:
        run(arguments)
    except Skip as reason:
        print(f"skip: {reason}")
        return 77
    except Failure as reason:
        print(f"failed: {reason}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
