"""Checking the fields of a JSON file polyfit wrote for itself, as it is read back.

Job files, results and checkpoints (and saved solutions) are inputs like any other: they may
be truncated, edited by hand or mixed up with another run's. :class:`Fields` takes each field
of one JSON object with the type and range it must have, so that anything else is one line,
``FILE: field NAME: what is wrong`` (a :class:`~polyfit.errors.PolyfitError`), never a
traceback and never a number that is quietly wrong.
"""

from __future__ import annotations

import json
import math
import re

from polyfit.errors import PolyfitError

SEAL = "digest"  # the field of a sealed object that holds its digest
LARGEST = 2**63 - 1  # no count or index polyfit writes comes near this
DIGEST = re.compile(r"[0-9a-f]{64}")  # a SHA-256, as hexdigest() writes it


def shown(value) -> str:
    """A value as the error shows it: short, in JSON's words for JSON's types."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def seal_of(data: dict, split: str) -> str:
    """A SHA-256 of an object's fields (all but its seal) and of the split it belongs to."""
    import hashlib  # here, not at every start of the command line

    rest = {k: v for k, v in data.items() if k != SEAL}
    return hashlib.sha256((split + json.dumps(rest, sort_keys=True)).encode()).hexdigest()


def sealed(data: dict, split: str) -> dict:
    """``data`` with its seal: a digest that :meth:`Fields.check_seal` checks on reading, so a
    count changed or damaged after polyfit wrote it (which no type check can see) is refused."""
    return {**data, SEAL: seal_of(data, split)}


class Fields:
    """The fields of the JSON object ``data`` read from ``path``; ``within`` names the object
    when it is part of a larger one (``done.3`` in a checkpoint), for the errors."""

    def __init__(self, data, path, within: str = ""):
        self.path = str(path)
        self.within = within
        if not isinstance(data, dict):
            raise self.error("", f"must be an object, not {shown(data)}")
        self.data = data

    def error(self, name: str, what: str) -> PolyfitError:
        field = ".".join(p for p in (self.within, name) if p)
        return PolyfitError(f"{self.path}: field {field}: {what}" if field else f"{self.path}: {what}")

    def has(self, name: str) -> bool:
        return name in self.data

    def raw(self, name: str):
        if name not in self.data:
            raise self.error(name, "missing")
        return self.data[name]

    def whole(self, name: str, low: int = 0, high: int = LARGEST) -> int:
        """A whole number from ``low`` to ``high``: JSON's integers, not ``true`` or ``1.5``."""
        return self.check_whole(name, self.raw(name), low, high)

    def check_whole(self, name: str, value, low: int = 0, high: int = LARGEST) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, f"must be a whole number, not {shown(value)}")
        if value < low:
            raise self.error(name, f"must be at least {low}, not {value}")
        if value > high:
            raise self.error(name, f"must be at most {high}, not {shown(value)}")
        return value

    def number(self, name: str, low: float = 0.0, high: float = math.inf) -> float:
        """A finite number (whole or not) from ``low`` to ``high``."""
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.error(name, f"must be a number, not {shown(value)}")
        if not low <= value <= high:
            raise self.error(name, f"must be from {low:g} to {high:g}, not {value:g}")
        return value

    def text(self, name: str, pattern: re.Pattern | None = None, what: str = "") -> str:
        value = self.raw(name)
        if not isinstance(value, str):
            raise self.error(name, f"must be text, not {shown(value)}")
        if pattern is not None and not pattern.fullmatch(value):
            raise self.error(name, f"must be {what or 'text of the form ' + pattern.pattern}, not {shown(value)}")
        return value

    def digest(self, name: str) -> str:
        return self.text(name, DIGEST, "a SHA-256 digest (64 hex digits)")

    def optional_text(self, name: str) -> str | None:
        return None if self.data.get(name) is None else self.text(name)

    def flag(self, name: str, default: bool | None = None) -> bool:
        if default is not None and name not in self.data:
            return default
        value = self.raw(name)
        if not isinstance(value, bool):
            raise self.error(name, f"must be true or false, not {shown(value)}")
        return value

    def listing(self, name: str) -> list:
        value = self.raw(name)
        if not isinstance(value, list):
            raise self.error(name, f"must be a list, not {shown(value)}")
        return value

    def wholes(self, name: str, low: int = 0, high: int = LARGEST) -> list[int]:
        """A list of whole numbers, each from ``low`` to ``high``."""
        return [self.check_whole(f"{name}[{i}]", v, low, high) for i, v in enumerate(self.listing(name))]

    def mapping(self, name: str) -> dict:
        value = self.raw(name)
        if not isinstance(value, dict):
            raise self.error(name, f"must be an object, not {shown(value)}")
        return value

    def part(self, name: str) -> Fields:
        """The fields of the object in field ``name``."""
        inner = ".".join(p for p in (self.within, name) if p)
        if not isinstance(self.raw(name), dict):
            raise self.error(name, f"must be an object, not {shown(self.data[name])}")
        return Fields(self.data[name], self.path, inner)

    def check_seal(self, split: str, again: str) -> None:
        """Refuse an object whose seal (see :func:`sealed`) is not that of its fields in the
        split ``split``; ``again`` says how to get a good one."""
        if self.digest(SEAL) != seal_of(self.data, split):
            what = "does not match the other fields: they were changed after polyfit wrote them"
            raise self.error(SEAL, f"{what}; {again}")

    def at_most(self, small: str, large: str, values: dict, factor: int = 1) -> None:
        """Refuse counts that cannot both be right: ``small`` above ``factor`` times ``large``."""
        if values[small] > factor * values[large]:
            times = f"{factor} times " if factor != 1 else ""
            what = f"{values[small]} is more than {times}{large} ({values[large]}): the counts disagree"
            raise self.error(small, what)
