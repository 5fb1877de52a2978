"""replay --html: the frames a page is built from, the page itself, bad paths, and the viewer in a real
browser (headless Chromium driven by Playwright; skipped only when no chromium is installed)."""

import json
import os
import re
from collections import Counter

import pytest

from rummysim.cards import card_name, mask_of
from rummysim.replay_html import display_order, frames, game_totals, replay_page, template
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants import VARIANTS, variant_named
from rummysim.engine import melds as BM
from rummysim.variants.shanghai.contracts import card_at
from rummysim.variants.shanghai.replay import parse_table_meld
from rummysim.variants.shanghai.state import MELD_RUN, T_KIND, T_LO, T_SUIT
from test_report import embedded_replay, run_cli

BASIC = VARIANTS["basic"]

BASIC_HAND = ["--seed", "0", "--game", "3", "--hand", "1"]
SHANGHAI_ROUND = ["--variant", "shanghai", "--seed", "0", "--game", "3", "--round", "8"]


def trace(variant: str, seed: int, game: int, number: int, players: int, strategy: str = "greedy") -> list[dict]:
    v = variant_named(variant)
    rules = v.rules()
    params = params_matrix(seat_strategies([strategy], players, VARIANTS[variant]))
    return v.replay(seed, game, number, players, rules.to_array(players), params)


def cards_in(frame: dict) -> int:
    """Every card of a frame: hands, table, stock and pile."""
    return (sum(len(h) for h in frame["hands"]) + sum(len(m["cards"]) for m in frame["table"])
            + frame["stock"] + frame["pile"])


def natural(cell: str) -> str:
    return cell.split("=")[0]


def test_basic_frames_keep_every_card_and_every_table_meld_is_a_meld():
    # docs/rules.md 1.1: one deck of 52 cards; 1.2: what is on the table is melds (sets, runs), lay-offs keep them melds
    seen = Counter()
    for game in range(6):
        for players in (2, 4):
            events = trace("basic", 5, game, 0, players)
            got = frames(events, variant_named("basic").format_event)
            assert len(got) == len(events)
            for f, e in zip(got, events):
                assert cards_in(f) == 52
                for m in f["table"]:
                    assert BM.is_meld(mask_of(m["cards"]), False), m
                seen[e["event"]] += 1
            assert got[-1]["hands"] == [sorted(h, key=display_order) for h in events[-1]["hands"]]
            assert got[0]["hands"] == [sorted(h, key=display_order) for h in events[0]["hands"]]
    assert seen["layoff"] and seen["meld"] and seen["draw"]   # the moves the table follows did happen


def shanghai_meld_ok(meld: dict) -> None:
    """The meld as shown is a meld (docs/rules.md 2.3) with its cards in position order, and each joker of a
    run stands for the card of its position (of a set: for its rank)."""
    cells = meld["cards"]
    row = parse_table_meld(" ".join(natural(c) for c in cells))
    for i, c in enumerate(cells):
        if c.startswith("JK"):
            stands = c.split("=")[1]
            if row[T_KIND] == MELD_RUN:
                assert stands == card_name(card_at(int(row[T_SUIT]), int(row[T_LO]) + i)), meld
            else:
                assert stands == natural(cells[0])[1:], meld


def test_shanghai_frames_keep_every_card_and_place_jokers_and_swaps_where_they_stand():
    # docs/rules.md 2.1: 4 players play two decks and one joker (105 cards); 2.3: jokers stand for a card of
    # their position; 2.5: a swap puts the natural in the joker's place, the freed joker is laid off
    seen = Counter()
    for game in range(4):
        for round_no in range(1, 11):
            events = trace("shanghai", 1, game, round_no, 4, "buyer")
            got = frames(events, variant_named("shanghai").format_event)
            for f, e in zip(got, events):
                assert cards_in(f) == 105
                for m in f["table"]:
                    shanghai_meld_ok(m)
                seen[e["event"]] += 1
                seen["joker layoff"] += e["event"] == "layoff" and e["card"] == "JK"
            assert [sorted(h) for h in got[-1]["hands"]] == [sorted(h) for h in events[-1]["hands"]]
            assert sum(got[-1]["buys"]) == sum(e["event"] == "buy" for e in events)
    assert seen["swap"] and seen["joker layoff"] and seen["buy"] and seen["contract"], seen


