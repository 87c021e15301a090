"""Data files: TOML read and validated against a pydantic model; every failure names file, field, reason."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Callable, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import DataError

M = TypeVar("M", bound=BaseModel)


class Strict(BaseModel):
    """Base for data-file models: unknown fields are errors (a typo must not be silently ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def read_toml(path: str | Path) -> dict:
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
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
        raise DataError(path, field, first["msg"] + more) from None


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
