"""``modules.csv`` as pandas reads it by default: the model's own row keeps a name.

The JSON names the model itself "" (torch's qualified name); an empty CSV cell is what
``pd.read_csv`` reads as NaN and ``groupby`` then drops (issue 47 item 12)."""

from __future__ import annotations

import io

import pandas as pd

from inspector.core.files.models import example_model
from inspector.core.measure.attribution import measure_attribution
from inspector.core.report.csv_tables import MODEL_ROW_NAME, TABLES
from inspector.core.report.csv_view import table_csv


def _modules_csv(data: dict) -> pd.DataFrame:
    (table,) = [t for t in TABLES if t.name == "modules.csv"]
    return pd.read_csv(io.StringIO(table_csv(table, data)))  # pandas' defaults, as a user reads it


def test_a_groupby_on_the_module_name_keeps_the_models_own_row():
    attribution = measure_attribution(example_model(), runs=3, warmup=1)
    data = {"modules": [m.to_dict() for m in attribution.modules], "attribution": [attribution.to_dict()]}
    modules = _modules_csv(data)
    assert not modules["name"].isna().any()
    by_name = modules.groupby("name")["median_ms"].sum()
    assert len(by_name) == len(data["modules"])  # no row dropped
    (root,) = [m for m in data["modules"] if m["depth"] == 0]
    assert root["name"] == ""  # the JSON keeps torch's name for the model itself
    assert by_name[MODEL_ROW_NAME] == root["median_ms"] and MODEL_ROW_NAME == "(model)"
    # Every other row's name is the JSON's, as it is.
    assert modules["name"].tolist() == [m["name"] or MODEL_ROW_NAME for m in data["modules"]]
