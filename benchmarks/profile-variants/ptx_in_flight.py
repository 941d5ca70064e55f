#!/usr/bin/env python3
"""The global loads a warp keeps in flight, read from nvcc's PTX (nvcc -O3 -arch=sm_90 -ptx: after NVVM's unrolling),
the same reading as the profiler's C++ (grader/emulator/runtime/profile_ptx.cpp; fit_model.py's test keeps the two in
step through the table the profiler writes).

Per kernel entry: each innermost loop (a label and the last backward branch to it, holding no other loop) with global
loads is one round trip per iteration, its loads issued together (ptxas hoists a basic block's independent loads
above their first use). A remainder loop (nvcc's loop for the iterations an unrolled loop leaves over: the loop just
before or after one whose loads are a whole multiple of its own, with nothing loaded and no barrier, shuffle or vote in between) is passed over. The
kernel's depth is its shallowest main loop: the loads of one iteration, and the bytes they ask for per warp (the load
widths x 32 lanes). Without such a loop (straight-line code) the loads between two points where a warp waits stand.

    ptx_in_flight.py FILE.ptx ...      prints: loads<TAB>bytes<TAB>loops<TAB>entry (mangled)
    ptx_in_flight.py --lists LIST ...  compiles each entry of the variant lists (name, source, width per line) with
                                       nvcc -O3 -arch=sm_90 -ptx and prints: name<TAB>loads<TAB>bytes<TAB>loops<TAB>
                                       entry (demangled by c++filt): the table ptx_fits.py reads
"""
import re
import sys

WAIT = re.compile(r"\b(bar|barrier)\.|\bshfl\.|\bvote\.|\bredux\.")  # where a warp waits for its loads' values
WIDTH = {"8": 1, "16": 2, "32": 4, "64": 8, "128": 16}


def load_bytes(op):
    """Bytes one lane asks for in a ld.global instruction (ld.global.nc.v4.f32: 16)."""
    parts = op.split(".")
    vec = next((int(p[1:]) for p in parts if re.fullmatch(r"v[248]", p)), 1)
    bits = next((p[1:] for p in reversed(parts) if re.fullmatch(r"[bfsu](8|16|32|64|128)", p)), "32")
    return vec * WIDTH[bits]


def entries(text):
    """(mangled name, [instruction or label lines]) per .entry."""
    out = []
    for m in re.finditer(r"\.entry\s+(\S+?)\s*\(", text):
        start = text.index("{", m.end())
        depth, i = 0, start
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        lines = [l.strip() for l in text[start + 1:i].splitlines()]
        out.append((m.group(1), [l for l in lines if l and not l.startswith("//")]))
    return out


def depth(lines):
    """(loads, bytes per warp, main loops) in flight per round trip of one kernel."""
    labels = {l[:-1]: i for i, l in enumerate(lines) if re.fullmatch(r"\$\w+:", l)}
    loops = {}
    for i, l in enumerate(lines):
        m = re.search(r"\bbra(?:\.uni)?\s+(\$\w+);", l)
        if m and m.group(1) in labels and labels[m.group(1)] < i:
            loops[labels[m.group(1)]] = max(loops.get(labels[m.group(1)], i), i)
    regions = sorted(loops.items())
    inner = [(a, b) for a, b in regions if not any(a <= c and d <= b and (c, d) != (a, b) for c, d in regions)]

    def loads(a, b):
        return [load_bytes(l.split()[0]) for l in lines[a:b + 1] if l.split()[0].startswith("ld.global")
                and not l.startswith("@")] + [load_bytes(l.split()[1]) for l in lines[a:b + 1]
                                              if l.startswith("@") and l.split()[1].startswith("ld.global")]

    with_loads = [(a, b, loads(a, b)) for a, b in inner if loads(a, b)]
    main = []
    for k, (a, b, ld) in enumerate(with_loads):
        remainder = False
        for j in (k - 1, k + 1):
            if 0 <= j < len(with_loads):
                c, d, other = with_loads[j]
                lo, hi = (b + 1, c - 1) if j > k else (d + 1, a - 1)
                if not loads(lo, hi) and not any(WAIT.search(l) for l in lines[lo:hi + 1]) and \
                        len(other) > len(ld) and len(other) % len(ld) == 0:
                    remainder = True
        if not remainder:
            main.append(ld)
    if main:
        best = min(main, key=lambda ld: (sum(ld), len(ld)))
        return len(best), sum(best) * 32, len(main)
    # Straight-line code: the loads between two points where a warp waits (a barrier, a shuffle, a vote), forward
    # branches (bounds checks) included: ptxas predicates them and issues the loads together.
    stretches, cur = [], []
    for l in lines:
        op = l.split()[1] if l.startswith("@") else l.split()[0]
        if WAIT.search(l):
            stretches.append(cur)
            cur = []
        elif op.startswith("ld.global"):
            cur.append(load_bytes(op))
    stretches.append(cur)
    best = max(stretches, key=len)
    return len(best), sum(best) * 32, 0


def table(lists):
    import os
    import shutil
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    with tempfile.TemporaryDirectory() as tmp:
        for lst in lists:
            for line in open(lst):
                if not line.strip():
                    continue
                name, src = line.split()[:2]
                ptx = os.path.join(tmp, name + ".ptx")
                subprocess.run([nvcc, "-std=c++17", "-O3", "-arch=sm_90", "-ptx", "-o", ptx, os.path.join(root, src)],
                               check=True)
                for mangled, lines in entries(open(ptx).read()):
                    n, b, loops = depth(lines)
                    demangled = subprocess.run(["c++filt", mangled], capture_output=True, text=True,
                                               check=True).stdout.strip()
                    print(f"{name}\t{n}\t{b}\t{loops}\t{demangled}", flush=True)


def main():
    if sys.argv[1:2] == ["--lists"]:
        table(sys.argv[2:])
        return
    for path in sys.argv[1:]:
        for name, lines in entries(open(path).read()):
            n, b, loops = depth(lines)
            print(f"{n}\t{b}\t{loops}\t{name}")


if __name__ == "__main__":
    main()
