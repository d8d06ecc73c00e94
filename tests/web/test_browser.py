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

import openpyxl
import polars as pl
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
from selenium.webdriver.support.ui import Select, WebDriverWait

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


# The examples of the issue (item 6): the Italian page's (1500, a win against 1600, K 20,
# the continuous logistic method), the Spanish history page's (1830, a draw against 1980,
# K 24.6, the average-opponent method), as `elo calc ... --lang it|es` prints them.
SHARED_XLSX = Path("/work/shared/data/crosstables") / KESHMAT.name


def _answer(driver: WebDriver, text: str) -> str:
    """The answer once it holds `text` (the page updates it as you type)."""
    WebDriverWait(driver, 10).until(
        lambda d: text in "".join(e.text for e in d.find_elements(By.ID, "answer"))
    )
    return str(driver.find_element(By.ID, "answer").text)


def _choose(driver: WebDriver, name: str, value: str) -> None:
    Select(driver.find_element(By.NAME, name)).select_by_value(value)


def test_the_italian_and_spanish_examples(
    browser: WebDriver, base_url: str, tmp_path: Path
) -> None:
    driver = browser
    driver.get(f"{base_url}/calc?lang=it")
    _fill(driver, "rating", "1500")
    _fill(driver, "game", "1600:1")
    _fill(driver, "k", "20")
    _choose(driver, "method", "continuous")
    answer = _answer(driver, "1512,8")
    totals = driver.find_element(By.CSS_SELECTOR, "table.totals").text
    assert "1512,8" in totals
    assert "+12,8" in totals
    assert "35,99%" in driver.find_element(By.CSS_SELECTOR, "#answer .answer").text
    assert "1512.8" not in answer
    _shot(driver, tmp_path / "calc-example-it.png")
    driver.get(driver.current_url.replace("lang=it", "lang=en"))  # the same question
    assert "1512.8" in _answer(driver, "1512.8")
    assert "35.99%" in driver.find_element(By.CSS_SELECTOR, "#answer .answer").text
    driver.find_element(By.CSS_SELECTOR, "nav.langs a[hreflang=es]").click()
    WebDriverWait(driver, 10).until(
        lambda d: "Calculadora" in d.find_element(By.TAG_NAME, "h1").text
    )
    assert "1512,8" in _answer(driver, "1512,8")  # the switch keeps the question
    _fill(driver, "rating", "1830")
    _fill(driver, "game", "1980:½")
    _fill(driver, "k", "24.6")
    _choose(driver, "method", "average")
    _answer(driver, "1834,9")
    totals = driver.find_element(By.CSS_SELECTOR, "table.totals").text
    assert "+4,9" in totals
    assert "24,6" in totals
    _shot(driver, tmp_path / "calc-example-es.png")


def _downloaded(folder: Path, name: str) -> Path:
    path = folder / name
    deadline = time.monotonic() + 20
    while not path.is_file() or list(folder.glob("*.crdownload")):
        assert time.monotonic() < deadline, f"{name} was not downloaded"
        time.sleep(0.05)
    return path


@pytest.mark.parametrize(
    "path",
    [KESHMAT, pytest.param(SHARED_XLSX, marks=pytest.mark.skipif(
        not SHARED_XLSX.is_file(), reason="no ../shared data on this machine"))],
    ids=["fixture", "shared"],
)  # fmt: skip
def test_dropping_the_chess_results_file_and_downloading_the_report(
    browser: WebDriver, base_url: str, tmp_path: Path, path: Path
) -> None:
    driver = browser
    folder = tmp_path / "downloads"
    folder.mkdir()
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)}
    )
    driver.get(f"{base_url}/?lang=en")
    driver.find_element(By.NAME, "files").send_keys(str(path))
    driver.find_element(By.CSS_SELECTOR, "button[value=rate]").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.ratings"))
    head, rows = driver.execute_script(  # one round trip, not one per cell
        "const t = document.querySelector('table.ratings');"
        "const texts = (row, cell) => [...row.querySelectorAll(cell)].map(c => c.innerText);"
        "return [texts(t.tHead.rows[0], 'th'), [...t.tBodies[0].rows].map(r => texts(r, 'td'))];"
    )
    _shot(driver, tmp_path / "rated-example.png")
    for name in ("report.xlsx", "ratings.csv"):
        driver.find_element(By.LINK_TEXT, name).click()
        _downloaded(folder, name)
    ratings = pl.read_csv(folder / "ratings.csv", infer_schema_length=0)
    page = pl.DataFrame(rows, schema=head, orient="row")
    assert page["Name"].to_list() == ratings["name"].to_list()
    assert (
        page["Change"].str.replace("^\\+", "").to_list()
        == ratings["change"].fill_null("").to_list()
    )
    workbook = openpyxl.load_workbook(folder / "report.xlsx", read_only=True)
    sheet = list(workbook.worksheets[0].iter_rows(values_only=True))
    columns = {title: i for i, title in enumerate(sheet[0])}
    assert [r[columns["Name"]] for r in sheet[1:]] == ratings["name"].to_list()
    as_text = [
        None if r[columns["Change"]] is None else str(r[columns["Change"]]) for r in sheet[1:]
    ]
    assert as_text == ratings["change"].to_list()
    after = [
        None if r[columns["New rating"]] is None else str(r[columns["New rating"]])
        for r in sheet[1:]
    ]
    assert after == ratings["rating_after"].to_list()


