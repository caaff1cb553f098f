"""What login_flow.py shares with its two page drivers: the steps' limits, the outcome
exceptions, and the page in Playwright or in Selenium (each acts on the fixture site's page and
reads its #status)."""
import os
import shutil
import sys
import time

RP_ID = "tacos.example"
STEP_TIMEOUT = 60  # generous: a loaded CI machine starts Chromium slowly
# What the page's status line says, read in the page.
STATUS = "{...document.getElementById('status').dataset, text: document.getElementById('status').textContent}"
TRACE = os.environ.get("SWCRED_BROWSER_TRACE") == "1"
STARTED = time.monotonic()


def trace(what):
    """With SWCRED_BROWSER_TRACE=1, each step's time on stderr."""
    if TRACE:
        print(f"{time.monotonic() - STARTED:7.2f}s {what}", file=sys.stderr)


class Skip(Exception):
    """A tool the test needs is missing (exit 77)."""


class Failure(Exception):
    """The test failed (exit 1)."""


def check(condition, message):
    if not condition:
        raise Failure(message)


class PlaywrightPage:
    """The page in a Playwright context: seeded from a storage state, or driven through CDP."""

    def __init__(self, chromium, port, home, storage_state=None):
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise Skip("the playwright package is missing")
        self.manager = sync_playwright().start()
        self.browser = self.manager.chromium.launch(
            executable_path=chromium, args=[f"--host-resolver-rules=MAP {RP_ID} 127.0.0.1:{port}"],
            env={**os.environ, "HOME": home}, timeout=STEP_TIMEOUT * 1000)
        self.context = self.browser.new_context(storage_state=storage_state)
        self.context.set_default_timeout(STEP_TIMEOUT * 1000)
        self.page = self.context.new_page()
        self.session = None

    def cdp(self, method, params):
        if self.session is None:
            self.session = self.context.new_cdp_session(self.page)
        return self.session.send(method, params)

    def goto(self, url):
        self.page.goto(url)
        check(self.page.evaluate("isSecureContext"), "the page is not a secure context")

    def act(self, button, username, state):
        trace(f"page {button} {username}")
        self.page.evaluate("document.getElementById('status').dataset.state = 'busy'")
        self.page.fill("#username", username)
        self.page.click(button)
        self.page.wait_for_function(
            "document.getElementById('status').dataset.state !== 'idle'"
            " && document.getElementById('status').dataset.state !== 'busy'")
        return status_of(self.page.evaluate(f"({STATUS})"), state)

    def storage_state(self, path):
        # The state holds private keys: made 0600 first (Playwright rewrites a file in place).
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        self.context.storage_state(path=path, credentials=True)
        check(os.stat(path).st_mode & 0o077 == 0, "the storage state is readable by others")

    def close(self):
        self.browser.close()
        self.manager.stop()


class SeleniumPage:
    """The page in Chromium through chromedriver; CDP commands through execute_cdp_cmd."""

    def __init__(self, chromium, port, home):
        try:
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service
        except ImportError:
            raise Skip("the selenium package is missing")
        driver = shutil.which("chromedriver")
        if driver is None:
            raise Skip("chromedriver is missing")
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                         f"--host-resolver-rules=MAP {RP_ID} 127.0.0.1:{port}"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(options=options, service=Service(
            executable_path=driver, env={**os.environ, "HOME": home}))
        self.driver.set_page_load_timeout(STEP_TIMEOUT)

    def cdp(self, method, params):
        return self.driver.execute_cdp_cmd(method, params)

    def goto(self, url):
        self.driver.get(url)
        check(self.driver.execute_script("return isSecureContext"), "the page is not a secure context")

    def act(self, button, username, state):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        trace(f"page {button} {username}")
        self.driver.execute_script("document.getElementById('status').dataset.state = 'busy'")
        field = self.driver.find_element(By.ID, "username")
        field.clear()
        field.send_keys(username)
        self.driver.find_element(By.CSS_SELECTOR, button).click()
        status = self.driver.find_element(By.ID, "status")
        WebDriverWait(self.driver, STEP_TIMEOUT).until(
            lambda _: status.get_attribute("data-state") not in ("idle", "busy"))
        return status_of(self.driver.execute_script(f"return {STATUS}"), state)

    def close(self):
        self.driver.quit()


def status_of(data, expected):
    check(data.get("state") == expected, f"the page says {data.get('text')!r}, expected {expected}")
    return {"user": data.get("user"), "credentialId": data.get("credentialId"),
            "signCount": int(data.get("signCount") or 0)}
