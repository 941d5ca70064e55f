#!/usr/bin/env python3
"""Writes rule_table.h, the launch-shape rule of the reference kernels, from a tuning sweep (`bench.sh --tune` CSV).

A rule entry is a whole-block variant: packs a thread, 512 threads where the fewest that hold the row are between
256 and 512 ("fill"), weight early or late, and the options (kOptCap, kOptStream, kOptLoadsFirst, kOptSharedH).
For each element size, op and batch length (the 512-row sweep; the long batches of the five large shapes), the
measured hidden sizes are cut into as few ranges as possible such that one variant is within TOLERANCE of the
fastest tuning shape at every size of its range; each range becomes a line of the table (up to its largest measured
N; past the last, the last line). fp16 takes the bf16 table (the same element size; bf16 is the one measured at
every shape). Rows of at most 32 packs go to warp groups whatever the table says (launch_shape.h, shape_for), so
those sizes are left out.

Usage: make_rule.py [--base rule_table.h] [--long-tolerance 0.002] tune.csv[.gz] [later.csv[.gz]...] > new_rule.h
(no GPU needed). --long-tolerance: the tolerance for the long batches' tables only (five shapes, where the peers are
often less than 1 % apart from the best shape; TOLERANCE otherwise).
With several sweeps, each table (element size, op, batch length) comes from the last file that measured it: a sweep
of the 16-bit norm alone (bench --tune --only rmsnorm:bf16) replaces that table and keeps the others. With --base,
a table that no sweep measured is copied, lines and comments as they are, from that earlier output of this script
(a sweep whose CSV is lost still has its tables there).
"""
import csv
import gzip
import re
import sys
import textwrap
from collections import defaultdict

SHORT_BATCH_ROWS = 2048  # kShortBatchRows in launch_shape.h
TOLERANCE = 0.01
SHAPE = re.compile(r"block(\d+)x(\d+)(\+w-late)?(\+cap)?(\+cs)?(\+first)?(\+smem)?")


def fewest_threads(row_packs, packs):
    return -(-(-(-row_packs // packs)) // 32) * 32


def variant(shape, n, elem):
    got = SHAPE.fullmatch(shape)
    if not got:
        return None
    threads, packs = int(got.group(1)), int(got.group(2))
    fill = threads != fewest_threads(-(-n // (16 // elem)), packs)
    opt = (1 if got.group(4) else 0) | (2 if got.group(5) else 0) | (4 if got.group(6) else 0) | (
        8 if got.group(7) else 0)
    return packs, fill, got.group(3) is None, opt


def segments(times, tolerance=TOLERANCE):
    """times: {N: {variant: us}}. Fewest ranges of consecutive N, each with one variant within tolerance everywhere."""
    ns = sorted(times)
    ok = [{v for v, t in times[n].items() if t <= (1 + tolerance) * min(times[n].values())} for n in ns]
    # cost[i] = fewest ranges covering ns[:i]; a range ns[j:i] needs a variant good at all of them.
    cost, choice = [0] + [None] * len(ns), [None] * (len(ns) + 1)
    for i in range(1, len(ns) + 1):
        common = None
        for j in range(i - 1, -1, -1):
            common = ok[j] if common is None else common & ok[j]
            if not common:
                break
            if cost[j] is not None and (cost[i] is None or cost[j] + 1 < cost[i]):
                # Among the good variants, the one with the least summed time over the range.
                best = min(common, key=lambda v: sum(times[n][v] for n in ns[j:i]))
                cost[i], choice[i] = cost[j] + 1, (j, best)
    out, i = [], len(ns)
    while i > 0:
        j, v = choice[i]
        out.append((ns[i - 1], v, ns[j]))
        i = j
    return out[::-1]


def read(path):
    times = defaultdict(lambda: defaultdict(dict))
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for r in csv.DictReader(f):
            if r["source"] != "tune" or r["status"] != "ok" or r["dtype"] == "fp16":
                continue
            elem, n, m = (4 if r["dtype"] == "fp32" else 2), int(r["N"]), int(r["M"])
            if -(-n // (16 // elem)) <= 32:
                continue
            v = variant(r["shape"], n, elem)
            if v:
                times[(elem, r["op"] == "fused_add_rmsnorm", m <= SHORT_BATCH_ROWS)][n][v] = float(r["median_us"])
    return times


def table_name(elem, fused, short):
    return f"kRule{'Fp32' if elem == 4 else 'Half'}{'Fused' if fused else 'Norm'}{'Short' if short else 'Long'}"


TABLE = re.compile(r"(?:// from ([^\n]*)\n)?inline constexpr RuleLine (\w+)\[\] = \{\n(.*?)\n\};", re.S)


def read_base(path):
    """The tables of an earlier rule_table.h: {group: (source it names, its lines as text)}."""
    groups = {table_name(e, f, s): (e, f, s) for e in (2, 4) for f in (False, True) for s in (False, True)}
    out = {}
    with open(path) as f:
        for got in TABLE.finditer(f.read()):
            if got.group(2) in groups:
                out[groups[got.group(2)]] = (got.group(1) or path.split("/")[-1], got.group(3))
    return out


def main(args):
    base, long_tolerance = {}, TOLERANCE
    while args[:1] in (["--base"], ["--long-tolerance"]):
        if args[0] == "--base":
            base = read_base(args[1])
        else:
            long_tolerance = float(args[1])
        args = args[2:]
    times, source = {}, {}
    for path in args:
        for group, t in read(path).items():
            times[group], source[group] = t, path.split("/")[-1]
    kept = {g: b for g, b in base.items() if g not in times}
    source.update({g: b[0] for g, b in kept.items()})
    names = " and ".join(dict.fromkeys(source.values()))
    head = ("Generated by make_rule.py (this folder) from " + names + ": do not edit; run it again on a new tuning"
            " sweep. Each line: {largest N of the range, {packs, weight early, options, fill}}, and the measured range"
            " it was chosen on.")
    for line in textwrap.wrap(head, 116):
        print("// " + line)
    print("// Included by launch_shape.h after the definition of RuleLine (include that, not this).")
    print("#pragma once\n")
    print("namespace rmsref {\n")
    for group in sorted(set(times) | set(kept)):
        name = table_name(*group)
        if len(set(source.values())) > 1:
            print(f"// from {source[group]}")
        print(f"inline constexpr RuleLine {name}[] = {{")
        if group in kept:
            print(kept[group][1])
            print("};")
            continue
        for last, (packs, fill, early, opt), first in segments(times[group],
                                                               TOLERANCE if group[2] else long_tolerance):
            flags = " | ".join(f for f, b in (("kOptCap", opt & 1), ("kOptStream", opt & 2), ("kOptLoadsFirst", opt & 4),
                                              ("kOptSharedH", opt & 8)) if b) or "0"
            print(f"    {{{last}, {{{packs}, {'true' if early else 'false'}, {flags}, {'true' if fill else 'false'}}}}},"
                  f"  // N {first}..{last}")
        print("};")
    print("\n}  // namespace rmsref")


if __name__ == "__main__":
    main(sys.argv[1:])