def hand_built(hands, stock, upcard, *moves, left, round_no=None):
    """The frames of a deal of ``hands``, the ``moves`` after it and an end with the hands ``left``."""
    deal = {"event": "deal", "dealer": 1, "hands": hands, "upcard": upcard, "stock": stock}
    if round_no is not None:
        deal["round"] = round_no
    end = {"event": "end", "outcome": "win", "winner": 0, "points": 0, "going_rummy": False, "bonus": "none",
           "scores": [0, 0], "hands": left}
    return frames([deal, *moves, end], variant_named("basic" if round_no is None else "shanghai").format_event)


def test_an_ace_above_the_king_is_shown_high_and_lay_offs_go_to_their_end():
    # docs/rules.md 3.11 (with the option ace=high_or_low): Q-K-A is a run, the ace above the king; Basic's meld
    # event lists cards by id (ace first); a jack laid off goes below the queen
    got = hand_built([["SA", "SQ", "SK", "SJ"], ["D3"]], ["C2"], "H5",
                     {"event": "meld", "player": 0, "cards": ["SA", "SQ", "SK"]},
                     {"event": "layoff", "player": 0, "card": "SJ", "meld": 0}, left=[[], ["D3"]])
    assert [f["table"] for f in got[1:3]] == [[{"owner": 0, "cards": ["SQ", "SK", "SA"]}],
                                             [{"owner": 0, "cards": ["SJ", "SQ", "SK", "SA"]}]]
    # A-2-3 keeps its ace low
    got = hand_built([["SA", "S2", "S3"], ["D3"]], ["C2"], "H5", {"event": "meld", "player": 0, "cards": ["SA", "S2", "S3"]},
                     left=[[], ["D3"]])
    assert got[1]["table"][0]["cards"] == ["SA", "S2", "S3"]


def test_a_shanghai_contract_keeps_its_order_and_a_set_joker_swaps_for_any_natural_of_its_rank():
    # docs/rules.md 2.3: 2-3-...-K-A (the ace high) as laid; 2.5: a natural of the set's rank frees its joker
    run = ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA"]
    got = hand_built([[*run, "C9", "D9", "JK", "S9"], ["D3"]], ["C2"], "H5",
                     {"event": "contract", "player": 0, "melds": [run, ["C9", "D9", "JK"]],
                      "stands_for": [[None] * 13, [None, None, "9"]], "table_melds": [0, 1]},
                     {"event": "swap", "player": 0, "meld": 1, "card": "S9", "joker": "JK"}, left=[["JK"], ["D3"]],
                     round_no=8)
    assert got[1]["table"] == [{"owner": 0, "cards": run}, {"owner": 0, "cards": ["C9", "D9", "JK=9"]}]
    assert got[2]["table"][1] == {"owner": 0, "cards": ["C9", "D9", "S9"]}
    assert got[2]["hands"][0] == ["JK"] and got[2]["moved"] == {"melds": [1], "hand": [0, "JK"]}


def test_frames_refuse_events_out_of_step():
    events = trace("basic", 0, 3, 1, 2)
    draw = next(i for i, e in enumerate(events) if e["event"] == "draw" and e["source"] == "stock")
    bad = [*events[:draw], {**events[draw], "card": "JK"}, *events[draw + 1:]]
    with pytest.raises(ValueError, match="out of step"):
        frames(bad, variant_named("basic").format_event)


