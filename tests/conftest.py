"""Fixtures shared by test modules. ``browser``: the headless Chromium the page tests drive (the replay
viewer's, ``rummysim serve``'s), Debian's chromium through Playwright, one per test module; the tests
that use it are skipped only when no chromium is installed."""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH: install Debian's chromium (apt-get install chromium) to run the page tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"] if os.geteuid() == 0 else [])
        yield b
        b.close()
