#!/usr/bin/env python3
"""Fits the profiler's time model (grader/emulator/runtime/profile_model.cpp) on a TRAINING set of H200 measurements,
and reports how the model does on any other set (the HELD-OUT one), without refitting. A point measured in more than
one <measured> source counts once, at the mean of its times.

    fit_model.py fit   <emu-dir> <measured> [<measured> ...]   prints the fitted constants and each point's error
    fit_model.py check <emu-dir> <measured> [<measured> ...]   the constants in profile_model.cpp, each point's error

<emu-dir> (several: comma-separated) holds one folder per variant, written by emu-profile.sh (<name>/profile.jsonl; the "model" object of each
line is the model's inputs for that shape). A <measured> file is either a GPU run's combined log (sections
"### <name>" with lines "shape M N: ... time_us T", and "ncu count" blocks whose gpu__time_duration is the time of
the count shape's launch) or a folder of <name>.time files (gpu-validate.sh, gpu-heldout.sh). A variant in which the
emulator saw no global access at all is left out: its inputs are wrong, not the model (none is, since emu-nvcc wraps
rmsnorm_half's bf16 reads).

A <measured> source may end in @<emu-dir>: the code its variants were measured with is profiled there (a solution
changed since that call: rmsnorm_fast's registers, the block reduction), and its points take their inputs from that
folder for the variants it holds; such a point is its own point (never averaged with a measurement of other code).
"""
import json
import math
import re
import sys
from pathlib import Path

SMS, CLOCK = 132, 1.98e9
DRAM_BPS = 4.21e12  # the copy measured in the training run: not fitted
NAMES = ("fixed_us", "wave_us", "round_trip_us", "streaming_warps", "l2_bps", "l1_clocks", "overlap_p")
MODEL_CPP = Path(__file__).resolve().parents[2] / "grader/emulator/runtime/profile_model.cpp"


def mva_throughput(k, wait, service):
    """Cycles per unit of time of a closed network of k customers, a delay `wait` and one queue of service time
    `service` (mean value analysis); a fractional k interpolates between the whole numbers around it."""
    def whole(n):
        queue = x = 0.0
        for i in range(1, n + 1):
            r = service * (1 + queue)
            x = i / (r + wait)
            queue = x * r
        return x
    k = min(max(k, 1.0), 64.0)
    lo, hi = math.floor(k), math.ceil(k)
    xl = whole(lo)
    return xl if hi == lo else xl + (whole(hi) - xl) * (k - lo)


def terms(c, m):
    """The model of profile_model.cpp's predict(), term for term: (fixed + one block, exposed latency, DRAM, L2, L1)."""
    fixed, wave, trip, warps, l2, l1, p = c
    dram = m["dram_bytes"] / DRAM_BPS * 1e6
    if 0 < m["warps_per_sm"] < warps:
        dram *= warps / m["warps_per_sm"]
    l2_us = m["l2_bytes"] / l2 * 1e6
    busiest = m["busiest_sm_blocks"] / m["blocks"] if m["blocks"] > 0 else 0
    l1_us = m["l1_wavefronts"] * busiest * l1 / CLOCK * 1e6
    phases = m["miss_phases"]
    trips = max(1.0, phases)
    block = wave + trip * phases
    bw = (dram ** p + l2_us ** p + l1_us ** p) ** (1 / p)
    # The busiest SM's independent units (blocks when a barrier ties a block's warps together, else warps), each
    # going round a wait and its loads' share of the bandwidth time (stores are posted).
    per_block = m["warps_per_sm"] / m["blocks_per_sm"] if m["blocks_per_sm"] > 0 else 1
    by_blocks = m["barriers_per_block"] > 0
    resident = min(m["blocks_per_sm"], m["busiest_sm_blocks"]) * (1 if by_blocks else per_block)
    cycles = m["busiest_sm_blocks"] * (1 if by_blocks else per_block) * trips
    loads = bw * (1 - m["store_fraction"])
    exposed = 0.0
    if cycles > 0:
        exposed = max(0.0, cycles / mva_throughput(resident, wave / trips + trip, loads / cycles) - loads)
    return fixed + block, exposed, dram, l2_us, l1_us


