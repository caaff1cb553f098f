#!/usr/bin/env python3
"""The README's browser test (walk-through f): a Playwright test as a web team writes it.

  playwright_login.py STATE_IN PORT HOME STATE_OUT

Seeds a context from STATE_IN (`swcred passkey export --to playwright`), signs alice in on
https://tacos.example (the fixture site, reached on 127.0.0.1:PORT; Chromium trusts its CA through
HOME/.pki/nssdb), registers a passkey for bob on the page, signs him in, and writes the context's
storage state with its passkeys to STATE_OUT for `swcred passkey import --from playwright`.
Exit 0 when every step shows its result on the page, 1 otherwise.
"""
import os
import sys

from playwright.sync_api import expect, sync_playwright


def main(state_in, port, home, state_out):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",  # Debian's; Playwright's own download is not needed
            args=[f"--host-resolver-rules=MAP tacos.example 127.0.0.1:{port}"],
            env={**os.environ, "HOME": home})
        context = browser.new_context(storage_state=state_in)  # the passkeys swcred exported
        page = context.new_page()
        page.goto("https://tacos.example/")
        status = page.locator("#status")

        page.fill("#username", "alice")
        page.click("#login")
        expect(status).to_have_text("Signed in as alice (sign count 1).")

        page.fill("#username", "bob")
        page.click("#register")
        expect(status).to_have_text("Created a passkey for bob.")
        page.click("#login")
        expect(status).to_have_text("Signed in as bob (sign count 1).")

        # The state holds private keys: made 0600 first (Playwright rewrites a file in place).
        os.close(os.open(state_out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        context.storage_state(path=state_out, credentials=True)  # alice at 1, bob at 1
        browser.close()
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
