"""A run releases the GIL, stops on Ctrl-C between chunks, reports progress through a plain
callback (or a text bar), and leaves no memory behind."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import geomint

# About a second of work on one thread, in chunks of 64 trajectories.
LONG = dict(q0=np.linspace(-3, 3, 4096), scheme="simpson", dt=1e-3, steps=4000, threads=1, chunk_size=64)


def timed(**options):
    start = time.monotonic()
    result = geomint.pendulum(**options)
    return result, time.monotonic() - start


def test_gil_is_released_during_a_run():
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    # One chunk, so that the GIL is not taken back before the end; long enough to tell (a faster
    # machine gets more trajectories).
    options = LONG | dict(chunk_size=1 << 20)
    while timed(**options)[1] < 0.5 and options["q0"].size < 1 << 16:
        options["q0"] = np.linspace(-3, 3, 2 * options["q0"].size)
    thread = threading.Thread(target=count)
    thread.start()
    try:
        start = time.monotonic()
        geomint.pendulum(**options)
        end = time.monotonic()
    finally:
        stop.set()
        thread.join()
    during = [t for t in ticks if start + 0.1 < t < end - 0.1]
    assert len(during) > 20, f"the other thread ran {len(during)} times in {end - start:.2f} s"


def test_keyboard_interrupt_stops_the_run():
    eighth, short = timed(**(LONG | dict(q0=np.linspace(-3, 3, 512))))
    # SIGINT a quarter of the way into a run of 8 such parts (64 chunks): it stops within a chunk.
    timer = threading.Timer(2 * short, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        geomint.pendulum(**LONG)
    stopped = time.monotonic() - started
    timer.join()
    assert stopped < 4 * short + 0.5, f"stopped after {stopped:.2f} s; the whole run takes about {8 * short:.2f} s"
    # The interpreter and the module are fine afterwards.
    again = geomint.pendulum(**(LONG | dict(q0=np.linspace(-3, 3, 512))))
    assert np.array_equal(again.q, eighth.q)


def test_progress_callback():
    # A run several of the monitor's intervals long (a faster machine gets more steps).
    options = LONG | dict(q0=np.linspace(-3, 3, 1024))
    while timed(**options)[1] < 1.0 and options["steps"] < 1 << 20:
        options["steps"] *= 2
    calls = []
    geomint.pendulum(**options, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (1024, 1024)
    assert all(total == 1024 for _, total in calls)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert len(calls) >= 2  # at least one call while running, then the end


def test_progress_bar(capsys):
    geomint.pendulum(q0=np.linspace(-1, 1, 16), dt=0.01, steps=10, progress=True)
    assert "16/16 trajectories (100%)" in capsys.readouterr().err


def test_callback_error_stops_the_run():
    def fail(done, total):
        raise RuntimeError("callback failed")

    with pytest.raises(RuntimeError, match="callback failed"):
        geomint.pendulum(**LONG, progress=fail)


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_repeated_calls_do_not_grow_resident_memory():
    # Each run returns about 9 MB of arrays (and saves); 40 leaked runs would hold 350 MB.
    q0 = np.linspace(-1, 1, 100_000)
    for _ in range(5):
        geomint.pendulum(q0=q0, dt=0.01, steps=2, save_every=1)
    before = resident_bytes()
    for _ in range(40):
        geomint.pendulum(q0=q0, dt=0.01, steps=2, save_every=1)
        with pytest.raises(ValueError):
            geomint.pendulum(q0=q0, dt=0.01, steps=2, scheme="nope")
    grown = resident_bytes() - before
    assert grown < 40e6, f"resident memory grew by {grown / 1e6:.1f} MB"