def predict(c, m):
    head, *rest = terms(c, m)
    p = c[6]
    return head + sum(t ** p for t in rest) ** (1 / p)


def emu_inputs(emu_dirs):
    """(variant, 'M N') -> (model inputs, the C++ prediction), for every variant whose global accesses were seen.
    emu_dirs: one or more emu-profile.sh folders, comma-separated; a variant in more than one: the last folder's.
    Profiles written before the fourth check lack its inputs (miss_phases, store_fraction): they are not used."""
    out = {}
    for f in sorted(f for d in emu_dirs.split(",") for f in Path(d).glob("*/profile.jsonl")):
        lines = [json.loads(l) for l in f.read_text().splitlines() if l.strip()]
        if all(j["ld_requests"] + j["st_requests"] == 0 for j in lines):
            continue
        for j in lines:
            m = re.match(r"(\d+) x (\d+)", j["label"])
            if m and "model" in j and "miss_phases" in j["model"]:
                out[(f.parent.name, f"{m.group(1)} {m.group(2)}")] = (j["model"], j["predicted_us"])
    return out


def measured(path):
    """(variant, 'M N') -> median microseconds."""
    p, t = Path(path), {}
    if p.is_dir():
        for f in p.glob("*.time"):
            for m in re.finditer(r"shape (\d+ \d+): [^\n]*\s*time_us ([\d.]+)", f.read_text()):
                t[(f.stem, m.group(1))] = float(m.group(2))
        return t
    name = None
    if not p.exists():
        return t
    lines = p.read_text(errors="replace").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("### "):
            name = line[4:].strip()
        elif name and (m := re.match(r"shape (\d+ \d+): .*?time_us ([\d.]+)", line)):
            t[(name, m.group(1))] = float(m.group(2))
        elif name and (m := re.match(r"ncu count .*grid \((\d+), 1, 1\)", line)):
            # The count shape's rows are its grid's blocks for one-row-per-block kernels; others name it in the
            # emulator's label, so take the width from the next duration and the rows from the emulator (below).
            for follow in lines[i + 1:i + 80]:
                d = re.match(r"\s+gpu__time_duration.sum = ([\d,.]+) (ns|us)", follow)
                if d:
                    v = float(d.group(1).replace(",", ""))
                    t[(name, "count")] = v / 1000 if d.group(2) == "ns" else v
                    break
    return t


def points(emu, meas, count_shape, overlays=None):
    """meas: (name, shape, overlay folder or None) -> us; an overlay's inputs replace emu's for its variants."""
    pts = []
    for (name, shape, over), us in sorted(meas.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or "")):
        key = (name, count_shape if shape == "count" else shape)
        src = overlays[over] if over else emu
        if key in src:
            pts.append((name, key[1], src[key][0], us, src[key][1]))
    return pts


def loss(c, pts):
    if min(c) <= 0:
        return float("inf")
    return sum(math.log(predict(c, m) / us) ** 2 for _, _, m, us, _ in pts) / len(pts)


