"""benchmarks/profile.py: the names and the perf map it makes of Numba's compiled functions."""

import importlib.util
import os
from pathlib import Path

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "profile.py"
_spec = importlib.util.spec_from_file_location("profile_tool", PATH)
profile_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(profile_tool)


def test_numba_symbols_read_as_dotted_names():
    name = ("_ZN8rummysim8variants8shanghai4bots13_greedy_meldsB4v306B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE"
            "5ArrayIxLi1E1C7mutable7alignedExxbb")
    assert profile_tool.short_name(name) == "rummysim.variants.shanghai.bots._greedy_melds"
    wrapper = "_ZN7cpython8rummysim6engine3rng9deal_keysB4v187B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dEx"
    assert profile_tool.short_name(wrapper) == "rummysim.engine.rng.deal_keys [wrapper]"
    assert profile_tool.short_name("cfunc._ZN8rummysim6engine3rng9deal_keysB4v1E") == \
        "rummysim.engine.rng.deal_keys [cfunc]"
    assert profile_tool.short_name("NRT_incref") == "NRT_incref"


def test_gdb_symbols_are_read_from_in_memory_objects_only():
    dump = """Object file /usr/lib/libc.so.6:
[ 0] T 0x7f0000001000 memcpy section .text
Object file <in-memory@0x55d0>:
[ 0] T 0x7f2f25149430 _ZN8rummysim6engine3rng9deal_keysB4v1E section .ltext
[ 1] t 0x7f2f25149000 _ZN8rummysim6engine5melds14best_partitionB4v1E section .ltext
[ 2] D 0x7f2f25150000 some_data section .data
"""
    symbols = profile_tool.parse_symbols(dump)
    assert symbols == [(0x7f2f25149000, "_ZN8rummysim6engine5melds14best_partitionB4v1E"),
                       (0x7f2f25149430, "_ZN8rummysim6engine3rng9deal_keysB4v1E")]


def test_perf_map_gives_each_function_up_to_the_next():
    pid = os.getpid()
    path = profile_tool.write_perf_map(pid, [(0x1000, "_ZN1a1fB1E"), (0x1400, "_ZN1a1gB1E")])
    try:
        assert path == Path(f"/tmp/perf-{pid}.map")
        assert path.read_text().splitlines() == ["1000 400 a.f", "1400 1000 a.g"]
    finally:
        path.unlink()