def test_page_is_self_contained_and_embeds_the_frames(capsys):
    v = variant_named("basic")
    events = trace("basic", 0, 3, 1, 2)
    text = replay_page(v, events, seat_strategies(["greedy"], 2, BASIC), 0, 3, 1, [])
    assert "/*REPLAY*/null" in template() and "/*REPLAY*/null" not in text
    lowered = text.lower()
    for outside in ("http:", "https:", "<link", "src=", "@import", "url(http", "<img"):
        assert outside not in lowered, outside
    data = embedded_replay(text)
    assert data["frames"] == frames(events, v.format_event)
    assert data["seats"] == ["seat 0 \u00b7 greedy", "seat 1 \u00b7 greedy"]
    assert data["title"] == "Basic Rummy: seed 0, game 3, hand 1" and data["about"][1] == "Rules: the defaults"
    command = data["about"][2].split("To reproduce: ")[1]   # prints the very same moves
    assert command == "rummysim replay --variant basic --players 2 --seed 0 --game 3 --hand 1 --strategy greedy"
    assert replay_events(command.split()[2:], capsys) == events
    assert all("totals" not in f for f in data["frames"])   # none given


def test_a_contract_separates_its_melds_as_play_does():
    """Issue 27 item 5: the page (and the text replay) wrote a contract ``C9 C9 H9 | CQ DQ DQ`` where ``play``
    writes ``contract C9 C9 H9 / CQ DQ DQ``: one separator everywhere."""
    v = variant_named("shanghai")
    events = trace("shanghai", 0, 3, 8, 4, "buyer")
    shown = [f["text"] for f, e in zip(frames(events, v.format_event), events) if e["event"] == "contract"]
    assert len(shown) == 2
    for text, e in zip(shown, [e for e in events if e["event"] == "contract"]):
        assert text.count(" / ") == len(e["melds"]) - 1 and "|" not in text
    assert "contract C7 D7 S7 / H3" in v.game.move_words   # as play says it


def test_the_last_frame_carries_the_game_totals(capsys):
    """Issue 27 item 5: the last frame showed the hand's scores, not the game's. The page's last frame (only)
    holds each seat's game total, the points of the game's hands up to it, and the line saying so."""
    v = variant_named("basic")
    seats = seat_strategies(["greedy"], 2, BASIC)
    rules, params = v.rules().to_array(2), params_matrix(seats)
    hands = [v.replay(0, 3, n, 2, rules, params) for n in range(v.units_in_game(0, 3, 2, rules, params))]
    points = [[e[-1]["points"] * (e[-1]["winner"] == q) for q in range(2)] for e in hands]
    expect = [sum(p[q] for p in points[:2]) for q in range(2)]
    totals = game_totals(v, 0, 3, 1, 2, rules, params, hands[1])
    assert totals.seats == expect and totals.line == f"game totals after hand 1: seat 0 {expect[0]}, seat 1 {expect[1]}"
    data = embedded_replay(replay_page(v, hands[1], seats, 0, 3, 1, [], totals))
    assert data["frames"][-1]["totals"] == expect and data["frames"][-1]["detail"].endswith(totals.line)
    assert all("totals" not in f for f in data["frames"][:-1])
    last = game_totals(v, 0, 3, len(hands) - 1, 2, rules, params, hands[-1])
    assert last.seats == [sum(p[q] for p in points) for q in range(2)] and last.line.endswith("; the game ends here")


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp, "is a directory"),
    (lambda tmp: tmp / "no" / "such" / "page.html", "no such directory"),
])
def test_replay_html_bad_path_is_one_line_exit_2(make, words, tmp_path, capsys):
    path = make(tmp_path)
    code, out, err = run_cli(["replay", *BASIC_HAND, "--html", path], capsys)
    assert code == 2 and out == ""
    assert err.startswith("rummysim: error: --html") and words in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere: no unwritable directory to try")