def nelder_mead(f, x0, steps, iters=4000):
    """Minimises f from x0 (a plain Nelder-Mead simplex; no numpy on the machines this runs on)."""
    n = len(x0)
    simplex = [list(x0)] + [[x0[j] + (steps[j] if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(x) for x in simplex]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        simplex, vals = [simplex[i] for i in order], [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) < 1e-12:
            break
        centre = [sum(x[j] for x in simplex[:-1]) / n for j in range(n)]
        worst = simplex[-1]
        refl = [centre[j] + (centre[j] - worst[j]) for j in range(n)]
        fr = f(refl)
        if fr < vals[0]:
            exp = [centre[j] + 2 * (centre[j] - worst[j]) for j in range(n)]
            fe = f(exp)
            simplex[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            simplex[-1], vals[-1] = refl, fr
        else:
            con = [centre[j] + 0.5 * (worst[j] - centre[j]) for j in range(n)]
            fc = f(con)
            if fc < vals[-1]:
                simplex[-1], vals[-1] = con, fc
            else:
                best = simplex[0]
                simplex = [best] + [[best[j] + 0.5 * (x[j] - best[j]) for j in range(n)] for x in simplex[1:]]
                vals = [vals[0]] + [f(x) for x in simplex[1:]]
    i = min(range(n + 1), key=lambda k: vals[k])
    return simplex[i], vals[i]


def cpp_constants():
    text = MODEL_CPP.read_text()
    want = {"fixed_us": "kFixedUs", "wave_us": "kWaveUs", "round_trip_us": "kRoundTripUs",
            "streaming_warps": "kStreamingWarps", "l2_bps": "kL2Bps", "l1_clocks": "kL1Clocks", "overlap_p": "kOverlapP"}
    vals = []
    for n in NAMES:
        m = re.search(want[n] + r"\s*=\s*([0-9.e+-]+)", text)
        if not m:
            sys.exit(f"fit_model: {want[n]} not found in {MODEL_CPP}")
        vals.append(float(m.group(1)))
    return vals


def report(c, pts):
    within = 0
    print(f"{'variant':14} {'shape':12} {'measured us':>12} {'predicted':>10} {'error':>7}")
    for name, shape, m, us, cpp in pts:
        p = predict(c, m)
        within += abs(p / us - 1) <= 0.2
        print(f"{name:14} {shape:12} {us:12.1f} {p:10.1f} {(p / us - 1) * 100:+6.0f}%")
    print(f"{within} of {len(pts)} points within 20 %; rms log error {math.sqrt(loss(c, pts)):.3f}")


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("fit", "check"):
        sys.exit(__doc__)
    emu = emu_inputs(sys.argv[2])
    # The count shape (the launch Nsight Compute counted) is the emulated shape predicted for itself: 256 x 4096.
    meas, overlays = {}, {}
    for p in sys.argv[3:]:
        path, _, over = p.partition("@")
        if over and over not in overlays:
            overlays[over] = emu_inputs(over)
        for (name, shape), v in measured(path).items():
            own = over if over and any(k[0] == name for k in overlays[over]) else None
            meas.setdefault((name, shape, own), []).append(v)
    meas = {k: sum(v) / len(v) for k, v in meas.items()}
    pts = points(emu, meas, "256 4096", overlays)
    if not pts:
        sys.exit("fit_model: no point has both an emulator profile and a measurement")
    if sys.argv[1] == "fit":
        # In logs, so every constant stays positive and the simplex's steps are relative.
        start = [3.0, 0.7, 0.7, 24.0, 12e12, 1.1, 3.0]
        f = lambda z: loss([math.exp(v) for v in z], pts)
        best, _ = nelder_mead(f, [math.log(v) for v in start], [0.5] * len(start))
        for _ in range(3):  # restarts: a simplex can stall on the max() terms' corners
            best, _ = nelder_mead(f, best, [0.3] * len(start))
        c = [math.exp(v) for v in best]
        print("fitted on", len(pts), "points:", ", ".join(f"{n} = {v:.4g}" for n, v in zip(NAMES, c)))
    else:
        c = cpp_constants()
        print("constants of profile_model.cpp:", ", ".join(f"{n} = {v:.4g}" for n, v in zip(NAMES, c)))
        off = [(n, s) for n, s, m, _, cpp in pts if abs(predict(c, m) / cpp - 1) > 1e-3]
        if off:
            sys.exit(f"fit_model: this script's model and the C++ one disagree for {off[:3]}")
    report(c, pts)


if __name__ == "__main__":
    main()
