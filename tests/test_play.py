"""rummysim play through a pseudo-terminal (pexpect) and through a pipe: a whole game by typed moves,
every kind of wrong input answered with one line and the question again, a Shanghai buy and joker
swap typed by the person, quit and end of input saving the game, and the piped ``auto`` game equal
row for row to ``rummysim run``'s game 0 (the person in seat 0 playing the hint strategy, the
opponents in seats 1, 2... in order).
"""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pexpect
import pytest

import rummysim
from rummysim.base.rules import rules_from_mapping
from rummysim.cards import card_id, card_name
from rummysim.strategy import params_matrix, seat_strategies
from rummysim.variants import VARIANTS, variant_named

pytestmark = pytest.mark.engine

PROMPT = "\r\n> "
PAUSE = r"press Enter for the next (hand|round) \(or type quit\) "
MOVE = re.compile(r"^\s+(\d+)\. (.+?)\s*$", re.MULTILINE)


def terminal_env() -> dict:
    """The environment of a program on a pseudo-terminal: a dumb one (rich writes no colour codes to it),
    its width the terminal's (pytest-xdist's workers set COLUMNS=80)."""
    return {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")} | {"TERM": "dumb"}


def spawn(args, out: Path) -> pexpect.spawn:
    """``rummysim play ARGS --out OUT --pause 0`` on a pseudo-terminal (wide, so lines do not wrap)."""
    env = terminal_env()
    return pexpect.spawn(sys.executable, ["-m", "rummysim", "play", *args, "--out", str(out), "--pause", "0"],
                         env=env, encoding="utf-8", timeout=900, dimensions=(60, 250))


def next_question(child) -> list[str]:
    """Wait for the next question (going on at the end of a hand or round); returns the moves it lists,
    in order."""
    while child.expect([PROMPT, PAUSE]) == 1:
        child.sendline("")
    block = child.before.rsplit("Your move", 1)[-1]
    return [m.group(2) for m in MOVE.finditer(block)]


def answer(child, text: str, expect: str) -> None:
    """Answer ``text`` to a question and check the one line that comes back, then the question again."""
    child.sendline(text)
    child.expect(PROMPT)
    reply = child.before.split("\r\n", 1)[1].strip()   # the echo of the input first
    assert re.search(expect, reply), (text, reply)
    assert "\r\n" not in reply and "Traceback" not in reply


def finish(child) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Traceback" not in child.before
    return child.before


def record(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())


def test_a_whole_game_by_typed_moves(tmp_path):
    """Basic Rummy to a target of 30: every move typed, as the words of the hint or as its number."""
    out = tmp_path / "game"
    child = spawn(["--seed", "2", "--rule", "target=30", "--opponent", "cautious"], out)
    typed = 0
    while True:
        i = child.expect([PROMPT, r"game over\. Final scores: (.+)\r\n", PAUSE])
        if i == 1:
            break
        if i == 2:
            child.sendline("")
            continue
        moves = [m.group(2) for m in MOVE.finditer(child.before.rsplit("Your move", 1)[-1])]
        child.sendline("hint")
        child.expect(r"hint \(expert\): (.+?): .+\r\n")
        words = child.match.group(1)
        child.expect_exact("> ")
        child.sendline(words if typed % 2 else str(moves.index(words) + 1))
        typed += 1
    scores = child.match.group(1)
    finish(child)
    rec = record(out)
    assert rec["status"] == "complete" and typed > 10
    assert max(rec["play"]["totals"]) >= 30
    assert scores.startswith(f"you {rec['play']['totals'][0]}, seat 1 (cautious) {rec['play']['totals'][1]}")
    # the hint's moves, typed, are the strategy's: the game is run's game 0 with expert in seat 0
    r = rummysim.simulate(games=1, players=2, strategies=["expert", "cautious"], seed=2, rules={"target": 30})
    assert pd.read_parquet(out / "hands.parquet").equals(r.hands)


def test_every_kind_of_wrong_input_gets_one_line_and_the_question_again(tmp_path):
    out = tmp_path / "wrong"
    child = spawn(["--seed", "4", "--ask-every-move"], out)   # the lone stop below is asked too
    moves = next_question(child)
    assert moves[0] == "draw stock" and moves[1].startswith("take ")
    upcard = moves[1].split()[1]
    answer(child, "7", r"^no move 7: choose a number from 1 to 2 ")
    answer(child, "0", r"^no move 0: choose a number from 1 to 2 ")
    answer(child, "xyzzy plugh", r"^unknown move 'xyzzy': now draw: draw stock, or take the upcard ")
    answer(child, "take ZZ", r"^not a card: 'ZZ' \(write suit C/D/H/S")
    answer(child, "discard H5", r"^no discard now: draw: draw stock, or take the upcard ")
    answer(child, "hint", r"^hint \(expert\): (draw stock|take ..?.): .+")
    child.sendline("help")                      # a long line: wrapped on words at the terminal's width
    child.expect(PROMPT)
    assert " ".join(child.before.split()).startswith("help Answer with a move's number or its words")
    child.sendline("take")                      # docs/rules.md 3.1: the card taken may not be thrown back
    moves = next_question(child)
    assert moves[-1] == "stop"
    answer(child, "meld C4 C5", r"^a meld is 3 or more cards")
    child.sendline("stop")
    moves = next_question(child)
    assert all(m.startswith("discard ") for m in moves) and f"discard {upcard}" not in moves
    answer(child, f"discard {upcard}", rf"^you took {upcard} from the pile this turn: you may not throw it back "
                                       r"\(docs/rules\.md 3\.1\)")
    child.sendline("quit")
    text = finish(child)
    assert "game stopped (quit)" in text and f"saved: {out}" in text
    rec = record(out)
    assert rec["status"] == "quit" and rec["hands_played"] == 0
    assert len(pd.read_parquet(out / "hands.parquet")) == 0


def test_end_of_input_quits_and_saves_what_was_finished(tmp_path):
    """Piped: moves one a line; at the end of the input the game stops, saved with its finished hands."""
    out = tmp_path / "eof"
    moves = "auto\n" * 60
    p = subprocess.run([sys.executable, "-m", "rummysim", "play", "--seed", "1", "--out", str(out),
                        "--rule", "target=30"], input=moves, capture_output=True, text=True, timeout=900, check=False)
    assert p.returncode == 0, p.stderr
    assert "game stopped (quit)" in p.stdout
    rec = record(out)
    assert rec["status"] == "quit"
    hands = pd.read_parquet(out / "hands.parquet")
    assert len(hands) == rec["hands_played"] == len(list((out / "events").iterdir()))


def pipe_auto(args, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(f"yes auto | {sys.executable} -m rummysim play {args} --out {out}", shell=True,
                          capture_output=True, text=True, timeout=1800, check=False)


@pytest.mark.parametrize("variant, args, strategies", [
    ("basic", "--seed 1 --opponent expert", ["expert", "expert"]),
    ("shanghai", "--variant shanghai --players 3 --seed 5 --opponent buyer --opponent greedy",
     ["expert", "buyer", "greedy"]),
])
def test_piped_auto_is_run_row_for_row(tmp_path, variant, args, strategies):
    """`yes auto | rummysim play --seed S --opponent X...` is game 0 of `rummysim run --games 1 --seed S
    --strategy expert --strategy X...`: every row the same but seat 0's strategy name (``human``)."""
    out = tmp_path / "auto"
    p = pipe_auto(args, out)
    assert p.returncode == 0, p.stderr
    assert "game over. Final scores: you " in p.stdout
    seed = int(args.split("--seed ")[1].split()[0])
    v = variant_named(variant)
    r = rummysim.simulate(games=1, players=len(strategies), strategies=strategies, seed=seed, variant=variant)
    played = {t: pd.read_parquet(out / f"{t}.parquet") for t in (v.table, "seats", "games")}
    assert played[v.table].equals(r.hands)
    assert played["games"].equals(r.games)
    seats, expected = played["seats"], r.seats
    assert list(seats.strategy.astype(str)[seats.seat == 0].unique()) == ["human"]
    assert seats.drop(columns="strategy").equals(expected.drop(columns="strategy"))
    assert (seats.strategy.astype(str)[seats.seat > 0].values == expected.strategy.astype(str)[expected.seat > 0].values).all()
    # replay --from prints the saved moves: the same events as replaying run's hand from its seed
    rules = rules_from_mapping(VARIANTS[variant], {})
    params = params_matrix(seat_strategies(strategies, len(strategies), VARIANTS[variant]))
    unit = v.first_unit + 1
    saved = [json.loads(line) for line in (out / "events" / f"{v.unit}-{unit}.jsonl").read_text().splitlines()]
    assert saved == v.replay(seed, 0, unit, len(strategies), rules.to_array(len(strategies)), params)
    shown = subprocess.run([sys.executable, "-m", "rummysim", "replay", "--from", str(out), f"--{v.unit}", str(unit)],
                           capture_output=True, text=True, timeout=600, check=False)
    header, moves = shown.stdout.split("\n\n", 1)   # issue 27 item 5: a header, the moves, the game's totals
    assert shown.returncode == 0 and moves.splitlines()[:-1] == [
        line for e in saved for line in v.format_event(e).splitlines()]
    assert header.splitlines()[0] == f"{v.title}: seed {seed}, game 0, {v.unit} {unit}"
    assert header.splitlines()[1].startswith(f"{len(strategies)} players: seat 0 human, seat 1 {strategies[1]}")
    assert moves.splitlines()[-1].startswith(f"game totals after {v.unit} {unit}")


def test_report_reads_a_played_game(tmp_path):
    out = tmp_path / "auto"
    assert pipe_auto("--seed 3 --rule target=20", out).returncode == 0
    p = subprocess.run([sys.executable, "-m", "rummysim", "report", str(out), "-o", str(tmp_path / "rep")],
                       capture_output=True, text=True, timeout=600, check=False)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "rep" / "report.html").is_file()


@pytest.mark.parametrize("variant, args", [("basic", []), ("shanghai", ["--variant", "shanghai", "--players", "3"])])
def test_a_game_quit_before_any_hand_ended_can_be_read(tmp_path, capsys, monkeypatch, variant, args):
    """Issue 23: a game quit at its first question saved no hand (round); ``report`` died (Basic
    ``KeyError: 'strategy'``, Shanghai "Axis limits cannot be NaN") and ``replay --from`` offered
    "hands 0..-1". The report is a page that says no hand finished; replay says so in one line."""
    from test_cli import run_cli

    unit = variant_named(variant).unit
    out = tmp_path / "quit"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, stdout, err = run_cli(["play", *args, "--seed", "3", "--out", str(out)], capsys)
    assert code == 0 and f"saved: {out}" in stdout, err
    assert record(out)[f"{unit}s_played"] == 0
    code, stdout, err = run_cli(["report", str(out), "-o", str(tmp_path / "rep")], capsys)
    assert code == 0 and err == "", err
    page = (tmp_path / "rep" / "report.html").read_text()
    assert f"<h2>No {unit} finished</h2>" in page and "<img" not in page
    assert sorted(p.name for p in (tmp_path / "rep").iterdir()) == ["report.html"]
    code, stdout, err = run_cli(["replay", "--from", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert err == (f"rummysim: error: --{unit} {variant_named(variant).first_unit}: the game in {out} was stopped "
                   f"before its first {unit} ended: nothing to replay\n")


def test_a_shanghai_game_of_a_few_rounds_is_reported(tmp_path, capsys):
    """Issue 23: one Shanghai game (a game quit after some rounds, or ``run --games 1``) has no interval
    over games, and the win share figure took its nan bound for an axis limit. The report is written,
    its win share panel scaled by the 1/k line."""
    from test_cli import run_cli

    out = tmp_path / "one"
    code, _, err = run_cli(["run", "--variant", "shanghai", "--players", "3", "--games", "1", "--seed", "2",
                            "--out", str(out)], capsys)
    assert code == 0, err
    code, stdout, err = run_cli(["report", str(out), "-o", str(tmp_path / "rep")], capsys)
    assert code == 0 and err == "", err
    assert (tmp_path / "rep" / "final_totals_by_seat.png").is_file()


def test_shanghai_buy_typed(tmp_path):
    """docs/rules.md 2.4.2: offered the upcard another seat left, the person types buy and gets it with
    the top stock card as a penalty (shown to them only)."""
    out = tmp_path / "buy"
    child = spawn(["--variant", "shanghai", "--players", "4", "--seed", "0", "--opponent", "greedy"], out)
    for _ in range(200):
        moves = next_question(child)
        if moves[0] == "pass":
            upcard = moves[1].split()[1]
            question = " ".join(child.before.rsplit("Your move", 1)[-1].split())
            assert re.search(rf"seat \d \(greedy\) left {upcard}(; .+ did not buy it)?\. Buy it \(you take {upcard} "
                             r"and, as a penalty, the top card of the stock; [1-4] buys left this round\), or pass",
                             question), question
            answer(child, "buy ZZ", r"^not a card: 'ZZ'")
            child.sendline("buy")
            child.expect(rf"you buy {upcard} \(penalty card (\S+)\)")
            break
        child.sendline("auto")
    else:
        pytest.fail("never offered a buy")
    child.sendline("quit")
    finish(child)
    assert record(out)["status"] == "quit"


def test_shanghai_joker_swap_typed(tmp_path):
    """docs/rules.md 2.5: down, the person puts a natural in place of the table joker standing for it and
    the freed joker is laid off at once. Seed 3 with 4 jokers, 3 players: found by playing the hint in
    seat 0 until a swap was legal (the 9th decision of round 1)."""
    out = tmp_path / "swap"
    child = spawn(["--variant", "shanghai", "--players", "3", "--seed", "3", "--rule", "jokers=4",
                   "--opponent", "greedy"], out)
    for _ in range(40):
        moves = next_question(child)
        swaps = [m for m in moves if m.startswith("swap ")]
        if swaps:
            card, meld, _, home = swaps[0].split()[1:]
            answer(child, f"swap {card} 9 JK 1", r"^no table meld 9: they are numbered 1 to \d+")
            child.sendline(f"swap {card} {meld} joker {home}")
            child.expect(rf"you swap {card} for the joker of meld {meld}\r\n.*you lay off JK=\S+ on meld {home}\r\n")
            break
        child.sendline("auto")
    else:
        pytest.fail("no swap offered")
    child.sendline("quit")
    finish(child)


@pytest.mark.parametrize("args, words", [
    (["--opponent", "nosuch"], "unknown strategy 'nosuch'"),
    (["--players", "4", "--opponent", "greedy", "--opponent", "expert"], "--opponent given 2 times for 3 opponents"),
    (["--hint-strategy", "buyer"], "--hint-strategy: unknown strategy 'buyer'"),
    (["--variant", "shanghai", "--players", "2"], "Shanghai Rummy takes 3 to 8"),
    (["--rule", "target=0"], "target"),
])
def test_bad_options_one_line_exit_2_nothing_written(tmp_path, capsys, args, words):
    from test_cli import run_cli

    out = tmp_path / "never"
    code, stdout, err = run_cli(["play", *args, "--out", str(out)], capsys)
    assert code == 2 and err.startswith("rummysim: error: ") and words in err and err.count("\n") == 1
    assert not out.exists()


def test_move_lines_hide_what_the_seat_may_not_see():
    """Another seat's stock draw and a bought upcard's penalty card are not named; the person's own are
    (``Game.event_line``: the lines every variant shares, and Shanghai's buy)."""
    game = VARIANTS["shanghai"].game(3, rules_from_mapping(VARIANTS["shanghai"], {}).to_array(3))

    def line(e):
        return game.event_line(e, lambda p: "you" if p == 0 else f"seat {p}", 0)

    assert line({"event": "draw", "player": 1, "source": "stock", "card": "H4"}) == "seat 1 draws from the stock"
    assert line({"event": "draw", "player": 0, "source": "stock", "card": "H4"}) == "you draw H4 from the stock"
    assert line({"event": "draw", "player": 1, "source": "discard", "card": "D9"}) == "seat 1 takes D9 from the pile"
    assert line({"event": "buy", "player": 2, "card": "D9", "penalty": "CK"}) == "seat 2 buys D9 and a penalty card"
    assert line({"event": "buy", "player": 0, "card": "D9", "penalty": "CK"}) == "you buy D9 (penalty card CK)"
    assert line({"event": "reshuffle", "stock": ["S2", "S3"]}) == "the stock ran out: the discard pile becomes the stock"
    assert line({"event": "layoff", "player": 1, "card": "JK", "meld": 0, "stands_for": "H4", "end": "low"}) == \
        "seat 1 lays off JK=H4 on meld 1"


def _view(game, seat: int) -> str:
    """What ``rummysim play`` shows the person in ``seat`` at a decision (``View.table``), as text."""
    from io import StringIO

    from rich.console import Console

    from rummysim.play.render import View
    console = Console(file=StringIO(), width=200, color_system=None)
    View(console, seat, ["expert"] * game.players, "expert", 0.0).table(game)
    return console.file.getvalue()


def test_view_never_names_a_card_drawn_again_unseen():
    """docs/rules.md 1.3.1 and 1.5: the others see a card taken from the pile until it leaves the hand;
    thrown, reshuffled into the stock and drawn again, it is drawn unseen and the view no longer names
    it, though the state's record of takes (``M_PICKED``) still holds it."""
    from rummysim.cards import card_name
    from rummysim.variants.basic import moves as MV
    from rummysim.variants.basic.state import (
        I_PHASE,
        I_PILE_N,
        I_STOCK_N,
        M_HAND,
        M_PICKED,
        M_PILE,
        PH_PLAY,
    )

    game = variant_named("basic").game(2, variant_named("basic").rules().to_array(2))
    game.reset(3, 0)
    state = game.state
    a = game.seat
    b = 1 - a
    x = game.upcard()

    def turn(draw: int, throw: int | None = None) -> None:
        """A draw, stop, then a discard: ``throw`` or the first legal one."""
        game.play(draw)
        if state.ints[I_PHASE] == PH_PLAY:
            game.play(MV.STOP)
        game.play(int(MV.card_index(throw)) if throw is not None else int(game.legal()[0]))

    game.play(MV.TAKE_DISCARD)
    assert f"took {card_name(x)} from the pile" in _view(game, b)
    game.play(MV.STOP)
    game.play(next(int(m) for m in game.legal() if m != MV.card_index(x)))   # 3.1: not the card just taken
    turn(MV.DRAW_STOCK)
    turn(MV.DRAW_STOCK, throw=x)
    assert game.taken()[a] == []
    # the pile's top card x reshuffled into the stock, second from the top: b draws the top, a draws x
    state.ints[I_PILE_N] -= 1
    state.masks[M_PILE] &= ~np.uint64(1 << x)
    n = int(state.ints[I_STOCK_N])
    state.stock[n], state.stock[n - 1] = state.stock[n - 1], x
    state.ints[I_STOCK_N] = n + 1
    turn(MV.DRAW_STOCK)
    game.play(MV.DRAW_STOCK)
    assert int(state.masks[M_HAND + a]) >> x & 1 and int(state.masks[M_PICKED + a]) >> x & 1
    assert game.taken()[a] == []
    assert card_name(x) not in _view(game, b).split("Your hand")[0].split("Upcard")[1]


def test_a_number_that_is_no_move_says_which_numbers_are():
    """Issue 27: ``no move 7: choose 1 to 1`` at a decision with one move; it says the only move, and
    otherwise the range in words."""
    from rummysim.base.errors import MoveError
    from rummysim.play.game import Decision, chosen

    one = Decision(moves=[(54, "stop")], hint=54, hint_name="greedy", reason="", kept=None)
    with pytest.raises(MoveError, match="^no move 7: the only move is 1$"):
        chosen(None, one, "7")
    three = Decision(moves=[(1, "a"), (2, "b"), (3, "c")], hint=1, hint_name="greedy", reason="", kept=None)
    with pytest.raises(MoveError, match="^no move 0: choose a number from 1 to 3$"):
        chosen(None, three, "0")


def test_auto_hand_plays_to_the_hands_end_and_waits_there_then_auto_game_to_the_end(tmp_path):
    """``auto hand`` answers every decision of the person to the end of the hand, each move shown; the
    end of a hand waits for Enter on a terminal; ``auto game`` plays to the end without waiting."""
    out = tmp_path / "autohand"
    child = spawn(["--seed", "6", "--rule", "target=40"], out)
    next_question(child)
    child.sendline("auto hand")
    child.expect(PAUSE)
    hand = child.before
    assert "Your move" not in hand
    assert re.search(r"\r\nyou discard \S+\r\n", hand) and re.search(r"\r\nyou stop\r\n", hand)
    assert re.search(r"won the hand|went out|no winner", hand)
    child.sendline("")
    child.expect("hand 1: dealt")
    next_question(child)
    child.sendline("auto game")
    child.expect(r"game over\. Final scores")
    assert "press Enter" not in child.before and "Your move" not in child.before
    finish(child)
    assert record(out)["status"] == "complete"


def test_auto_alone_plays_one_move_and_a_bare_unknown_reach_says_what_there_is(tmp_path):
    out = tmp_path / "autoone"
    child = spawn(["--seed", "6"], out)
    next_question(child)
    answer(child, "auto everything", r"^auto plays one move; auto hand plays to the end of the hand, auto game")
    child.sendline("auto")
    next_question(child)            # asked again at the next decision with a choice
    child.sendline("quit")
    finish(child)


def test_ctrl_c_at_a_question_ends_on_its_own_line_with_exit_130_and_saves(tmp_path):
    out = tmp_path / "ctrlc"
    child = spawn(["--seed", "4"], out)
    next_question(child)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    assert re.search(r"\r\ngame stopped \(Ctrl-C\): saved what was finished", child.before), child.before
    assert "Traceback" not in child.before
    assert record(out)["status"] == "quit"


def _questions(stdout: str) -> list[list[str]]:
    """The moves each question of a piped game listed."""
    return [[m.group(2) for m in MOVE.finditer(block.split("\n> ", 1)[0] if "\n> " in block else block)]
            for block in stdout.split("Your move")[1:]]


def test_a_decision_with_one_legal_move_is_played_unasked_and_shown(tmp_path):
    """Piped ``auto`` alone: no question lists a single move, the moves played unasked are on their own
    lines (``you stop``), and the game is the one --ask-every-move plays, where single moves are asked."""
    played = {}
    for flag in ("", "--ask-every-move"):
        out = tmp_path / f"single{flag}"
        p = pipe_auto(f"--seed 7 --rule target=30 {flag}", out)
        assert p.returncode == 0, p.stderr
        played[flag] = (p.stdout, pd.read_parquet(out / "hands.parquet"))
    quiet, asked = played[""][0], played["--ask-every-move"][0]
    assert _questions(quiet) and all(len(q) > 1 for q in _questions(quiet))
    assert any(len(q) == 1 for q in _questions(asked))
    assert re.search(r"\nyou stop\n", quiet)
    assert played[""][1].equals(played["--ask-every-move"][1])


def test_lines_wrap_on_words_at_the_terminals_width(tmp_path):
    """A narrow terminal: no line is wider than it, and the hand's cards wrap whole."""
    out = tmp_path / "narrow"
    env = terminal_env()
    child = pexpect.spawn(sys.executable, ["-m", "rummysim", "play", "--variant", "shanghai", "--players", "3",
                                           "--seed", "2", "--out", str(out), "--pause", "0"],
                          env=env, encoding="utf-8", timeout=900, dimensions=(60, 50))
    next_question(child)
    lines = child.before.split("\r\n")
    assert max(len(line) for line in lines) <= 50, max(lines, key=len)
    start = next(i for i, line in enumerate(lines) if line.startswith("Your hand"))
    end = next(i for i, line in enumerate(lines) if line.startswith("Your move"))
    tokens = " ".join(lines[start:end]).split(":", 1)[1].split()
    assert tokens and all(re.fullmatch(r"\||JK|x\d+|[CDHS](A|[2-9]|10|J|Q|K)[*+]?", t) for t in tokens), tokens
    child.sendline("quit")
    finish(child)


def _shanghai_game(players: int = 3):
    v = VARIANTS["shanghai"]
    game = v.game(players, rules_from_mapping(v, {}).to_array(players))
    game.reset(11, 0)
    return game


def _cards(*names: str) -> np.ndarray:
    counts = np.zeros(64, dtype=np.int64)
    for n in names:
        counts[card_id(n)] += 1
    return counts


def test_shanghai_hand_marks_only_the_melds_of_the_rounds_contract():
    """docs/rules.md 2.2: round 1 is two sets, so a run in hand is no meld of it; round 2 (a set and a run
    of four) marks both; a run shorter than the contract's is only partial."""
    from rummysim.variants.shanghai.state import SI_ROUND

    game = _shanghai_game()
    game.state.hands[0][:] = _cards("D6", "D7", "D8", "C5", "D5", "H5", "S9", "H9", "CK")
    full, part, legend = game.marks(0)
    names = {card_name(c) for c in full}
    assert names == {"C5", "D5", "H5"}, names
    assert {card_name(c) for c in part} == {"S9", "H9"}
    assert legend == "* in a meld of the contract (2 sets), + in a partial one"
    game.state.ints[SI_ROUND] = 2
    game.state.hands[0][:] = _cards("D5", "D6", "D7", "D8", "C5", "H5", "S9", "S10", "S2")
    full, part, _ = game.marks(0)
    assert {card_name(c) for c in full} == {"D5", "D6", "D7", "D8", "C5", "H5"}
    assert {"S9", "S10"} <= {card_name(c) for c in part}


def test_shanghai_table_and_marks_once_the_person_is_down():
    """Once down (2.5) the hand marks what fits a table meld, and the table calls the person's melds
    theirs: ``you``, as the scores do, not ``seat 0``."""
    from rummysim.variants.shanghai.state import SI_DOWN_TURN_SEAT

    game = _shanghai_game()
    params = params_matrix(seat_strategies(["expert"] * 3, 3, VARIANTS["shanghai"]))
    while not game.state.ints[SI_DOWN_TURN_SEAT]:
        if game.unit_over:
            game.finish()
            game.next_unit()
            continue
        move = game.forced()
        game.play(move if move >= 0 else game.choose(params, game.seat))
    lines = game.table_lines(lambda q: "you" if q == 0 else f"seat {q}")
    assert any(line.endswith("[you]") or "[you] takes" in line for line in lines), lines
    assert not any("[seat 0]" in line for line in lines)
    full, part, legend = game.marks(0)
    fits = {c for k in range(len(lines)) for c in game.notation.fitting(game.state, k)}
    assert full <= fits and not part and legend == "* fits a table meld"
