#!/usr/bin/env python3
"""Drives `workbook watch` through a pseudo-terminal as a student would: the first grade at start, a burst of saves
graded once with a separator that shows the time, then `q` (or Ctrl-C, typed as on a keyboard) quits within a
second or two. Usage: watch_pty.py KEY COMMAND...   (KEY: q or ctrl-c; the watched file is $WATCHED)"""
import os
import pty
import re
import select
import sys
import time


def main():
    key, argv = sys.argv[1], sys.argv[2:]
    watched = os.environ["WATCHED"]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    out = b""

    def read_until(pattern, timeout):
        nonlocal out
        end = time.time() + timeout
        while time.time() < end:
            if re.search(pattern, out):
                return True
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return bool(re.search(pattern, out))

    def fail(msg):
        print(out.decode(errors="replace"))
        print("FAILED:", msg)
        sys.exit(1)

    if not read_until(rb"Watching \d+ files? for changes \(q or Ctrl-C quits\)", 120):
        fail("no first grade")
    if not re.search(rb"\d\d:\d\d:\d\d  grade 1: started watching", out):
        fail("no separator with the time")
    text = open(watched).read()
    for i in range(3):  # a burst of saves
        with open(watched, "w") as f:
            f.write(text + "\n" * (i + 1))
        time.sleep(0.05)
    if not read_until(rb"grade 2: a file was saved[\s\S]*Watching", 120):
        fail("the burst was not graded")
    time.sleep(1.5)
    if re.search(rb"grade 3", out):
        fail("a burst of saves started more than one grade")
    t0 = time.time()
    os.write(fd, b"q" if key == "q" else b"\x03")
    _, status = os.waitpid(pid, 0)
    took = time.time() - t0
    read_until(rb"$^", 0.2)
    if took > 3:
        fail(f"quitting took {took:.1f} s")
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail(f"exit status {status}")
    print(out.decode(errors="replace")[-400:])
    print(f"ok: quit with {key} in {took:.2f} s")


main()
