"""Forms in, values out: a posted form read within its limits, a start form's set-up, a question's form fields
typed back to their legal values, and the registry's set-up options as the start forms show them (the same options
as every verb's flags, cli/setup_flags.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request as HttpRequest

from .. import games as game_names, game_info
from ..core import registry
from . import setup_files
from .live import WHO, Refused
from .origin import cross_site
from .people import People
from .uploads import upload_form

MAX_FORM_FIELDS = 200


async def same_origin(request: HttpRequest) -> None:  # async: no thread per request
    """A POST from a page of another site is refused before anything is read or changed (web/origin.py)."""
    reason = cross_site(request.method, request.headers)
    if reason:
        raise Refused(403, f"{reason}; nothing was changed. Open the game from this page's own address.")


async def read_form(request: HttpRequest) -> Any:
    """The posted form; a start form's uploaded set-up files (web/setup_files.py) counted as they arrive."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        return await upload_form(request, setup_files.UPLOAD_CAP, "the uploaded files",
                                 max_files=setup_files.MAX_FILES + len(setup_files.PATH_OPTIONS),
                                 max_fields=MAX_FORM_FIELDS)
    try:
        return await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    except Exception:
        raise Refused(400, "the form could not be read (too many fields, or not a form)") from None


def whole_number(text: Any, default: int) -> int:
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return default


def setup_from(data, allow_paths: bool = False, files: Path | None = None) -> tuple[str, dict, int | None, dict]:
    """(game, set-up options, seed or None for random, side -> who) from a Start or Watch form. Options naming files
    on the server's disk are uploads stored in ``files``, or typed paths if ``allow_paths`` (web/setup_files.py)."""
    game = str(data.get("game", ""))
    info = registry.info(game)
    setup = {}
    for option in info.options:
        raw = data.get(f"o.{option.name}")
        if raw is None or raw == "":
            if option.kind == "bool" and f"o.{option.name}" not in data and f"b.{option.name}" in data:
                setup[option.name] = False
            continue
        setup[option.name] = raw if option.kind != "bool" else raw in ("on", "yes", "true", "1")
    setup_files.path_options(data, setup, allow_paths, files or setup_files.files_folder(":memory:"))
    seed_text = str(data.get("seed", "")).strip()
    if data.get("random_seed") or not seed_text:
        seed = None
    else:
        seed = whole_number(seed_text, -1)
        if seed < 0 or seed >= 2 ** 63 or not seed_text.isdigit():
            raise Refused(400, f"the seed must be a whole number from 0 to 2**63-1, not '{seed_text[:30]}'")
    controllers = {side: str(data.get(f"side.{side}")) for side in info.sides if data.get(f"side.{side}")}
    return game, setup, seed, controllers


def form_values(request, data) -> dict:
    """A form's values from the posted fields ``f.<name>`` (typed back to the legal values they name)."""
    values: dict[str, Any] = {}
    for field in request.form.fields:
        raws = [str(r) for r in data.getlist(f"f.{field.name}")]
        try:
            legal = request.form.choices(field.name, values)
        except Exception:
            legal = ()
        if field.multi:
            items = [p.strip() for raw in raws for p in raw.split(",") if p.strip()]
            values[field.name] = [_typed(item, legal) for item in items[:100]]
        else:
            raw = raws[0].strip() if raws else ""
            values[field.name] = _typed(raw, legal) if raw != "" else None
    return values


def _typed(text: str, legal: tuple) -> Any:
    for value in legal:
        if str(value) == text:
            return value
    if text.lstrip("-").isdigit() and len(text) < 12:
        return int(text)
    try:
        number = float(text) if len(text) < 24 else None
    except ValueError:
        number = None
    if number is not None and number == number and abs(number) < 1e12:
        return number
    return text[:200]


def values_text(values: dict) -> str:
    return ", ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in values.items())


def fields_of(request, values: dict | None) -> list[dict]:
    """Each field of a request's form: its value (typed, or the default), its legal values given the earlier ones."""
    if request is None or request.form is None:
        return []
    if values is None:
        default = request.default
        if isinstance(default, str) and request.option(default) is not None:
            default = request.option(default).value
        values = dict(default) if isinstance(default, dict) else {}
    out, earlier = [], {}
    for field in request.form.fields:
        try:
            legal = list(request.form.choices(field.name, earlier))
        except Exception:
            legal = []
        value = values.get(field.name)
        earlier[field.name] = value
        if field.multi:
            chosen = value if isinstance(value, list) else []
            widget = "checks" if 0 < len(legal) <= 24 else "text"
            shown = ",".join(str(v) for v in chosen)
        else:
            chosen = [value]
            widget = "select" if 0 < len(legal) <= 40 and (value in legal or value is None) else "text"
            shown = "" if value is None else str(value)
        out.append(dict(name=field.name, label=field.label, multi=field.multi, legal=[str(v) for v in legal[:60]],
                        more=max(0, len(legal) - 60), chosen=[str(v) for v in chosen if v is not None],
                        shown=shown, widget=widget))
    return out


# ---------------------------------------------------------------------- the registry, for the start forms
def catalogue(people: People | None = None) -> list[dict]:
    """Each registered game's set-up options for the forms; ``people``: the start form's suggested difficulty is
    the person's own when their rating gives one (web/people.py)."""
    out = []
    for name in game_names():
        info = game_info(name)
        options = []
        for option in info.options:
            data = option.to_json()
            data["choices"] = [str(c) for c in data.get("choices", [])]
            data["suggest"] = []
            if option.kind == "text" and option.name.endswith("ship"):
                data["suggest"] = _safe_list(info.ships)
            elif option.kind == "text" and option.name == "scenario":
                data["suggest"] = _safe_list(info.scenarios)
            if option.name == "handicap":  # the suggested difficulty: the person's own, or the rung's it was measured on
                from ..sim.even_points import listing
                data["note"] = (people.handicap_note(name, listing(name)) if people is not None else
                                People.rung_note(listing(name)))
            data["more"] = option.kind == "text" and not option.default and not data["suggest"]  # paths: tucked away
            data["path"] = setup_files.kind(option.name)  # "folder", "file": an upload (or a path, --allow-paths)
            options.append(data)
        out.append(dict(name=name, title=info.title, sides=list(info.sides), robot_side=info.robot_side,
                        options=options, who=WHO))
    return out


def _safe_list(source) -> list[str]:
    try:
        return [str(x) for x in source()][:200]
    except Exception:
        return []
