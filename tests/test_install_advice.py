"""PaperRobot is not on the package index (issue 25): no document or error message may tell a user to
``pip install 'paperrobot[...]'`` from it; docs/envs.md "Installing" gives the path and wheel ways."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the bare name (with or without extras), not a path, a wheel's file name or a 'name @ location' requirement
FROM_THE_INDEX = re.compile(r"""pip install\s+(-U\s+|--upgrade\s+)?['"]?paperrobot(\[[^\]]*\])?(?=['"\s]|$)(?!['"]?\s*@)""")


def _texts():
    yield from (ROOT / "docs").rglob("*.md")
    yield ROOT / "README.md"
    yield from (ROOT / "src" / "paperrobot").rglob("*.py")


def test_no_advice_to_install_from_the_package_index():
    found = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in _texts()
             for match in FROM_THE_INDEX.finditer(path.read_text())
             if "finds nothing" not in path.read_text()[max(0, match.start() - 200):match.end() + 40]]
    assert not found, "\n".join(found)


def test_envs_error_names_a_way_that_works():
    from paperrobot.envs import NEED_RL
    assert "paperrobot[rl]'" not in NEED_RL.replace("/path/to/paperrobot[rl]'", "") and "docs/envs.md" in NEED_RL
    assert "Installing" in (ROOT / "docs" / "envs.md").read_text()


def test_every_missing_extra_is_said_one_way():
    """Every message and docstring in the package that says how to install an extra says it through
    core/extras.py's one line (the checkout's set-up, or by path), never with a pip command of its own."""
    found = [f"{path.relative_to(ROOT)}:{n}" for path in (ROOT / "src" / "paperrobot").rglob("*.py")
             if path.name != "extras.py" for n, line in enumerate(path.read_text().splitlines(), 1)
             if "pip install" in line]
    assert not found, found


def test_the_one_line_names_the_setup_and_the_path_install():
    from paperrobot.core.extras import needs_extra
    line = needs_extra("the web page", "web", "fastapi")
    assert line == ("the web page needs PaperRobot's web extra (fastapi not installed): run 'bash scripts/setup' in "
                    "the checkout (./paperrobot runs it on its first start), or in another environment pip install -e "
                    "'/path/to/paperrobot[web]' (docs/envs.md, \"Installing\")")
    assert not FROM_THE_INDEX.search(line)