def test_replay_html_unwritable_directory_is_one_line_exit_2(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    code, _, err = run_cli(["replay", *BASIC_HAND, "--html", locked / "page.html"], capsys)
    assert code == 2 and "cannot write there" in err and len(err.strip().splitlines()) == 1
    assert list(locked.iterdir()) == []


def test_replay_html_where_no_file_can_be_made_is_one_line_exit_2(capsys):
    code, out, err = run_cli(["replay", *BASIC_HAND, "--html", "/proc/rummysim-replay.html"], capsys)   # even as root
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("rummysim: error: --html /proc/rummysim-replay.html: cannot write there")


def test_replay_html_json_and_html_together_is_one_line_exit_2(tmp_path, capsys):
    code, _, err = run_cli(["replay", *BASIC_HAND, "--json", "--html", tmp_path / "p.html"], capsys)
    assert code == 2 and "not both" in err and not (tmp_path / "p.html").exists()


def test_replay_html_writes_the_page_atomically_over_an_old_one(tmp_path, capsys):
    page = tmp_path / "hand.html"
    page.write_text("old")
    code, out, _ = run_cli(["replay", *BASIC_HAND, "--html", page], capsys)
    assert code == 0 and out.startswith(f"replay: {page} (the deal and ")
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.html"]   # no temporary file left


# ---------------------------------------------------------------- in a browser

def replay_events(args, capsys) -> list[dict]:
    code, out, err = run_cli(["replay", *args, "--json"], capsys)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


class Viewer:
    """A replay page open in headless Chromium."""

    def __init__(self, browser, path):
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.errors, self.requests = [], []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.as_uri())

    def frame(self) -> int:
        return int(self.page.get_attribute("body", "data-frame"))

    def hands(self) -> list[list[str]]:
        return self.page.eval_on_selector_all(
            ".seat", "seats => seats.map(s => [...s.querySelectorAll('.hand .card')].map(c => c.dataset.card))")

    def table(self) -> list[list[str]]:
        return self.page.eval_on_selector_all(".meld", """melds => melds.map(m => [...m.querySelectorAll('.card')]
            .map(c => c.dataset.card + (c.dataset.stands ? '=' + c.dataset.stands : '')))""")


@pytest.mark.slow   # a browser: 13 s
@pytest.mark.parametrize("variant, args", [("basic", BASIC_HAND), ("shanghai", SHANGHAI_ROUND)])
def test_viewer_steps_to_the_end_and_shows_the_hands_left(variant, args, browser, tmp_path, capsys):
    events = replay_events(args, capsys)
    path = tmp_path / "replay.html"
    code, out, err = run_cli(["replay", *args, "--html", path], capsys)
    assert code == 0, err
    view = Viewer(browser, path)
    last = len(events) - 1
    # issue 27 item 5: the CLI said "238 moves" where the page counted "0 / 237": both count the moves after the deal
    assert out == f"replay: {path} (the deal and {last} moves)\n"
    assert view.page.text_content("#counter") == f"deal ({last} moves)"
    assert view.frame() == 0
    assert [sorted(h) for h in view.hands()] == [sorted(h) for h in events[0]["hands"]]
    for _ in range(last + 1):   # one press past the end stays at the end
        view.page.keyboard.press("ArrowRight")
    assert view.frame() == last
    assert [sorted(h) for h in view.hands()] == [sorted(h) for h in events[-1]["hands"]]
    assert view.page.text_content("#counter") == f"move {last} of {last}"
    totals = embedded_replay(path.read_text())["frames"][-1]["totals"]   # the game's totals, on the last frame
    facts = view.page.eval_on_selector_all(".seat .facts", "fs => fs.map(f => f.textContent)")
    assert [f.split(" \u00b7 ")[1] for f in facts] == [f"game total {t}" for t in totals]
    assert view.page.text_content("#move").endswith(
        "game totals after " + " ".join(args[-2:]).lstrip("-") + f"{variant_named(variant).points_note}: "
        + ", ".join(f"seat {q} {t}" for q, t in enumerate(totals)))
    assert "current" in view.page.get_attribute(f"#moves li[data-frame='{last}']", "class")
    final_table = view.table()
    view.page.keyboard.press("Home")
    assert view.frame() == 0 and view.table() == []
    view.page.keyboard.press("End")
    assert view.frame() == last and view.table() == final_table
    view.page.keyboard.press("ArrowLeft")
    assert view.frame() == last - 1
    view.page.click("#moves li[data-frame='1']")
    assert view.frame() == 1 and view.page.text_content("#move") == variant_named(variant).format_event(events[1])
    assert view.page.text_content("#counter") == f"move 1 of {last}"
    assert "game total" not in view.page.text_content("#seats")
    view.page.click("#last")
    assert view.frame() == last
    view.page.screenshot(path=str(tmp_path / "replay.png"))
    assert (tmp_path / "replay.png").stat().st_size > 10_000
    assert view.errors == []
    assert view.requests == [path.as_uri()]   # nothing fetched but the page itself