def test_games_as_rows_kept_in_this_browser_and_the_chart(
    browser: WebDriver, base_url: str, tmp_path: Path
) -> None:
    driver = browser
    driver.get(f"{base_url}/calc?lang=en")
    driver.execute_script("localStorage.clear()")  # a clean start: nothing kept
    driver.get(f"{base_url}/calc?lang=en&fresh=1")  # a new page: refresh keeps the fields
    assert not driver.find_element(By.ID, "kept").is_displayed()
    _fill(driver, "rating", "2000")
    rows = driver.find_elements(By.CSS_SELECTOR, "#rows tbody tr")
    assert len(rows) == 1  # one empty row to start with
    rows[0].find_element(By.CSS_SELECTOR, ".opp").send_keys("1500")
    driver.find_element(By.ID, "add-row").click()
    second = driver.find_elements(By.CSS_SELECTOR, "#rows tbody tr")[1]
    second.find_element(By.CSS_SELECTOR, ".opp").send_keys("2100")
    Select(second.find_element(By.CSS_SELECTOR, ".score")).select_by_value("½")
    driver.find_element(By.ID, "add-row").click()
    third = driver.find_elements(By.CSS_SELECTOR, "#rows tbody tr")[2]
    third.find_element(By.CSS_SELECTOR, ".opp").send_keys("1900")
    Select(third.find_element(By.CSS_SELECTOR, ".score")).select_by_value("0")
    assert driver.find_element(By.NAME, "game").get_attribute("value") == "1500:1\n2100:½\n1900:0"
    third.find_element(By.CSS_SELECTOR, ".remove").click()
    assert driver.find_element(By.NAME, "game").get_attribute("value") == "1500:1\n2100:½"
    _fill(driver, "birth-year", "2010")
    answer = _answer(driver, "1½ points of 2")
    assert "400-point cap: applied to 1 game" in answer  # 2000 against 1500
    assert len(driver.find_elements(By.CSS_SELECTOR, "svg.chart circle.game")) == 2
    _fill(driver, "game", "1800:1 1850:0")  # pasted lines become rows
    WebDriverWait(driver, 10).until(
        lambda d: (
            [e.get_attribute("value") for e in d.find_elements(By.CSS_SELECTOR, "#rows .opp")]
            == ["1800", "1850"]
        )
    )
    _answer(driver, "1 point of 2")
    _shot(driver, tmp_path / "calc-rows-chart.png")
    driver.get(f"{base_url}/calc?lang=it")  # the next visit: restored from this browser
    assert driver.find_element(By.NAME, "rating").get_attribute("value") == "2000"
    assert driver.find_element(By.NAME, "birth-year").get_attribute("value") == "2010"
    assert len(driver.find_elements(By.CSS_SELECTOR, "#rows tbody tr")) == 2
    _answer(driver, "1 punto su 2")
    driver.find_element(By.ID, "forget").click()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return !localStorage.length"))
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.NAME, "rating").get_attribute("value") == ""
    )


def test_the_players_table_sorts_and_filters(
    browser: WebDriver, base_url: str, tmp_path: Path
) -> None:
    driver = browser
    driver.get(f"{base_url}/?lang=en")
    driver.find_element(By.NAME, "files").send_keys(str(KESHMAT))
    driver.find_element(By.CSS_SELECTOR, "button[value=rate]").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.ratings"))
    assert driver.find_elements(By.CSS_SELECTOR, "svg.histogram rect.bar")
    script = (  # the change column of the rows shown, in their order
        "return [...document.querySelectorAll('table.ratings tbody tr')]"
        ".filter(r => !r.hidden).map(r => r.cells[9].dataset.value)"
    )
    driver.find_element(By.XPATH, "//table[@class='ratings']//th[text()='Change']").click()
    changes = [int(v) for v in driver.execute_script(script) if v]
    assert changes == sorted(changes, reverse=True)  # numbers: highest first
    driver.find_element(
        By.XPATH, "//table[@class='ratings']//th[starts-with(text(), 'Change')]"
    ).click()
    changes = [int(v) for v in driver.execute_script(script) if v]
    assert changes == sorted(changes)
    driver.find_element(By.ID, "filter").send_keys("arkadan")
    assert driver.execute_script(script) == ["28"]
    assert driver.find_element(By.ID, "shown").text == "1 / 67"
    _shot(driver, tmp_path / "rated-sorted-filtered.png")
