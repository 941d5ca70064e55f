#!/usr/bin/env python3
"""Chooses the launch-shape rule's table (kernels/launch_shape.h, rule_entry) from a tuning sweep (`bench.sh --tune`).

For every (element size, op, short or long batch) and every whole-block variant (packs per thread, weight early or
late), the geometric mean over the sweep's hidden sizes of (that variant's bandwidth / the best tuning shape's at
the same shape), over the sizes whose rows the rule gives to a whole block (more than 32 packs). The best variant of
each entry is the table's entry; printed with the figure, so the comment beside each entry can quote it.

Usage: rule_from_tune.py bench-04.csv [more.csv ...]   (lesson 04's or lesson 05's CSV; no GPU needed)
"""
import csv
import math
import re
import sys
from collections import defaultdict

SHORT_BATCH_ROWS = 2048  # kShortBatchRows in launch_shape.h


def main(paths):
    best = {}
    rows = []
    for path in paths:
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["source"] != "tune" or r["status"] != "ok":
                    continue
                tbs = float(r["tb_per_s"])
                key = (r["op"], r["dtype"], int(r["M"]), int(r["N"]))
                best[key] = max(best.get(key, 0.0), tbs)
                rows.append((key, r["shape"], tbs))
    ratios = defaultdict(list)  # (elem bytes, op, short, packs, early) -> [bandwidth / best]
    for (op, dtype, m, n), shape, tbs in rows:
        got = re.fullmatch(r"block(\d+)x(\d+)([+,]w-late)?", shape)
        elem = 4 if dtype == "fp32" else 2
        if not got or -(-n // (16 // elem)) <= 32:
            continue
        entry = (elem, op, m <= SHORT_BATCH_ROWS, int(got.group(2)), got.group(3) is None)
        ratios[entry].append(tbs / best[(op, dtype, m, n)])
    table = defaultdict(list)
    for (elem, op, short, packs, early), rs in ratios.items():
        gm = math.exp(sum(math.log(x) for x in rs) / len(rs))
        table[(elem, op, short)].append((gm, packs, early, len(rs)))
    for (elem, op, short), cands in sorted(table.items()):
        cands.sort(reverse=True)
        gm, packs, early, n = cands[0]
        others = ", ".join(f"{p}{'' if e else 'L'}:{g:.2f}" for g, p, e, _ in cands[1:])
        print(f"{elem}-byte {op:22s} {'short' if short else 'long '}: packs {packs}, weight "
              f"{'early' if early else 'late '} {gm:.3f} of the best shape ({n} shapes); others {others}")


if __name__ == "__main__":
    main(sys.argv[1:])
