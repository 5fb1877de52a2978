"""The results schema is declared once per variant: the tables of docs/results.md, the kernels' column
indices and the written files all come from it."""

import pyarrow.parquet as pq
import pytest

from rummysim.results import Table
from rummysim.variants import NAMES, VARIANTS, variant_named

from test_docs import ROOT


@pytest.mark.parametrize("name, players", [("basic", 2), ("shanghai", 3)])
def test_the_results_page_prints_every_table_of_the_schema(name, players):
    page = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    for table in variant_named(name).schemas(players, True):
        assert table.markdown() in page, f"docs/results.md's {table.name} table of {name} differs from its schema"


@pytest.mark.parametrize("name", NAMES)
def test_kernel_columns_are_numbered_in_schema_order(name):
    """Every kernel column of a table appears once, numbered 0, 1, 2... in the order declared."""
    for table in variant_named(name).schemas(4, True):
        kernel = [c.kernel for c in table.columns if c.kernel is not None]
        assert kernel == list(range(len(kernel))), table.name
        assert isinstance(table, Table) and table.width == len(kernel)


@pytest.mark.engine
@pytest.mark.parametrize("name, count", [("basic", {"games": 30}), ("basic", {"hands": 300}),
                                         ("shanghai", {"games": 2})])
def test_written_files_have_the_schema_columns_and_types(name, count, tmp_path):
    from rummysim.results import prepare_out_dir
    from rummysim.run import RunSpec, run_to_dir
    from rummysim.strategy import seat_strategies

    v = variant_named(name)
    players = v.players[2]
    spec = RunSpec(VARIANTS[name], players, seat_strategies(["greedy"], players, VARIANTS[name]), 3, games=count.get("games"),
                   hands=count.get("hands"))
    out = prepare_out_dir(tmp_path / "r")
    run_to_dir(spec, out, workers=1)
    for table in v.schemas(players, "games" in count):
        schema = pq.read_schema(out / f"{table.name}.parquet")
        assert schema.names == [c.name for c in table.columns]
        for c in table.columns:
            kind = str(schema.field(c.name).type)
            assert kind.startswith("dictionary") if c.dtype == "dictionary" or c.labels else kind == c.dtype, \
                (table.name, c.name, kind)
