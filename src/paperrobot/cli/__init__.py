"""Front ends for the terminal: parse input, render, never decide or enforce rules."""
