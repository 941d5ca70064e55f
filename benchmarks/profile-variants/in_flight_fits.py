#!/usr/bin/env python3
"""Session 8's try at the sixth check's largest class of misses (several rows per warp one after the other:
warp_row4, warp_row2): the time model with the loads a warp keeps in flight taken from the emulator's trace, each
candidate fitted as fit_model.py fits the model, (a) on the 556 points of the first five checks and checked on the
sixth's 227 held-out ones, (b) on all 783. None was adopted (docs/emulator.md, Profiler: seventh check).

    in_flight_fits.py [iterations]      prints one line per candidate and fit

The inputs each candidate needs are in every committed profile.jsonl (no new emulation): a warp's load requests
(ld_requests over the emulated warps), their bytes (ld_bytes, or sectors x 32), their 128-byte lines, and the L1
model's miss fraction (l1_miss over l1_hit + l1_miss).
  littles_law   W's "too few warps per SM" replaced by Little's law on bytes: resident warps x min(U = 4, the warp's
                loads per round trip) x bytes per load request against the copy's rate times a fitted latency;
  + sectors     the same with the bytes the request moves (sectors x 32: a strided request moves 1 KiB);
  chain         a per-warp floor beside the others in the p-norm: its missed loads / U x t_trip (U fitted), waves of
                resident units one after the other;
  batches       the mean value analysis with a warp's loads per round trip split in batches of U (fitted), each a
                round trip of its own.
"""
import math
import sys
from pathlib import Path

import fit_model as F

RUNS = Path(__file__).resolve().parents[2] / "docs/gpu-runs"
E = RUNS / "2026-12-02-profile6-emu"
SOURCES = [f"{RUNS}/2026-12-01-profile-h200.txt@{E}-code-37b7f20", f"{RUNS}/2026-12-01-profile-heldout@{E}-code-37b7f20",
           f"{RUNS}/2026-12-01-profile3-h200@{E}-code-1a8afa9", f"{RUNS}/2026-12-01-profile4-h200@{E}-code-1a8afa9",
           f"{RUNS}/2026-12-01-profile5-h200", f"{RUNS}/2026-12-02-profile6-h200"]


