"""The report's plot titles in headless Chromium: none lies under plotly's toolbar (the modebar, top
right) or under its figure's subplot titles (report/html/page.py, `clear_of_toolbar`)."""

from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from taue.report.html.page import TOOLBAR_HEIGHT, clear_of_toolbar
from tests.browser import start_browser
from tests.report.conftest import taue

pytestmark = pytest.mark.xdist_group("report")

BOXES = """
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
return [...document.querySelectorAll('.js-plotly-plot')].flatMap(plot => {
  const bar = plot.querySelector('.modebar'), title = plot.querySelector('.gtitle');
  if (!bar || !title || title.getBoundingClientRect().width === 0) return [];
  const t = title.getBoundingClientRect(), b = bar.getBoundingClientRect();
  const subplots = [...plot.querySelectorAll('.annotation')].map(n => n.getBoundingClientRect());
  return [{id: plot.id, toolbar: overlap(t, b), subplot: subplots.some(s => overlap(t, s)),
           below: t.top >= b.bottom, text: title.textContent}];
});
"""


@pytest.fixture(scope="module")
def report_page(report_runs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    page = tmp_path_factory.mktemp("titles") / "report.html"
    runs = [str(report_runs[agent]) for agent in ("careful-readback", "liar")]
    assert taue("report", *runs, "--out", str(page)).exit_code == 0
    return page


@pytest.mark.browser
def test_no_plot_title_lies_under_the_toolbar(report_page: Path) -> None:
    browser = start_browser()
    try:
        for width in (1400, 900):  # a narrow window squeezes the side-by-side heat maps
            browser.set_window_size(width, 1000)
            browser.get(report_page.as_uri())
            WebDriverWait(browser, 30).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, ".js-plotly-plot .gtitle")
            )
            boxes = browser.execute_script(BOXES)
            assert len(boxes) >= 5, boxes
            assert [b["id"] for b in boxes if b["toolbar"] or b["subplot"]] == [], boxes
            assert all(b["below"] for b in boxes), boxes  # below the toolbar's band: clear at any width
    finally:
        browser.quit()


def test_the_layout_puts_titles_below_the_toolbar() -> None:
    figure = clear_of_toolbar(go.Figure(layout={"title": "a title", "margin": {"t": 50}}))
    assert (figure.layout.title.yref, figure.layout.title.y, figure.layout.title.yanchor) == (
        "container",
        1,
        "top",
    )
    assert figure.layout.title.pad.t == TOOLBAR_HEIGHT and figure.layout.margin.t >= TOOLBAR_HEIGHT + 40
    assert clear_of_toolbar(go.Figure()).layout.margin.t is None  # no title: nothing to move
