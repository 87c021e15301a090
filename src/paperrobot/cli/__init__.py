"""Front ends for the terminal: parse input, render, never decide or enforce rules."""
import os
import sys

# The C module under the standard 'signal': importing 'signal' itself first imports 'enum', a long window in which
# Ctrl-C was still Python's traceback; '_signal' is built in, ready at once.
import _signal as signal


def _stop_while_starting(signum, frame):
    """Ctrl-C while the program is still importing or parsing its arguments, before the command's own handling
    (cli/main.Group.invoke) is in place: the same one line and exit code 130 as later, not a traceback."""
    print("interrupted", file=sys.stderr, flush=True)
    # at once, not SystemExit: raised inside a library's import (pydantic building a schema) it was wrapped into
    # that library's own error, a traceback; nothing is written yet, so there is nothing to finish
    os._exit(130)


def _install() -> None:
    """Only in the program itself (the 'paperrobot' script or 'python -m paperrobot.cli.main'), never in a
    program that imports PaperRobot, and only over Python's own handler."""
    program = os.path.basename(sys.argv[0]) if sys.argv else ""
    if program not in ("paperrobot", "main.py", "-m"):
        return
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _stop_while_starting)
    except ValueError:  # not the main thread
        pass


def started() -> None:
    """The command runs now: Ctrl-C is a KeyboardInterrupt again, for the command to handle."""
    try:
        if signal.getsignal(signal.SIGINT) is _stop_while_starting:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:
        pass


_install()
