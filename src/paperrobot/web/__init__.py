"""The web page (``paperrobot web``): play, watch and consult the robots in the browser.

A front end on the game contract, like the terminal: it never knows a game's internals. ``app`` (the app: its
routes gathered, refusals as pages), the routes of each page (``play_pages``, ``watch_pages``, ``results_pages``,
``assist_pages``, ``people_pages``), ``forms`` (forms in, values out; the registry's options for the start forms),
``log_lines`` (the log beside the map), ``live`` (games in progress, LRU-cached and rebuilt by replay), ``store``
(its own SQLite file), ``maps`` and ``svg`` (per-game pictures from a request's JSON view), ``watch`` (battles to
step through), ``results`` (simulate's results, read only), ``rules`` (rule summaries shipped as package data).
Needs the ``web`` extra, which ``bash scripts/setup`` installs (``./paperrobot`` runs it on its first start); in
another environment, install the checkout by path or wheel (docs/envs.md, "Installing").
"""
