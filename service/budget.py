"""The time budget of one request's computation: past it, the computation stops with
BudgetExceeded and the worker goes on serving.

A worker computes on its main thread (the event loop's: the endpoints are coroutines that never
await while they compute), so a real-time timer (setitimer, SIGALRM) interrupts it: Python runs
the signal handler on the main thread between two bytecodes, and the handler raises there. Code
running inside one compiled call (a numba kernel, a numpy operation) is interrupted when that
call returns; the expensive queries (the Erudit turn search, the lexicon walks, ranking
guesses) are loops of many short calls. Loading a game is not done under a budget: the
application loads everything when a worker starts (service/app.py `warm_up`), so an interrupted
query leaves no half-built cache behind.
"""

import contextlib
import signal
import threading


class BudgetExceeded(Exception):
    """The computation ran past its time budget."""


_armed = False


def _on_alarm(signum, frame):
    global _armed
    if _armed:
        _armed = False
        raise BudgetExceeded


@contextlib.contextmanager
def time_budget(seconds: float):
    """Run the body for at most `seconds` of wall-clock time, else raise BudgetExceeded in it.

    Args:
        seconds: the budget, > 0.

    Raises:
        BudgetExceeded: the body was still running after `seconds`.
        RuntimeError: called off the main thread (signals reach the main thread only).
    """
    global _armed
    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("time_budget works on the main thread only")
    if signal.getsignal(signal.SIGALRM) is not _on_alarm:
        signal.signal(signal.SIGALRM, _on_alarm)
    _armed = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        # Disarmed first: an alarm that fires now (the body just ended) raises nothing.
        _armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
