"""Headless Chromium for the report's browser tests: Debian's `chromium` and `chromidriver` driven by
Selenium. Where they are missing and the tests run as root with apt-get (CI), they are installed
once (about 30 s); elsewhere the tests skip, saying how to install them."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CHROMIUM, DRIVER = "chromium", "chromedriver"
PACKAGES = ["chromium", "chromium-driver"]
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
    "--hide-scrollbars",
    "--window-size=1400,1000",
]


def browser_paths() -> tuple[str, str]:
    """(chromium, chromedriver), installing Debian's packages when possible; skips the test otherwise."""
    found = shutil.which(CHROMIUM), shutil.which(DRIVER)
    if all(found):
        return found  # type: ignore[return-value]
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(
            "no headless browser: install Debian's chromium and chromium-driver (apt-get install "
            "chromium chromium-driver) to run the report's browser tests"
        )
    lock = Path(tempfile.gettempdir()) / "taue-chromium-install.lock"
    with lock.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # one xdist worker installs, the others wait for it
        if not all((shutil.which(CHROMIUM), shutil.which(DRIVER))):
            _apt_install(PACKAGES)
    found = shutil.which(CHROMIUM), shutil.which(DRIVER)
    if not all(found):
        pytest.skip("no headless browser: apt-get could not install chromium and chromium-driver")
    return found  # type: ignore[return-value]


def _apt_install(packages: list[str]) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True, timeout=180, check=False)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
            env=env,
            capture_output=True,
            timeout=240,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pass  # the caller skips, naming the missing browser


def start_browser():
    """A Selenium WebDriver on headless Chromium; the caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))
