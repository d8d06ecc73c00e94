"""summary.json's encoder writes what json.dumps(indent=2) writes, byte for byte."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.report.pretty_json import dumps


def _reference(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
)
keys = st.text(max_size=8) | st.integers(-5, 5) | st.booleans() | st.none() | st.floats(-2, 2)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=5)
        | st.dictionaries(keys, inner, max_size=4)
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert dumps(value) == _reference(value)


# The summary's problem lists: dicts of scalars, with text that looks like the layout.
tricky = st.text(alphabet=st.sampled_from(list('{}[],:"\\ \x00\x01\nab')), max_size=10)
records = st.lists(
    st.dictionaries(st.text(max_size=4) | tricky, scalars | tricky, min_size=1, max_size=6),
    min_size=1,
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(records, st.integers(0, 3))
def test_problem_lists_same_text(value: list[dict[str, Any]], depth: int) -> None:
    nested: Any = value
    for _ in range(depth):
        nested = {"k": nested, "other": [1]}
    assert dumps(nested) == _reference(nested)


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": {}, "b": [], "c": [{}], "d": [[]]},
        {"warnings": [{"file": "a.trf", "line": 3, "column": None, "message": 'x\ny\t"z"'}]},
        [{"a": "},{"}, {"b": "}"}, {"c": "x\x00"}],
        [{"a": 1}, {}, {"b": 2}],
        [{"a": 1}, [1], {"b": {"c": 2}}],
        {"k": [1, [2, [3, {"deep": [1.5e-07, 1e16, -0.0]}]]]},
        ["é", "\u2028", "\x00", "\x7f", "𝄞"],
        {1: "int key", 2.5: "float key", False: "bool", None: "none"},
        {"nested": {1: [1, {"x": 2}]}},
    ],
)
def test_edge_cases(value: object) -> None:
    assert dumps(value) == _reference(value)


@pytest.mark.parametrize("bad", [math.nan, math.inf, {"a": [1, -math.inf]}, {"a": {"b": math.nan}}])
def test_non_finite_float_refused_like_json(bad: object) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        _reference(bad)
    with pytest.raises(ValueError, match="not JSON compliant"):
        dumps(bad)


def test_unencodable_refused_like_json() -> None:
    with pytest.raises(TypeError):
        _reference({"a": {1, 2}})
    with pytest.raises(TypeError):
        dumps({"a": {1, 2}})
