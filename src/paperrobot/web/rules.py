"""Short summaries of the robots' rules (core/rules.py holds them: the table assistants print them too)."""
from ..core.rules import summaries, summary  # noqa: F401
