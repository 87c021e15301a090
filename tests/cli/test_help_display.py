"""--help shows a flag as a flag (issue 25): nothing beside --quiet, --force, --help (typer's help wrote <bool>, as if
they took a value); a yes/no set-up option is a pair of flags, --evade-close / --no-evade-close; every other set-up
option says what its value is in typer's words (its choices, <int>, <path>, <str>), not <str> for every kind."""
import re

import pytest
from typer.testing import CliRunner

import paperrobot
from paperrobot.cli import setup_flags
from paperrobot.cli.main import app
from paperrobot.core.frontend import frontend_of

runner = CliRunner()


def help_of(*args: str) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": "200"}, terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


def row(text: str, name: str) -> str:
    """The help's row of an option (its first line)."""
    return next(line for line in text.splitlines() if re.search(rf"(^|\s){re.escape(name)}(\s|$)", line))


@pytest.mark.parametrize("args", [("battle", "sfb"), ("play", "armada"), ("simulate", "fc"), ("balance", "sfb"),
                                  ("replay",), ()])
def test_no_flag_is_shown_with_a_type(args):
    text = help_of(*args)
    assert "<bool>" not in text, text
    assert row(text, "--help").split("--help", 1)[1].split()[0] == "Show", row(text, "--help")


def test_the_verbs_own_flags_are_bare():
    text = help_of("battle", "sfb")
    for name in ("--quiet", "--decisions", "--force"):
        assert not row(text, name).split(name, 1)[1].split()[0].startswith("<"), row(text, name)
    assert "--no-maps" in row(text, "--maps")


def test_set_up_options_say_what_their_value_is():
    text = help_of("battle", "sfb")
    assert "<4|5|6|6k|6k-kr|6kr|duel>" in row(text, "--scenario") and "one of:" not in text
    assert "<int>" in row(text, "--robots") and "<path>" in row(text, "--ships-dir")
    assert "<str>" in row(text, "--robot-ship") and "<path>" in row(text, "--robot-rules")


def test_a_yes_no_option_is_a_pair_of_flags():
    text = help_of("play", "armada")
    line = row(text, "--evade-close")
    assert "--no-evade-close" in line and "<" not in line and "yes or no" not in text
    assert "(default: --evade-close)" in text.replace("\n", " ") or "(default:" in line


def _setup(verb: str, game: str, args: list[str]) -> dict:
    import typer.main
    command = typer.main.get_command(app).get_command(None, verb).get_command(None, game)
    ctx = command.make_context(game, args)
    info = paperrobot.game_info(game)
    return setup_flags.setup_of(info, frontend_of(info), setup_flags.given(dict(ctx.params)))


def test_the_pair_sets_the_option_and_leaving_it_out_leaves_it_out():
    assert _setup("battle", "armada", ["--no-evade-close"]) == {"evade_close": False}
    assert _setup("battle", "armada", ["--evade-close"]) == {"evade_close": True}
    assert _setup("battle", "armada", []) == {}


@pytest.mark.parametrize("args,line", [
    (["--evade-close", "no"], "--evade-close takes no value: write --no-evade-close"),
    (["--evade-close=yes"], "--evade-close takes no value: write --evade-close"),
    (["--set", "evade_close=no"], "--set is gone: write --no-evade-close")])
def test_the_value_form_of_a_yes_no_option_is_refused_with_the_flag(args, line):
    result = runner.invoke(app, ["battle", "armada", *args])
    assert result.exit_code == 2 and line in result.output, result.output
