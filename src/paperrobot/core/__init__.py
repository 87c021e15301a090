"""Game-independent pieces: dice, events, hex grid, data files, controllers, saves.

Nothing here knows about any one game; every game package builds on these.
"""
