"""The golden playthroughs (``tests/playthroughs/``, as OpenSpiel's): one hand (round) of every
registered variant, move by move as text, written by ``tools/gen_playthroughs.py``. Each file must be
what the engine plays now, to the character: a change to the deal, the rules, a shipped strategy, the
legal moves or the words of a move shows here as a readable diff. A deliberate change (a rule fix with
its ``RULES_VERSION`` bump, a strategy given a new setting, new words) regenerates them in the same
commit:

    python tools/gen_playthroughs.py

A newly registered variant gets its playthroughs with no edit here (the cases come from its ``Variant``).
"""

from __future__ import annotations

import difflib
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GEN = runpy.run_path(str(ROOT / "tools" / "gen_playthroughs.py"), run_name="gen_playthroughs")
CASES = GEN["cases"]()
REGENERATE = "python tools/gen_playthroughs.py"
DIFF_LINES = 60


@pytest.mark.engine
@pytest.mark.parametrize("variant, players", CASES, ids=[GEN["file_name"](v, p)[:-4] for v, p in CASES])
def test_the_playthrough_is_what_the_engine_plays_now(variant, players):
    path = GEN["OUT"] / GEN["file_name"](variant, players)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run {REGENERATE}"
    kept = path.read_text(encoding="utf-8")
    now = GEN["playthrough"](variant, players)
    if now != kept:
        diff = list(difflib.unified_diff(kept.splitlines(), now.splitlines(), f"{path.relative_to(ROOT)} (kept)",
                                         "played now", lineterm=""))
        more = f"\n... {len(diff) - DIFF_LINES} more lines of diff" if len(diff) > DIFF_LINES else ""
        pytest.fail(f"{path.relative_to(ROOT)} is not what the engine plays now; if the change is deliberate, "
                    f"run {REGENERATE} and commit the files with it\n" + "\n".join(diff[:DIFF_LINES]) + more,
                    pytrace=False)


def test_there_is_one_file_per_case_and_no_other():
    files = {p.name for p in GEN["OUT"].glob("*")}
    wanted = {GEN["file_name"](v, p) for v, p in CASES}
    assert not wanted - files, f"missing {sorted(wanted - files)}: run {REGENERATE}"
    assert not files - wanted, f"no case writes {sorted(files - wanted)}: delete them, or run {REGENERATE}"
