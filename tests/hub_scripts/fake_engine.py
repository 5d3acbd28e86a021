"""A scripted Hub engine for the client tests: `python fake_engine.py MODE`.

It plays 32-28 from the international start.  Modes: ok, crash (exits 3 at
go, after a word on stderr), stall (never answers go), late (answers go after
0.4 s), illegal (answers an illegal move), silent (never answers hub),
stubborn (ignores quit and the end of its input).
"""

import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


print(f"fake engine starting in mode {mode}", file=sys.stderr, flush=True)
for line in sys.stdin:
    words = line.split()
    command = words[0] if words else ""
    if command == "hub":
        if mode == "silent":
            continue
        out(f"id name=fake-{mode} version=1 author=tests")
        out(f'param name=cwd value="{os.getcwd()}" type=string')
        out(f'param name=tag value="{os.environ.get("FAKE_ENGINE_TAG", "")}" type=string')
        out("wait")
    elif command == "init":
        out("ready")
    elif command == "ping":
        out("pong")
    elif command == "go":
        if mode == "crash":
            print("fatal: out of cheese", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "stall":
            continue
        if mode == "late":
            time.sleep(0.4)
        out("info depth=1 score=0.10 pv=32-28")
        out("done move=32-27x" if mode == "illegal" else "done move=32-28 ponder=19-23")
    elif command == "quit":
        if mode != "stubborn":
            break
if mode == "stubborn":
    time.sleep(60)
