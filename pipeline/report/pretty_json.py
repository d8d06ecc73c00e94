"""summary.json's text: exactly what `json.dumps(value, indent=2, ensure_ascii=False,
allow_nan=False)` writes, built about three times faster for what a summary holds (a
problem object per warning, tens of thousands in a large month: 33,000 warnings took
0.55 s through json.dumps, 0.15 s here).

The json module encodes with its C encoder only without `indent`. A container holding
scalars only is therefore encoded by that C encoder with the item separator that puts
each item on its own indented line (`,` newline and the indent), and its brackets then
get the same line breaks; a list of such dicts is encoded in one call (`_records`);
other containers of containers are walked here. Scalars are encoded by the json module
either way, so strings, floats and the NaN check are its own.
"""

from __future__ import annotations

import json
from functools import cache

INDENT = 2
_SCALARS = (str, int, float, type(None))  # bool is an int


@cache
def _encoder(depth: int) -> json.JSONEncoder:
    """Encodes a scalar, or a container of scalars with its items at `depth` + 1."""
    pad = "\n" + " " * (INDENT * (depth + 1))
    return json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=("," + pad, ": "))


def dumps(value: object) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)`, the same text."""
    out: list[str] = []
    _write(value, 0, out)
    return "".join(out)


def _write(value: object, depth: int, out: list[str]) -> None:
    encoder = _encoder(depth)
    if isinstance(value, dict):
        if not value:
            out.append("{}")
        elif _flat(value):
            out.append(_bracketed(encoder.encode(value), depth))
        elif all(isinstance(k, str) for k in value):
            pad = "\n" + " " * (INDENT * (depth + 1))
            out.append("{")
            for i, (key, item) in enumerate(value.items()):
                out.append(("," if i else "") + pad + encoder.encode(key) + ": ")
                _write(item, depth + 1, out)
            out.append("\n" + " " * (INDENT * depth) + "}")
        else:  # keys json turns into strings (numbers, booleans, None): its own walk
            out.append(_indented(value, depth))
    elif isinstance(value, list | tuple):
        if not value:
            out.append("[]")
        elif all(type(v) is dict and v and _flat(v) for v in value):
            out.append(_records(value, depth))
        elif all(isinstance(v, _SCALARS) for v in value):
            out.append(_bracketed(encoder.encode(value), depth))
        else:
            pad = "\n" + " " * (INDENT * (depth + 1))
            out.append("[")
            for i, item in enumerate(value):
                out.append(("," if i else "") + pad)
                _write(item, depth + 1, out)
            out.append("\n" + " " * (INDENT * depth) + "]")
    else:
        out.append(encoder.encode(value))


def _flat(value: dict[object, object]) -> bool:
    return all(isinstance(v, _SCALARS) for v in value.values())


_RECORDS = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",\0", ": "))


def _records(records: list[object] | tuple[object, ...], depth: int) -> str:
    """A list of dicts of scalars (none empty) in one call of the C encoder: every
    separator is `,` and a NUL, which JSON text never holds raw (it escapes control
    characters). A separator after `}` is the list's, any other one a dict's, since a
    dict item ends with a scalar; each gets its line break and indent."""
    text = _RECORDS.encode(records)  # [{...},\0{...}]
    outer, inner = " " * (INDENT * (depth + 1)), " " * (INDENT * (depth + 2))
    text = text[2:-2].replace("},\0{", "\1").replace("\0", "\n" + inner)
    between = "\n" + outer + "},\n" + outer + "{\n" + inner
    text = text.replace("\1", between)
    return (
        "[\n" + outer + "{\n" + inner + text + "\n" + outer + "}\n" + " " * (INDENT * depth) + "]"
    )


def _bracketed(flat: str, depth: int) -> str:
    """A container of scalars the C encoder wrote with indented separators (`{a,
    b}`), its first item and its closing bracket on lines of their own."""
    pad = " " * (INDENT * depth)
    return flat[0] + "\n" + pad + " " * INDENT + flat[1:-1] + "\n" + pad + flat[-1]


def _indented(value: object, depth: int) -> str:
    """json.dumps' own text of `value`, moved right to `depth` (JSON text has no line
    breaks inside its strings, so every line break is one of the layout's)."""
    text = json.dumps(value, indent=INDENT, ensure_ascii=False, allow_nan=False)
    return text.replace("\n", "\n" + " " * (INDENT * depth))


__all__ = ["INDENT", "dumps"]
