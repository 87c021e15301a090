"""The start page's set-up form shows the handicap, a whole number the registry checks (web/forms.py)."""
from __future__ import annotations

import re


def start(client, handicap):
    return client.post("/games", data={"game": "fc", "o.handicap": handicap, "seed": "1", "side.robot": "robot",
                                       "side.player": "person"}, follow_redirects=False)


def test_the_handicap_is_a_bounded_number_field_with_the_measured_even_points(client):
    page = client.get("/").text
    fields = re.findall(r'<input type="number" name="o.handicap"[^>]*>', page)  # fc, sfb, armada
    assert len(fields) >= 3 and any('min="-300"' in f and 'max="300"' in f for f in fields)
    assert "Measured even points" in page


def test_the_registry_checks_the_handicap(client):
    bad = start(client, "900")
    assert bad.status_code >= 400 and "handicap must be from -300 to 300" in bad.text
    assert start(client, "x").status_code >= 400
    assert start(client, "30").status_code == 303
