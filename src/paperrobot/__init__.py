"""PaperRobot: published paper-robot rules for solo starship wargames, as software."""

__version__ = "0.1.0"