def with_warp_inputs(emu_dirs):
    """fit_model.emu_inputs, each model dict given the per-warp inputs of the candidates."""
    import json
    import re
    out = {}
    for f in sorted(f for d in emu_dirs.split(",") for f in Path(d).glob("*/profile.jsonl")):
        lines = [json.loads(l) for l in f.read_text().splitlines() if l.strip()]
        if all(j["ld_requests"] + j["st_requests"] == 0 for j in lines):
            continue
        for j in lines:
            m = re.match(r"(\d+) x (\d+)", j["label"])
            if not (m and "model" in j and "miss_phases" in j["model"]):
                continue
            mm = dict(j["model"])
            warps = j["blocks"] * ((j["block"][0] * j["block"][1] * j["block"][2] + 31) // 32)
            looked = j["l1_hit"] + j["l1_miss"]
            miss = j["l1_miss"] / looked if looked else 0
            req = j["ld_requests"]
            mm["requests"] = req / warps if warps else 0
            mm["missed_requests"] = mm["requests"] * miss
            mm["missed_lines"] = j["ld_lines"] / warps * miss if warps else 0
            mm["bytes_per_request"] = j["ld_bytes"] / req if req else 0
            mm["sector_bytes_per_request"] = j["ld_sectors"] * 32 / req if req else 0
            out[(f.parent.name, f"{m.group(1)} {m.group(2)}")] = (mm, j["predicted_us"])
    return out


def load(sources):
    emu = with_warp_inputs(str(E))
    meas, overlays = {}, {}
    for p in sources:
        path, _, over = p.partition("@")
        if over and over not in overlays:
            overlays[over] = with_warp_inputs(over)
        for (name, shape), v in F.measured(path).items():
            own = over if over and any(k[0] == name for k in overlays[over]) else None
            meas.setdefault((name, shape, own), []).append(v)
    return F.points(emu, {k: sum(v) / len(v) for k, v in meas.items()}, "256 4096", overlays)


def shared(c, m, dram, wait_extra=0.0, batches=1.0):
    """fit_model.terms from the DRAM term on, with a warp's cycle split in `batches`."""
    fixed, wave, trip, _, l2, l1, p = c[:7]
    l2_us = m["l2_bytes"] / l2 * 1e6
    busiest = m["busiest_sm_blocks"] / m["blocks"] if m["blocks"] > 0 else 0
    l1_us = m["l1_wavefronts"] * busiest * l1 / F.CLOCK * 1e6
    trips = max(1.0, m["miss_phases"])
    bw = (dram ** p + l2_us ** p + l1_us ** p) ** (1 / p)
    per_block = m["warps_per_sm"] / m["blocks_per_sm"] if m["blocks_per_sm"] > 0 else 1
    by_blocks = m["barriers_per_block"] > 0
    resident = min(m["blocks_per_sm"], m["busiest_sm_blocks"]) * (1 if by_blocks else per_block)
    cycles = m["busiest_sm_blocks"] * (1 if by_blocks else per_block) * trips * batches
    loads = bw * (1 - m["store_fraction"])
    exposed = 0.0
    if cycles > 0:
        exposed = max(0.0, cycles / F.mva_throughput(resident, wave / (trips * batches) + trip, loads / cycles) - loads)
    return [fixed + wave + trip * m["miss_phases"], exposed, dram, l2_us, l1_us, wait_extra]


def littles_law(c, m, bytes_key):
    lat = c[3]
    depth = m["requests"] / max(1.0, m["miss_phases"])
    in_flight = m["warps_per_sm"] * max(1.0, min(depth, 4.0)) * m[bytes_key]
    need = F.DRAM_BPS / 132 * lat * 1e-6
    dram = m["dram_bytes"] / F.DRAM_BPS * 1e6
    if 0 < in_flight < need:
        dram *= need / in_flight
    return shared(c, m, dram)


def with_w(c, m, copy=F.DRAM_BPS):
    """The model's DRAM term: the bytes over the copy, scaled up where fewer than W (c[3]) warps per SM are resident."""
    dram = m["dram_bytes"] / copy * 1e6
    if 0 < m["warps_per_sm"] < c[3]:
        dram *= c[3] / m["warps_per_sm"]
    return dram


def chain(c, m):
    units = min(m["blocks_per_sm"], m["busiest_sm_blocks"]) if m["blocks_per_sm"] > 0 else 1
    waves = m["busiest_sm_blocks"] / max(1e-9, units)
    floor = waves * m["missed_requests"] / c[7] * c[2] if m["miss_phases"] > 0 else 0.0
    return shared(c, m, with_w(c, m), wait_extra=floor)


def batches(c, m):
    n = max(1.0, m["missed_requests"] / max(1.0, m["miss_phases"]) / c[7]) if m["miss_phases"] > 0 else 1.0
    return shared(c, m, with_w(c, m), batches=n)


CANDIDATES = {
    "model as is (W)": (lambda c, m: shared(c, m, with_w(c, m)), []),
    "littles_law": (lambda c, m: littles_law(c, m, "bytes_per_request"), []),
    "littles_law + sectors": (lambda c, m: littles_law(c, m, "sector_bytes_per_request"), []),
    "chain (U fitted)": (chain, [8.0]),
    "batches (U fitted)": (batches, [4.0]),
}


def fit(terms, extra, w_start, pts, iters, copy=F.DRAM_BPS):
    """Fits the constants (the model's seven, then `extra`) of a candidate `terms(c, m, copy)` on `pts` by least squares
    on log(predicted / measured), from profile_model.cpp's constants (c[3], W, replaced by `w_start` when given: a
    latency in µs where the candidate reads it so). Returns the constants and, for any points and copy bandwidth, the
    points within 20 % with the rms log error, the pairs in the measured order at each shape, and the prediction."""
    def predict(c, m, cp):
        head, *rest = terms(c, m, cp)
        return head + sum(t ** c[6] for t in rest) ** (1 / c[6])

    def loss(c, p, cp=copy):
        if min(c) <= 0:
            return float("inf")
        return sum(math.log(predict(c, m, cp) / us) ** 2 for _, _, m, us, _ in p) / len(p)

    start = F.cpp_constants() + extra
    if w_start is not None:
        start[3] = w_start
    f = lambda z: loss([math.exp(v) for v in z], pts)
    best, _ = F.nelder_mead(f, [math.log(v) for v in start], [0.5] * len(start), iters)
    best, _ = F.nelder_mead(f, best, [0.3] * len(start), iters)
    c = [math.exp(v) for v in best]

    def score(p, cp=copy):
        return sum(abs(predict(c, m, cp) / us - 1) <= 0.2 for _, _, m, us, _ in p), math.sqrt(loss(c, p, cp))

    def ranking(p, cp=copy):
        by = {}
        for name, shape, m, us, _ in p:
            by.setdefault(shape, []).append((predict(c, m, cp), us))
        good = tot = 0
        for rows in by.values():
            for i in range(len(rows)):
                for j in range(i + 1, len(rows)):
                    tot += 1
                    good += (rows[i][0] - rows[j][0]) * (rows[i][1] - rows[j][1]) > 0
        return good, tot

    return c, score, ranking, predict


def main():
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
    five, sixth = load(SOURCES[:5]), load(SOURCES[5:])
    print(f"{'candidate':24} {'fitted on':9} {'first five (556)':>17} {'sixth (227)':>13} {'all (783)':>11}  constants")
    for name, (terms, extra) in CANDIDATES.items():
        for label, train in (("556", five), ("783", five + sixth)):
            # A latency in µs in place of W for the candidates that read c[3] so (those without constants of their own).
            w_start = 0.6 if terms is not CANDIDATES["model as is (W)"][0] and not extra else None
            c, score, _, _ = fit(lambda c, m, copy: terms(c, m), extra, w_start, train, iters)
            cells = [score(p) for p in (five, sixth, five + sixth)]
            print(f"{name:24} {label:9} " + " ".join(f"{w:>5} rms {r:.3f}" for w, r in cells) + "  " +
                  ", ".join(f"{v:.3g}" for v in c))


if __name__ == "__main__":
    main()
