"""The report and the leaderboard in headless Chromium: heat-map cells hold the runs' numbers, the
transcript viewer shows a chosen episode's tool calls beside its gold actions and database diff,
filters change what is listed; screenshots are saved (to $TAUE_SCREENSHOTS when set)."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from taue.runner.results import ResultsFile
from tests.browser import start_browser
from tests.report.conftest import taue

pytestmark = [pytest.mark.xdist_group("report"), pytest.mark.browser]


@pytest.fixture(scope="module")
def pages(report_runs, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pages")
    runs = [str(report_runs[agent]) for agent in ("careful-readback", "liar")]
    assert taue("report", *runs, "--out", str(root / "report.html")).exit_code == 0
    board = taue("leaderboard", *runs, "--out", str(root / "site"), "--allow-partial", "--allow-self-signed")
    assert board.exit_code == 0
    return {"report": root / "report.html", "site": root / "site" / "index.html"}


@pytest.fixture(scope="module")
def browser():
    driver = start_browser()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("TAUE_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def snap(browser, element_id: str, path: Path) -> None:
    """A screenshot of one element, the window made tall enough to hold it."""
    height = browser.execute_script("return document.getElementById(arguments[0]).scrollHeight", element_id)
    browser.set_window_size(1400, min(height + 200, 4000))
    element = browser.find_element(By.ID, element_id)
    browser.execute_script("arguments[0].scrollIntoView()", element)
    element.screenshot(str(path))
    browser.set_window_size(1400, 1000)
    assert path.stat().st_size > 10_000


def open_report(browser, pages, fragment: str = "") -> None:
    browser.get(pages["report"].as_uri() + fragment)
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#episode-list tbody tr"))


def expected_cells(run_dir: Path) -> dict[tuple[str, str], float]:
    """(emotion, domain) -> share of successful emotional episodes, straight from the results file."""
    cells: dict[tuple[str, str], list[int]] = defaultdict(list)
    for record in ResultsFile(run_dir).load():
        if record.emotion:
            cells[(record.emotion["emotion"], record.domain)].append(int(record.reward == 1))
    return {key: sum(v) / len(v) for key, v in cells.items()}


@pytest.mark.parametrize(("index", "agent"), [(0, "careful-readback"), (1, "liar")])
def test_heat_map_cells_hold_the_runs_numbers(browser, pages, report_runs, index: int, agent: str) -> None:
    open_report(browser, pages)
    figure = browser.execute_script(
        "const d = document.getElementById(arguments[0]).data[0]; return {x: d.x, y: d.y, z: d.z};",
        f"heatmap-emotion-{index}",
    )
    shown = {
        (emotion, domain): value
        for row, emotion in zip(figure["z"], figure["y"], strict=True)
        for value, domain in zip(row, figure["x"], strict=True)
        if value is not None
    }
    expected = expected_cells(report_runs[agent])
    assert shown == expected
    drawn = browser.execute_script(
        "return Array.from(document.querySelectorAll('#' + arguments[0] + ' svg text'))"
        ".map(t => t.textContent).filter(t => /^\\d\\.\\d\\d$/.test(t));",
        f"heatmap-emotion-{index}",
    )
    assert sorted(drawn) == sorted(f"{value:.2f}" for value in expected.values())


def test_the_viewer_shows_a_chosen_episodes_tool_calls_in_order(browser, pages, report_runs, shots) -> None:
    records = sorted(ResultsFile(report_runs["careful-readback"]).load(), key=lambda r: r.key)
    index, record = next((i, r) for i, r in enumerate(records) if r.tool_log)
    open_report(browser, pages)
    browser.find_element(By.CSS_SELECTOR, f'#episode-list tr[data-index="{index}"]').click()
    detail = browser.find_element(By.ID, "episode-detail")
    heading = detail.find_element(By.CSS_SELECTOR, "h3").text
    assert record.task_id in heading and f"trial {record.trial}" in heading
    calls = detail.find_elements(By.CSS_SELECTOR, ".event.tool_call")
    assert [c.get_attribute("data-tool") for c in calls] == [call.name for call in record.tool_log]
    first = record.tool_log[0]
    assert first.name in calls[0].text and next(iter(first.arguments.values()), "") in calls[0].text
    kinds = [e.get_attribute("class").split()[1] for e in detail.find_elements(By.CSS_SELECTOR, ".event")]
    assert kinds == [event.kind for event in record.events]
    gold = detail.find_elements(By.CSS_SELECTOR, ".gold-action.made")
    assert len(gold) == len(find_gold(record)) and not detail.find_elements(By.CSS_SELECTOR, ".not-made")
    snap(browser, "viewer", shots / "report-transcript.png")


def find_gold(record):
    from taue.report.failures import find_task

    return find_task(record.domain, record.task_id).evaluation.actions


def test_a_failed_episode_shows_missing_gold_actions_and_differing_rows(
    browser, pages, report_runs, shots
) -> None:
    careful = len(ResultsFile(report_runs["careful-readback"]).load())
    liar = sorted(ResultsFile(report_runs["liar"]).load(), key=lambda r: r.key)
    index, record = next((i, r) for i, r in enumerate(liar) if r.task_id == "airline-001")
    open_report(browser, pages, f"#episode-{careful + index}")
    detail = browser.find_element(By.ID, "episode-detail")
    assert record.task_id in detail.find_element(By.CSS_SELECTOR, "h3").text
    assert "unsatisfied" in detail.find_element(By.CSS_SELECTOR, ".labels").text
    assert detail.find_elements(By.CSS_SELECTOR, ".gold-action.not-made")
    tables = detail.find_elements(By.CSS_SELECTOR, "table.db-diff")
    assert tables and detail.find_elements(By.CSS_SELECTOR, "table.db-diff td.changed")
    assert {t.get_attribute("data-table") for t in tables} >= {"reservations"}
    snap(browser, "viewer", shots / "report-failed-episode.png")


def test_filters_change_what_is_listed(browser, pages, report_runs, shots) -> None:
    open_report(browser, pages)
    total = sum(len(ResultsFile(d).load()) for d in report_runs.values())

    def listed() -> list[list[str]]:
        rows = browser.find_elements(By.CSS_SELECTOR, "#episode-list tbody tr")
        return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]

    assert len(listed()) == total
    Select(browser.find_element(By.ID, "filter-domain")).select_by_visible_text("retail")
    rows = listed()
    assert rows and len(rows) < total and all(task.startswith("retail-") for _, task, *_ in rows)
    Select(browser.find_element(By.ID, "filter-reward")).select_by_visible_text("-1")
    rows = listed()
    assert rows and all(row[0] == "liar" and row[4] == "-1" and row[5] == "unsatisfied" for row in rows)
    assert browser.find_element(By.ID, "shown-count").text == f"{len(rows)} of {total} episodes"
    Select(browser.find_element(By.ID, "filter-category")).select_by_visible_text("none")
    assert listed() == []
    Select(browser.find_element(By.ID, "filter-reward")).select_by_visible_text("all")
    assert all(row[0] == "careful-readback" for row in listed())


def test_every_figure_is_drawn_in_its_own_element(browser, pages, shots) -> None:
    open_report(browser, pages)
    ids = browser.execute_script("return Array.from(document.querySelectorAll('[id]')).map(e => e.id)")
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    figures = browser.execute_script(
        "return Array.from(document.querySelectorAll('.plotly-graph-div'))"
        ".map(d => [d.id, d.querySelectorAll('svg.main-svg').length, d.closest('section').id])"
    )
    assert len(figures) == 2 * 2 + 5  # two heat maps per run, five figures over both runs
    assert all(drawn > 0 for _, drawn, _ in figures), figures
    assert {section for _, _, section in figures} == {
        "emotions",
        "families",
        "passk",
        "axes",
        "interaction",
        "failures",
        "audit",
    }
    browser.set_window_size(1400, 1600)
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(shots / "report-overview.png"))
    browser.set_window_size(1400, 1000)


def test_the_leaderboard_page_ranks_and_links_each_run(browser, pages, shots) -> None:
    browser.get(pages["site"].as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")
    assert [r.get_attribute("data-run") for r in rows] == ["careful-readback", "liar"]
    assert rows[0].find_element(By.CSS_SELECTOR, '[data-metric="avg_at_k"]').text == "1.000"
    assert rows[1].find_element(By.CSS_SELECTOR, '[data-metric="unsatisfied_rate"]').text == "100.0%"
    browser.save_screenshot(str(shots / "leaderboard.png"))
    rows[1].find_element(By.TAG_NAME, "a").click()
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#episode-list tbody tr"))
    assert browser.title == "τ-Emotion-Bench: liar"
    z = browser.execute_script("return document.getElementById('heatmap-emotion-0').data[0].z")
    assert {value for row in z for value in row if value is not None} == {0.0}


HOSTILE = ("<!--<script>", "</script>", "]]>")


def hostile_copy(run_dir: Path, out: Path) -> Path:
    """The run with markup-breaking text in its name, its agent and every agent message."""
    import json
    import shutil

    shutil.copytree(run_dir, out)
    config = json.loads((out / "run.json").read_text())
    config.update(run=f"run {HOSTILE[0]}", agent=f"agent {HOSTILE[1]} {HOSTILE[2]}")
    (out / "run.json").write_text(json.dumps(config))
    results = ResultsFile(out)
    hostile = " ".join(HOSTILE)
    records = []
    for record in results.load():
        transcript = [
            m.model_copy(update={"content": f"{m.content} {hostile}"}) if m.role == "agent" else m
            for m in record.transcript
        ]
        events = [
            e.model_copy(update={"content": f"{e.content} {hostile}"}) if e.kind == "agent" else e
            for e in record.events
        ]
        records.append(record.model_copy(update={"transcript": transcript, "events": events}))
    results.replace(records)
    return out


def test_markup_in_names_and_messages_leaves_every_episode_shown(browser, report_runs, tmp_path) -> None:
    run = hostile_copy(report_runs["liar"], tmp_path / "hostile")
    page = tmp_path / "report.html"
    assert taue("report", str(run), "--out", str(page)).exit_code == 2  # hand-edited: fails verification
    assert taue("report", str(run), "--out", str(page), "--allow-unverified").exit_code == 0
    html = page.read_text()
    assert "<!--<script>" not in html and html.count("</script>") == html.count("<script")
    browser.get(page.as_uri())
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#episode-list tbody tr"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#episode-list tbody tr")
    assert len(rows) == len(ResultsFile(run).load())
    rows[0].click()
    detail = browser.find_element(By.ID, "episode-detail").text
    assert all(text in detail for text in HOSTILE)
    names = browser.execute_script("return JSON.parse(document.getElementById('report-runs').textContent)")
    assert names[0]["name"] == f"run {HOSTILE[0]}" and HOSTILE[1] in names[0]["agent"]