def test_viewer_shows_jokers_with_what_they_stand_for(browser, tmp_path, capsys):
    # docs/rules.md 2.3: a joker on the table stands for one card; the page shows it as JK = that card
    events = replay_events(SHANGHAI_ROUND, capsys)
    path = tmp_path / "replay.html"
    run_cli(["replay", *SHANGHAI_ROUND, "--html", path], capsys)
    expected = frames(events, variant_named("shanghai").format_event)[-1]["table"]
    view = Viewer(browser, path)
    view.page.keyboard.press("End")
    assert view.table() == [m["cards"] for m in expected]
    assert view.page.text_content("header").count("contract 1 set + 1 run of 10") == 1
    assert any("=" in c for m in expected for c in m["cards"]), "round 8 of game 3 ends with a joker on the table"


def test_viewer_says_how_many_upcards_each_seat_bought(browser, tmp_path, capsys):
    """Issue 27 item 5: the badge ``2 buys`` read as bought or left; it says ``bought 2``: the upcards the seat
    has bought so far this round (docs/rules.md 2.4), as the buy events count them."""
    events = replay_events(SHANGHAI_ROUND, capsys)
    path = tmp_path / "replay.html"
    run_cli(["replay", *SHANGHAI_ROUND, "--html", path], capsys)
    view = Viewer(browser, path)
    for k in (len(events) // 2, len(events) - 1):
        view.page.click(f"#moves li[data-frame='{k}']")
        badges = view.page.eval_on_selector_all(".seat", """seats => seats.map(s => {
            const b = s.querySelector('.badge.buy'); return b ? b.textContent : ''; })""")
        bought = [sum(e["event"] == "buy" and e["player"] == q for e in events[:k + 1]) for q in range(4)]
        assert badges == [f"bought {n}" if n else "" for n in bought]
        assert any(bought), "buyers buy in round 8 of game 3"
    assert view.errors == []


def test_viewer_numbers_the_melds_as_the_move_text_does(browser, tmp_path, capsys):
    """Issue 23: the page labelled the table melds #0, #1... while its move text (the text replay), ``play``
    and ``describe`` count from 1. At each lay-off the meld it went to (highlighted) carries the number
    the move's text names, the JSON's index plus one; every meld is labelled by its place from 1."""
    events = replay_events(BASIC_HAND, capsys)
    path = tmp_path / "replay.html"
    run_cli(["replay", *BASIC_HAND, "--html", path], capsys)
    view = Viewer(browser, path)
    layoffs = [k for k, e in enumerate(events) if e["event"] == "layoff"]
    assert len(layoffs) >= 2
    for k in layoffs:
        view.page.click(f"#moves li[data-frame='{k}']")
        number = int(re.search(r"on meld (\d+)$", view.page.text_content("#move")).group(1))
        assert number == events[k]["meld"] + 1
        assert view.page.text_content(".meld.moved .owner").startswith(f"#{number} \u00b7 ")
        labels = view.page.eval_on_selector_all(".meld .owner", "owners => owners.map(o => o.textContent)")
        assert [label.split()[0] for label in labels] == [f"#{i}" for i in range(1, len(labels) + 1)]
    assert view.errors == []
