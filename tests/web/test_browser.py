"""The pages in a real browser (headless Chromium driven by Selenium, Debian's chromium
and chromium-driver): the calculator with JavaScript off (a plain form, one answer per
submit) and on (the answer follows the typing, no page load), rating a file through the
upload form, each page in en, es and it with a screenshot under pytest's tmp_path. The app
runs on uvicorn on a free loopback port. Skipped where no Chromium is installed."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from pipeline.web import ServeConfig, create_app
from tests.web.conftest import KESHMAT

pytest.importorskip("selenium")
from selenium.webdriver import Chrome
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1200,1100",
)  # fmt: skip
LANG_TEXTS = {"en": "Rating calculator", "es": "Calculadora de Elo", "it": "Calcolatore Elo"}
RATE_TEXTS = {"en": "1 event rated", "es": "1 torneo valorado", "it": "1 torneo valutato"}


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The app on uvicorn, in a thread, on a free loopback port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(ServeConfig(lang="en")), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


def _browser(profile: Path, javascript: bool) -> WebDriver:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("no chromium and chromedriver installed (apt-get install chromium "
                    "chromium-driver)")  # fmt: skip
    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if not javascript:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    return Chrome(options=options, service=Service(DRIVER))


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = _browser(tmp_path_factory.mktemp("chromium"), javascript=True)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def browser_without_js(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = _browser(tmp_path_factory.mktemp("chromium-nojs"), javascript=False)
    yield driver
    driver.quit()


def _shot(driver: WebDriver, path: Path) -> None:
    """The whole page: the window as tall as the page (a short page keeps 800 pixels)."""
    driver.set_window_size(1200, 800)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1200, max(800, min(int(height) + 140, 4000)))
    assert driver.save_screenshot(str(path))


def _fill(driver: WebDriver, name: str, text: str) -> None:
    field = driver.find_element(By.NAME, name)
    field.clear()
    field.send_keys(text)


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_calculator_without_javascript(
    browser_without_js: WebDriver, base_url: str, tmp_path: Path, lang: str
) -> None:
    driver = browser_without_js
    driver.get(f"{base_url}/calc?lang={lang}")
    assert driver.find_element(By.TAG_NAME, "h1").text == LANG_TEXTS[lang]
    _fill(driver, "rating", "1500")
    _fill(driver, "game", "1600:1 1650:½")
    _fill(driver, "date", "11302026")  # the browser's own locale (en-US): mm/dd/yyyy
    driver.find_element(By.CSS_SELECTOR, "#calc button[type=submit]").click()
    WebDriverWait(driver, 10).until(lambda d: "rating=1500" in d.current_url)
    totals = driver.find_element(By.CSS_SELECTOR, "table.totals").text
    assert "1517" in totals
    assert ("+16,80" if lang != "en" else "+16.80") in totals  # K×ΣΔR unrounded
    _shot(driver, tmp_path / f"calc-nojs-{lang}.png")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_calculator_answers_as_you_type(
    browser: WebDriver, base_url: str, tmp_path: Path, lang: str
) -> None:
    driver = browser
    driver.get(f"{base_url}/calc?lang={lang}")
    driver.execute_script("window.samePage = true")
    _fill(driver, "rating", "1500")
    _fill(driver, "game", "1600:1\n1650:½\n1700:0")
    WebDriverWait(driver, 10).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "table.games tbody tr")) == 3
    )
    assert driver.execute_script("return window.samePage") is True  # no page load
    assert "game=1600%3A1" in driver.current_url  # the address keeps the question
    submit = driver.find_element(By.CSS_SELECTOR, "#calc button[type=submit]")
    assert not submit.is_displayed()  # the answer follows the form: no button needed
    driver.find_element(By.NAME, "rating").send_keys("0")  # 15000: not a rating
    alert = WebDriverWait(driver, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#answer .error")
    )
    assert "15000" in alert[0].text
    _fill(driver, "rating", "1500")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.totals"))
    _shot(driver, tmp_path / f"calc-{lang}.png")


@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_rating_a_file_through_the_form(
    browser: WebDriver, base_url: str, tmp_path: Path, lang: str
) -> None:
    driver = browser
    driver.get(f"{base_url}/?lang={lang}")
    _shot(driver, tmp_path / f"upload-{lang}.png")
    driver.find_element(By.NAME, "files").send_keys(str(KESHMAT))
    driver.find_element(By.CSS_SELECTOR, "button[value=rate]").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.ratings"))
    assert RATE_TEXTS[lang] in driver.find_element(By.CSS_SELECTOR, "p.lead").text
    rows = driver.find_elements(By.CSS_SELECTOR, "table.ratings tbody tr")
    assert len(rows) == 67
    links = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ul.downloads a")]
    assert "report.xlsx" in links
    _shot(driver, tmp_path / f"rated-{lang}.png")
