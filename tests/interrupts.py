"""For tests that send Ctrl-C (SIGINT) to a child process.

A shell without job control starts background commands with SIGINT
ignored, and an ignored signal stays ignored across fork and exec; Python
then installs no KeyboardInterrupt handler at all.  A test suite run that
way (a CI runner may be) would send SIGINT into the void, so the children
these tests interrupt restore the default first, as an interactive terminal
would have it.
"""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """``preexec_fn`` for :class:`subprocess.Popen`: the child reacts to SIGINT as a terminal's foreground job does."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
