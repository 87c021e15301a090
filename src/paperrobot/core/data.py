"""Data files: TOML read and validated against a pydantic model; every failure names file, field, reason."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Callable, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import DataError

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Base for data-file models: unknown fields are errors (a typo must not be silently ignored), and
    no number may be NaN or infinite. Each model bounds its fields to what its game allows."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


MAX_DATA_FILE = 4 << 20  # the largest shipped data file is a few kB


def read_toml(path: str | Path) -> dict:
    path = Path(path)
    from .files import FileProblem, open_regular
    try:
        with open_regular(path, "a .toml data file") as handle:
            blob = handle.read(MAX_DATA_FILE + 1)
        if len(blob) > MAX_DATA_FILE:
            raise DataError(path, "", f"larger than {MAX_DATA_FILE >> 20} MB: not a data file")
        return tomllib.loads(blob.decode("utf-8"))
    except FileProblem:
        raise DataError(path, "", "not a regular file (give a .toml data file)") from None
    except FileNotFoundError:
        raise DataError(path, "", "no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(path, "", f"not valid TOML ({exc})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(path, "", f"cannot be read ({exc})") from None


def validate(model: type[M], raw: dict, path: str | Path) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
        message = first["msg"].removeprefix("Value error, ")
        raise DataError(path, field, message + _got(first) + more) from None


def _got(error: dict) -> str:
    """The offending value, when it is a single value (not the whole table a field is missing from)."""
    value = error.get("input")
    if error.get("type") == "missing" or isinstance(value, dict):
        return ""
    text = repr(value)
    return f" (got {text if len(text) <= 60 else text[:57] + '...'})"


def load(path: str | Path, model: type[M]) -> M:
    return validate(model, read_toml(path), path)


def load_dir(folder: str | Path, model: type[M], key: Callable[[M], str]) -> dict[str, M]:
    """Every ``*.toml`` in a folder, keyed by ``key``; two files with one key is an error."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(folder, "", "no such folder")
    found: dict[str, M] = {}
    origin: dict[str, Path] = {}
    for path in sorted(folder.glob("*.toml")):
        item = load(path, model)
        name = key(item)
        if name in found:
            raise DataError(path, "name", f"'{name}' is already defined in {origin[name]}")
        found[name], origin[name] = item, path
    return found
