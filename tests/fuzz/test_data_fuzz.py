"""Hypothesis against the data files: any value put into any field of a shipped TOML file is either
accepted within the game's bounds or refused with one DataError naming the file and the field; damaged
TOML text is a DataError too; and (slow) games run to the end on every ship file the models accept."""
import math
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperrobot.armada import data as armada_data
from paperrobot.armada import fleets
from paperrobot.core import handicap
from paperrobot.core.data import load, validate
from paperrobot.core.errors import DataError, PaperRobotError
from paperrobot.fc import data as fc_data
from paperrobot.sfb import data as sfb_data
from paperrobot.sfb import plasma_data

SFB, FC, ARMADA = sfb_data.DATA, fc_data.DATA, armada_data.DATA
FILES = ([(p, sfb_data.ShipSpec) for p in sorted((SFB / "ships").glob("*.toml"))]
         + [(p, sfb_data.ScenarioSpec) for p in sorted((SFB / "scenarios").glob("*.toml"))]
         + [(SFB / "tables" / "weapons.toml", sfb_data.WeaponTables), (SFB / "tables" / "dac.toml", sfb_data.DacTable),
            (plasma_data.TABLE, plasma_data.PlasmaTables)]
         + [(p, fc_data.ShipModel) for p in sorted((FC / "ships").glob("*.toml"))]
         + [(FC / "tables" / f"{n}.toml", m) for n, m in fc_data.TABLE_MODELS.items()]
         + [(ARMADA / "ships.toml", armada_data.UnitFile), (ARMADA / "squadrons.toml", armada_data.UnitFile),
            (ARMADA / "geometry.toml", armada_data.Geometry)]
         + [(SFB / "handicap.toml", handicap.ShieldBoxPrices), (FC / "handicap.toml", handicap.ShieldBoxPrices),
            (ARMADA / "handicap.toml", handicap.SquadronPrices)])
RAW = {path: tomllib.loads(path.read_text()) for path, _ in FILES}
BOUND = 10_000  # no accepted number is larger than this
FINEST = 0.25  # nor, unless it is 0, smaller: no count, point, energy, mm or degree in these files is finer
LONGEST = 100  # no accepted list is longer than this

HOSTILE = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, 0, -1, -3, 0.0, -0.5, 999_999_999, 10 ** 20, -10 ** 20, 1e308,
                     "", "x" * 5000, True, False, [], {}, [0] * 100_000, ["x"] * 1000]),
    st.integers(-10 ** 12, 10 ** 12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)


