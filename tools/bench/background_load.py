"""Busy processes pinned to the machine's last cores, as `tstudio bench --background-load N` starts them.

start(n) starts n processes, each spinning on one of the last n cores this process may use, prints
"background load: ..." as tstudio bench does, and kills them when the script exits (or dies: each
child has PR_SET_PDEATHSIG).
"""
import atexit
import ctypes
import os
import signal
import subprocess
import sys


def _die_with_parent():
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def start(n):
    if n <= 0:
        return []
    cores = sorted(os.sched_getaffinity(0))
    if n > len(cores):
        sys.exit(f"--background-load {n}: expected 0 to {len(cores)} (the cores this process may run on)")
    children = []
    used = []
    for core in reversed(cores[-n:]):
        child = subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=_die_with_parent)
        os.sched_setaffinity(child.pid, {core})
        children.append(child)
        used.append(core)

    def stop():
        for child in children:
            child.kill()
            child.wait()

    atexit.register(stop)
    noun = "busy process on core" if n == 1 else "busy processes on cores"
    print(f"background load: {n} {noun} {', '.join(map(str, used))}", flush=True)
    return children
