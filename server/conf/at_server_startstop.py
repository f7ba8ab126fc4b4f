"""
Server startstop hooks

This module contains functions called by Evennia at various
points during its startup, reload and shutdown sequence. It
allows for customizing the server operation as desired.

This module must contain at least these global functions:

at_server_init()
at_server_start()
at_server_stop()
at_server_reload_start()
at_server_reload_stop()
at_server_cold_start()
at_server_cold_stop()

"""

import os

#: ``gc.set_threshold`` for the Server (CPython's default is 700, 10, 10).
GC_THRESHOLDS = (10_000, 20, 50)


def at_server_init():
    """
    This is called first as the server is starting up, regardless of how.
    """
    pass


def at_server_start():
    """
    This is called every time the server starts up, regardless of
    how it was shut down.
    """
    import gc

    from twisted.internet import reactor

    from world import subscribers, timeouts

    # (the message catalogue and the chargen tables were checked before the Portal connected:
    # server/conf/server_services_plugins.py)
    subscribers.register()   # the fights' event stream: telnet, GMCP, the web tracker, scene logs, the AI
    reactor.callWhenRunning(timeouts.watch)   # attacks left waiting before a restart wait anew

    if os.environ.get("FRAY_BENCH_GC") == "1":
        _log_gc_pauses()
    if os.environ.get("FRAY_BENCH_MEMORY"):
        _log_memory(float(os.environ["FRAY_BENCH_MEMORY"]))
    # The cyclic garbage collector's full collections walk every live object with the reactor
    # stopped: 150-300 ms with a full game, every 10-30 s under load (docs/performance.md,
    # "Collector pauses"). Everything loaded by now (Django, Evennia, Fray) lives as long as the
    # Server, so it is moved out of the collector's sight, and the young generations are
    # collected less often, so full collections come minutes apart instead of seconds.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _log_gc_pauses():
    """Benchmarks (``bench/``): every garbage collection of 5 ms or more, as
    ``<time>\t<generation>\t<ms>\t<objects collected>`` in ``server/logs/fray-gc.log``."""
    import gc
    import time

    from django.conf import settings

    path = os.path.join(settings.GAME_DIR, "server", "logs", "fray-gc.log")
    started = [0.0]

    def timed(phase, info):
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = (time.perf_counter() - started[0]) * 1000
        if took >= 5:
            with open(path, "a") as out:
                out.write(f"{time.time():.3f}\t{info['generation']}\t{took:.1f}\t{info['collected']}\n")

    gc.callbacks.append(timed)


def _log_memory(minutes):
    """Benchmarks (``bench/soak.py``): every ``minutes``, what the collector holds, in
    ``server/logs/fray-memory.log``: its counts and collections by generation, the objects it
    tracks (the frozen ones aside) and the 30 types whose counts changed most since the last
    time. Memory outside the objects it tracks (strings, SQLite's page cache) is not counted:
    growth seen by ``bench/soak.py`` but not here is there."""
    import gc
    import time
    from collections import Counter

    from django.conf import settings
    from twisted.internet import task

    path = os.path.join(settings.GAME_DIR, "server", "logs", "fray-memory.log")
    last = Counter()

    def sample():
        objects = gc.get_objects()
        types = Counter(type(o).__qualname__ for o in objects)
        del objects
        lines = [f"== {time.strftime('%H:%M:%S', time.gmtime())} tracked {sum(types.values())} "
                 f"counts {gc.get_count()} stats {gc.get_stats()} frozen {gc.get_freeze_count()}"]
        diff = types.copy()
        diff.subtract(last)
        for name, change in sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:30]:
            lines.append(f"  {change:+8d} {types[name]:8d} {name}")
        last.clear()
        last.update(types)
        with open(path, "a") as out:
            out.write("\n".join(lines) + "\n")

    task.LoopingCall(sample).start(minutes * 60, now=False)


def at_server_stop():
    """
    This is called just before the server is shut down, regardless
    of it is for a reload, reset or shutdown.
    """
    pass


def at_server_reload_start():
    """
    This is called only when server starts back up after a reload.
    """
    pass


def at_server_reload_stop():
    """
    This is called only time the server stops before a reload.
    """
    pass


def at_server_cold_start():
    """
    This is called only when the server starts "cold", i.e. after a
    shutdown or a reset.
    """
    pass


def at_server_cold_stop():
    """
    This is called only when the server goes down due to a shutdown or
    reset.
    """
    pass
