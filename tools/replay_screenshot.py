"""A screenshot of a replay page at one move, in headless Chromium (how reports/example/replay.png was made).

    rummysim replay --variant shanghai --game 3 --round 8 --html /tmp/replay.html
    python tools/replay_screenshot.py /tmp/replay.html 153 reports/example/replay.png

Needs the system chromium and Playwright (the test extra).
"""

import argparse
import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path, help="a page written by rummysim replay --html")
    parser.add_argument("move", type=int, help="the move to show (0: the deal)")
    parser.add_argument("png", type=Path)
    parser.add_argument("--width", type=int, default=1280)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"] if os.geteuid() == 0 else [])
        page = browser.new_page(viewport={"width": args.width, "height": 800})
        page.goto(args.page.resolve().as_uri())
        for _ in range(args.move):
            page.keyboard.press("ArrowRight")
        page.screenshot(path=str(args.png), full_page=True)
        browser.close()


if __name__ == "__main__":
    main()
