"""The web page (``paperrobot web``): play, watch and consult the robots in the browser.

A front end on the game contract, like the terminal: it never knows a game's internals. ``app`` (routes),
``live`` (games in progress, LRU-cached and rebuilt by replay), ``store`` (its own SQLite file), ``maps``
and ``svg`` (per-game pictures from a request's JSON view), ``watch`` (battles to step through),
``results`` (simulate's results, read only), ``rules`` (rule summaries shipped as package data).
Needs the ``web`` extra: ``pip install 'paperrobot[web]'``.
"""
