"""Every test keeps the program's user data (the terminal's recovery files, the web page's default
database) in a folder of its own, never in the real ~/.local/share/paperrobot."""
import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))