def leaves(value, path=()):
    """Every place in a parsed TOML document that holds a value (and every list, as a whole)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, path + (key,))
    elif isinstance(value, list):
        yield path
        for i, item in enumerate(value[:8]):
            yield from leaves(item, path + (i,))
    else:
        yield path


def replaced(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (replaced(v, rest, new) if k == head else v) for k, v in value.items()}
    return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


def bounded(value) -> bool:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, (int, float)):
        return math.isfinite(value) and abs(value) <= BOUND and (value == 0 or abs(value) >= FINEST)
    if isinstance(value, dict):
        return all(bounded(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return len(value) <= LONGEST and all(bounded(v) for v in value)
    if hasattr(value, "model_dump"):
        return bounded(value.model_dump())
    return True


@st.composite
def mutation(draw):
    path, model = draw(st.sampled_from(FILES))
    raw = RAW[path]
    where = draw(st.sampled_from(list(leaves(raw))))
    return path, model, where, replaced(raw, where, draw(HOSTILE))


def check_one(path, model, where, raw):
    try:
        item = validate(model, raw, path)
    except DataError as exc:
        text = str(exc)
        assert text.startswith(str(path)), text
        assert len(text.splitlines()) == 1 and len(text) < 600, text
        return None
    assert bounded(item), f"{path} {where}: accepted an unbounded value: {item!r:.300}"
    return item


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_any_value_in_any_field_is_bounded_or_one_clear_error(case):
    check_one(*case)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_any_value_in_any_field_is_bounded_or_one_clear_error_many(case):
    check_one(*case)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([p for p, _ in FILES]), st.data())
def test_damaged_toml_is_one_data_error(tmp_path_factory, path, data):
    text = path.read_bytes()
    cut = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.binary(max_size=40))
    target = tmp_path_factory.mktemp("toml") / path.name
    target.write_bytes(text[:cut] + junk + text[cut + len(junk):])
    model = dict(FILES)[path]
    try:
        load(target, model)
    except DataError as exc:
        assert str(exc).startswith(str(target)) and len(str(exc).splitlines()) == 1


@pytest.mark.parametrize("path,key,value", [
    (SFB / "handicap.toml", ("points_per_box",), 1e-9), (FC / "handicap.toml", ("points_per_box",), 0.01),
    (ARMADA / "geometry.toml", ("tool", "click_degrees"), 1e-9), (ARMADA / "geometry.toml", ("tool", "click_degrees"), 89),
    (ARMADA / "geometry.toml", ("ruler", "close"), 1e-9), (ARMADA / "geometry.toml", ("squadron_base", "radius"), 150),
    (ARMADA / "geometry.toml", ("sizes", "small", "base", 0), 0.001),
    (ARMADA / "geometry.toml", ("obstacles", "asteroid_radius"), 4000),
    (ARMADA / "geometry.toml", ("play_area", "setup_inset"), 1e-9),
    (FC / "ships" / "d7.toml", ("move_cost",), 1e-9), (FC / "tables" / "rules.toml", ("regen_cost",), 1e-6),
])
def test_numbers_outside_a_sane_range_name_the_file_and_key(tmp_path, path, key, value):
    """Issue 21 item 9: 'points_per_box = 1e-9' gave 20 billion shield boxes; 'click_degrees = 1e-9' changed who
    wins. Every number of a file a person may hand in has a sane range, refused in one line with file and key."""
    model = dict(FILES)[path]
    with pytest.raises(DataError) as info:
        validate(model, replaced(RAW[path], key, value), path)
    text = str(info.value)
    assert text.startswith(f"{path}: {'.'.join(map(str, key))}") and len(text.splitlines()) == 1, text


def test_every_shipped_file_is_within_the_sane_ranges():
    for path, model in FILES:
        assert bounded(validate(model, RAW[path], path)), path


@pytest.mark.parametrize("items,needle", [
    (["victory-ii*0"], "count"), (["tie-fighter*-3"], "count"), (["tie-fighter*999999999"], "count"),
    (["tie-fighter*4"], "no ship"), (["victory-ii*6"], "points"), (["victory-ii", "tie-fighter*17"], "squadrons"),
    (["victory-ii x"], "not a ship"), ([], "at least 1"),
])
def test_fleet_files_refuse_impossible_fleets(tmp_path, items, needle):
    fleet = tmp_path / "fleet.toml"
    fleet.write_text(f"imperial = {items!r}\nrebel = ['cr90-a']\n".replace("'", '"'))
    with pytest.raises(DataError, match=needle) as info:
        fleets.load_fleet(fleet)
    assert str(info.value).startswith(str(fleet)) and "imperial" in str(info.value)


# ------------------------------------------------------------------------------------ games on accepted data

SMALL = st.one_of(st.integers(-3, 60), st.sampled_from([0, 1, 2]))


def _with_one_number_changed(tmp_path, path, data) -> Path:
    """A new folder holding the ship file ``path`` with one of its whole numbers replaced by a drawn small one."""
    raw = RAW[path]
    where = data.draw(st.sampled_from(_numeric_leaves(raw)))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    (folder / path.name).write_text(_toml(replaced(raw, where, data.draw(SMALL))))
    return folder


def _numeric_leaves(raw):
    return [w for w in leaves(raw) if w and isinstance(_at(raw, w), int) and not isinstance(_at(raw, w), bool)]


def _at(raw, path):
    for part in path:
        raw = raw[part]
    return raw


def _toml(value, key=None) -> str:
    """Just enough TOML to write back a ship file of this project."""
    lines, tables = [], []
    for k, v in value.items():
        if isinstance(v, dict):
            tables.append(f"[{k}]\n" + "".join(f"{kk} = {_literal(vv)}\n" for kk, vv in v.items()))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            for item in v:
                tables.append(f"[[{k}]]\n" + "".join(f"{kk} = {_literal(vv)}\n" for kk, vv in item.items()))
        else:
            lines.append(f"{k} = {_literal(v)}")
    return "\n".join(lines) + "\n\n" + "\n".join(tables)


def _literal(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_literal(x) for x in v) + "]"
    return repr(v)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted((SFB / "ships").glob("*.toml"))), st.data())
def test_sfb_games_run_on_every_ship_file_the_model_accepts(tmp_path, path, data):
    from paperrobot import sfb

    raw = RAW[path]
    folder = _with_one_number_changed(tmp_path, path, data)
    try:
        spec = sfb.load_ships(folder)[raw["name"]]
    except DataError:
        return
    scenario = "6" if spec.needs else "duel"
    for seed in (1, 2):
        try:
            game = sfb.new_game(scenario, seed=seed, robot_ship=raw["name"], player_ship=raw["name"],
                                opponent="robot", ships_dir=folder, options={"impulses": 8})
        except PaperRobotError:
            return  # e.g. a scenario the changed ship cannot fly: refused with one line
        game.run()


@pytest.mark.slow
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted((FC / "ships").glob("*.toml"))), st.data())
def test_fc_games_run_on_every_ship_file_the_model_accepts(tmp_path, path, data):
    from paperrobot import fc

    raw = RAW[path]
    folder = _with_one_number_changed(tmp_path, path, data)
    try:
        fc.load_ships(folder)
    except DataError:
        return
    robot = raw["name"] if raw["name"] in fc.ROBOT_SHIPS else "d7"
    fc.play(1, "policy", robot_ship=robot, player_ship=raw["name"], ships_dir=str(folder))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_armada_games_run_on_every_geometry_the_model_accepts(data):
    from paperrobot import armada

    path = ARMADA / "geometry.toml"
    raw = RAW[path]
    numbers = [w for w in leaves(raw) if w and isinstance(_at(raw, w), float)]
    where = data.draw(st.sampled_from(numbers))
    value = data.draw(st.floats(0.5, 3000))
    mutated = replaced(raw, where, value)
    try:
        table = validate(armada_data.Geometry, mutated, path)
    except DataError:
        return
    try:
        armada_data._GEOMETRY[:] = [table]  # what use_geometry(file) does once the file is read
        armada.play_battle(3)
    finally:
        armada.use_geometry(None)
