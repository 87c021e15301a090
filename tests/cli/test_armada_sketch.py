"""Armada in the terminal (issue 26): a character sketch of the table in 80x24, courses with their ends,
pictures with --svg on play as on battle."""
import paperrobot
from paperrobot.armada.sketch import letters, sketch
from paperrobot.cli.main import app
from typer.testing import CliRunner


def _views(seed: int):
    """Every question's view and suggestion in a game where the person takes every suggestion."""
    match = paperrobot.new_game("armada", seed=seed)
    steps = match.play({"imperial": "robot"})
    out = []
    try:
        request = next(steps)
        while True:
            out.append((request.kind, request.view, request.default))
            request = steps.send(request.default)
    except StopIteration:
        return out


def test_the_sketch_fits_80x24_through_a_whole_game_and_names_every_symbol():
    views = _views(2)
    assert any(kind == "maneuver" for kind, _, _ in views)
    crowded = max(views, key=lambda v: sum(not s["destroyed"] for s in v[1]["ships"] + v[1]["squadrons"]))
    for kind, view, default in views:
        lines = sketch(view, default if kind == "maneuver" else None)
        assert max(map(len, lines)) <= 80 and len(lines) <= 24, "\n".join(lines)
    kind, view, default = crowded
    lines = sketch(view)
    marks = letters(view)
    picture, legend = "\n".join(lines[:17]), "\n".join(lines[17:])
    for unit in view["ships"] + view["squadrons"]:
        assert marks[unit["id"]] in picture  # every ship and squadron on the table
    for ship in view["ships"]:
        assert f"{marks[ship['id']]} {ship['id']}" in legend
    for word in ("asteroid", "debris", "station", "bow"):
        assert word in legend


def test_the_active_ships_arcs_and_the_suggested_course_are_drawn():
    kind, view, default = next(v for v in _views(2) if v[0] == "maneuver")
    assert view["arcs"] and view["ranges"]["long"] > 0
    with_arcs = sketch(view, default)
    assert any(":" in line[1:-1] for line in with_arcs[1:16])
    assert any("*" in line for line in with_arcs[1:16])
    assert any(f"arcs of {view['active']}" in line for line in with_arcs[17:])


def test_play_armada_draws_the_table_lists_course_ends_and_writes_pictures(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    pictures = tmp_path / "svg"
    result = CliRunner().invoke(app, ["play", "armada", "--seed", "2", "--no-record", "--svg", str(pictures)],
                                input="\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    assert "+- Imperial edge" in result.output and "+- Rebel edge" in result.output
    courses = [line for line in result.output.splitlines() if line.strip()[:3].rstrip(".").strip().isdigit()
               and "speed" in line and "yaw" in line]
    assert courses and all("ends at (" in line and "heading" in line for line in courses)
    assert "yaw [" not in result.output
    assert (pictures / "round-0.svg").exists() and (pictures / "round-1.svg").exists()
    assert "Pictures written to" in result.output
