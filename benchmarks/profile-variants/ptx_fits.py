#!/usr/bin/env python3
"""Session 9's try at the loads a warp keeps in flight, read from the compiled code (ptx_in_flight.py on nvcc -O3
-arch=sm_90 -ptx of each variant) instead of the trace (session 8: in_flight_fits.py). Each candidate is fitted as
fit_model.py fits the model, (a) on the 556 points of the first five checks and judged on the sixth's 227 held-out
ones, (b) on all 783; and, as a second held-out set, judged on the seventh check's 249 H100 points with the copy
substituted (compare.py --seventh-copy's reading: the DRAM term over the copy that call measured).

    ptx_fits.py <ptx-table> [iterations] [candidate,...]
    ptx_fits.py --predict8 <emu-dir> <ptx-table>          the eighth check's predictions: the model and the candidate
    ptx_fits.py --eighth <emu-dir> <ptx-table> <gpu-dir>  the eighth call against them    the table: variant<TAB>loads<TAB>bytes<TAB>loops<TAB>demangled entry
    ptx_fits.py --eighth-copy <emu-dir> <ptx-table> <gpu-dir>  the same on another card: both predictions recomputed
                  from the committed inputs with the DRAM term over the copy that call measured (compare.py
                  --seventh-copy's reading); every fitted constant is the committed one
    ptx_fits.py --fit8 <emu-dir> <ptx-table> <gpu-dir> <iterations> <candidate,...>  each candidate fitted IN SAMPLE
                  on the eighth call's points alone (its copy): can the form reproduce the unroll contrasts at all?
                  A diagnostic for choosing the next form, not a check (nothing is held out)

The committed profiles hold every other input (no new emulation). The candidates:
  littles_bytes   W's "too few warps per SM" replaced by Little's law: resident warps x the bytes one iteration of the
                  kernel's shallowest main loop asks for (PTX) against the copy's rate times a fitted latency;
  littles_moved   the same with the bytes those loads move (PTX loads x the trace's sectors x 32 per request);
  flight_term     a term of its own in the p-norm beside the others (W kept): the loads' bytes beyond L1 over
                  (132 x resident warps x bytes in flight per warp / a fitted latency).
"""
import math
import re
import sys
from pathlib import Path

import compare as C
import fit_model as F
import in_flight_fits as I

RUNS = Path(__file__).resolve().parents[2] / "docs/gpu-runs"
H100 = RUNS / "2026-12-07-profile7-h100"
EMU7 = f"{RUNS}/2026-12-02-profile6-emu,{RUNS}/2026-12-07-profile7-emu"


def norm(name):
    name = re.sub(r"^void ", "", name)
    name = name.replace("(anonymous namespace)::", "")
    name = name.split("(")[0]
    return re.sub(r"\s+", "", name)


def read_table(path):
    t = {}
    for line in Path(path).read_text().splitlines():
        v, loads, b, loops, entry = line.split("\t")
        t.setdefault(v, []).append((norm(entry), int(loads), int(b)))
    return t


def attach(pts, table, emu_dirs):
    """Each point's model dict given ptx_loads and ptx_bytes (its kernel instance's, by the profile's name)."""
    import json
    inst = {}
    for d in emu_dirs:
        for f in Path(d).glob("*/profile.jsonl"):
            for l in f.read_text().splitlines():
                if l.strip():
                    j = json.loads(l)
                    m = re.match(r"(\d+) x (\d+)", j["label"])
                    if m:
                        inst[(f.parent.name, f"{m.group(1)} {m.group(2)}")] = norm(j.get("instance") or j["kernel"])
    out = []
    for name, shape, m, us, cpp in pts:
        want = inst.get((name, shape), "")
        rows = [r for r in table.get(name, []) if r[1] > 0]
        pick = [r for r in rows if r[0] == want] or [r for r in rows if r[0].split("<")[0] == want.split("<")[0]]
        if not pick:
            sys.exit(f"ptx_fits: no PTX entry for {name} ({want})")
        mm = dict(m)
        mm["ptx_loads"], mm["ptx_bytes"] = pick[0][1], pick[0][2]
        out.append((name, shape, mm, us, cpp))
    return out


def dram_us(m, copy):
    return m["dram_bytes"] / copy * 1e6


def littles(c, m, copy, key):
    per_warp = m["ptx_bytes"] if key == "bytes" else m["ptx_loads"] * m["sector_bytes_per_request"]
    in_flight = m["warps_per_sm"] * per_warp
    need = copy / 132 * c[3] * 1e-6
    d = dram_us(m, copy)
    if 0 < in_flight < need:
        d *= need / in_flight
    return I.shared(c, m, d)


def littles_rate(c, m, copy):
    """Little's law with a latency that grows with the bytes one iteration asks for: a warp moves b bytes per
    L0 + b / B_warp (L0 = c[3], B_warp = c[7] bytes per µs), the SM its resident warps' sum, against the copy."""
    b = m["ptx_bytes"]
    rate = m["warps_per_sm"] * b / (c[3] + b / c[7]) if b > 0 else 0.0  # bytes per µs per SM
    need = copy / 132 * 1e-6
    d = dram_us(m, copy)
    if 0 < rate < need:
        d *= need / rate
    return I.shared(c, m, d)


def flight_term(c, m, copy):
    in_flight = m["warps_per_sm"] * m["ptx_bytes"] * 132
    loads_beyond_l1 = m["l2_bytes"] * (1 - m["store_fraction"])
    t = loads_beyond_l1 / in_flight * c[7] if in_flight > 0 else 0.0
    return I.shared(c, m, I.with_w(c, m, copy), wait_extra=t)


def loop_iterations(c, m, copy):
    """The mean value analysis with every iteration of a kernel's loop a round trip of its own: a warp's loads that
    miss L1, over the loads one iteration issues (PTX), are its cycles (at least its round trips at barriers and
    shuffles); the round trips the model counts wait t_trip, the other iterations a fitted t_iter."""
    fixed, wave, trip, _, l2, l1, p, t_iter = c[:8]
    per_byte = 1 / c[8] if len(c) > 8 else 0.0  # µs per byte of one iteration's loads (a warp's own rate)
    dram = I.with_w(c, m, copy)
    l2_us = m["l2_bytes"] / l2 * 1e6
    busiest = m["busiest_sm_blocks"] / m["blocks"] if m["blocks"] > 0 else 0
    l1_us = m["l1_wavefronts"] * busiest * l1 / F.CLOCK * 1e6
    trips = max(1.0, m["miss_phases"])
    iters = max(trips, m["missed_requests"] / max(1, m["ptx_loads"])) if m["miss_phases"] > 0 else trips
    bw = (dram ** p + l2_us ** p + l1_us ** p) ** (1 / p)
    per_block = m["warps_per_sm"] / m["blocks_per_sm"] if m["blocks_per_sm"] > 0 else 1
    by_blocks = m["barriers_per_block"] > 0
    resident = min(m["blocks_per_sm"], m["busiest_sm_blocks"]) * (1 if by_blocks else per_block)
    cycles = m["busiest_sm_blocks"] * (1 if by_blocks else per_block) * iters
    loads = bw * (1 - m["store_fraction"])
    wait = (wave + trip * trips + (t_iter + m["ptx_bytes"] * per_byte) * (iters - trips)) / iters
    exposed = 0.0
    if cycles > 0:
        exposed = max(0.0, cycles / F.mva_throughput(resident, wait, loads / cycles) - loads)
    return [fixed + wave + trip * m["miss_phases"], exposed, dram, l2_us, l1_us]


def two_norms(c, m, copy):
    """The bandwidth terms (DRAM, L2, L1) combined by their own fitted norm q = c[7] (the resources of one memory
    path overlapping more closely than latency and bandwidth do), then with the exposed latency by p."""
    head, exposed, dram, l2_us, l1_us, extra = I.shared(c, m, I.with_w(c, m, copy))
    q = c[7]
    bw = (dram ** q + l2_us ** q + l1_us ** q) ** (1 / q)
    return [head, exposed, bw]


CANDIDATES = {
    "model as is (W)": (lambda c, m, cp: I.shared(c, m, I.with_w(c, m, cp)), [], None),
    "littles_bytes (PTX)": (lambda c, m, cp: littles(c, m, cp, "bytes"), [], 0.6),
    "littles_moved (PTX x trace)": (lambda c, m, cp: littles(c, m, cp, "moved"), [], 0.6),
    "littles_rate (PTX)": (littles_rate, [4000.0], 0.4),
    "flight_term (PTX, W kept)": (flight_term, [0.6], None),
    "loop_iterations (PTX)": (loop_iterations, [0.3], None),
    "two_norms (no PTX)": (two_norms, [3.0], None),
    "loop_iterations + bytes (PTX)": (loop_iterations, [0.3, 2200.0], None),
}


def seventh_points(table):
    """The seventh check's H100 points (medians of 50 launches), the inputs of the committed profiles."""
    emu = I.with_warp_inputs(EMU7)
    meas = F.measured(str(H100))
    pts = F.points(emu, {(n, s, None): v for (n, s), v in meas.items() if s != "count"}, "256 4096")
    return attach(pts, table, EMU7.split(","))


def copy_bps(gpu):
    """The copy a call measured (compare.py reads its copy.txt), in bytes per second."""
    return C.copy_tbs(gpu) * 1e12


# The eighth check (gpu-heldout7.sh): the plan its script times, and the candidate carried into it beside the model.
EIGHTH_SHAPES = ("61440 1024", "30720 2048", "20480 4096", "9216 9216", "5632 13312")
OLD_SHAPES8 = ("16384 4096", "16384 8192", "65536 1024", "32768 2048", "4096 16384", "16384 2048", "8192 6144",
               "2048 16384", "32768 3072", "8192 8192", "40960 1024", "6144 10240", "12288 5120", "49152 1024",
               "81920 1024", "20480 3072", "10240 6144", "3072 14336", "57344 1024", "24576 2048", "14336 4096",
               "7168 7168", "5120 12288", "98304 1024", "28672 2048", "18432 3072", "11264 5120", "3584 15360")
CANDIDATE8 = "littles_rate (PTX)"
# Fitted on all 783 H200 points (ptx_fits.py 600: docs/gpu-runs/2026-12-07-profile8-ptx-fits.txt), committed before
# the eighth call: fixed_us, wave_us, round_trip_us, L0 (µs), l2_bps, l1_clocks, overlap_p, B_warp (bytes per µs).
CANDIDATE8_CONSTANTS = [0.483, 0.942, 1.07, 0.139, 1.06e13, 1.02, 2.03, 2090.0]
CONTRASTS8 = (("warp_row4_u1", "warp_row4"), ("warp_row4_u8", "warp_row4"), ("warp_row2_u1", "warp_row2"),
              ("rows2_u1", "rows2"))


def names(list_file):
    return [l.split()[0] for l in (Path(__file__).parent / list_file).read_text().splitlines() if l.strip()]


def eighth_plan():
    new = names("heldout7.txt")
    old = [n for f in ("variants.txt", "heldout.txt", "heldout2.txt", "heldout3.txt", "heldout4.txt", "heldout5.txt",
                       "heldout6.txt") for n in names(f)]
    return new, old, [(n, EIGHTH_SHAPES + OLD_SHAPES8) for n in new] + [(n, EIGHTH_SHAPES) for n in old]


def eighth_inputs(emu_dir, table_path):
    """(variant, shape) -> model inputs with the PTX fields, from the eighth check's emulator profiles."""
    table = read_table(table_path)
    emu = I.with_warp_inputs(emu_dir)
    pts = [(n, s, m, 1.0, cpp) for (n, s), (m, cpp) in emu.items()]
    return {(n, s): m for n, s, m, _, _ in attach(pts, table, [emu_dir])}


def predict_both(m):
    terms = CANDIDATES[CANDIDATE8][0]
    head, *rest = terms(CANDIDATE8_CONSTANTS, m, F.DRAM_BPS)
    cand = head + sum(t ** CANDIDATE8_CONSTANTS[6] for t in rest) ** (1 / CANDIDATE8_CONSTANTS[6])
    return F.predict(F.cpp_constants(), m), cand


def predict8(emu_dir, table_path):
    inputs = eighth_inputs(emu_dir, table_path)
    c = F.cpp_constants()
    print("constants of profile_model.cpp:", ", ".join(f"{n} = {v:.4g}" for n, v in zip(F.NAMES, c)))
    print(f"candidate {CANDIDATE8}:", ", ".join(f"{v:.4g}" for v in CANDIDATE8_CONSTANTS))
    print(f"{'variant':16} {'shape':12} {'model us':>10} {'candidate us':>12}  ptx loads/bytes per warp")
    for n, shapes in eighth_plan()[2]:
        for s in shapes:
            m = inputs.get((n, s))
            if not m:
                print(f"{n:16} {s:12} {'–':>10} {'–':>12}  (no profile)")
                continue
            a, b = predict_both(m)
            print(f"{n:16} {s:12} {a:10.1f} {b:12.1f}  {m['ptx_loads']}/{m['ptx_bytes']}")


def committed8():
    """(variant, shape) -> (model µs, candidate µs), as the predictions file committed before the call holds them."""
    committed = {}
    for line in (RUNS / "2026-12-07-profile8-predictions.txt").read_text().splitlines()[3:]:
        f = line.split()
        if len(f) >= 5 and f[3] != "–":
            committed[(f[0], f"{f[1]} {f[2]}")] = (float(f[3]), float(f[4]))
    return committed


def recomputed8(emu_dir, table_path, copy):
    """Both predictions from the committed inputs with the DRAM term's copy replaced. At the H200's copy they must be
    the committed file's to its printed precision, which is checked first: the recomputation is the same model."""
    inputs = eighth_inputs(emu_dir, table_path)
    committed = committed8()
    for k, (a, b) in committed.items():
        x, y = predict_both(inputs[k])
        if abs(x - a) > 0.051 or abs(y - b) > 0.051:
            sys.exit(f"ptx_fits: {k} recomputes to {x:.1f} / {y:.1f}, committed {a} / {b}")
    F.DRAM_BPS = copy
    return {k: predict_both(inputs[k]) for k in committed}


def eighth(emu_dir, table_path, gpu, committed=None):
    """The eighth call's points against the predictions committed before it (its predictions file holds both), or
    against recomputed ones (--eighth-copy)."""
    committed = committed or committed8()
    new, old, plan = eighth_plan()
    meas, t = {}, F.measured(str(gpu))
    for n, shapes in plan:
        for s in shapes:
            if (n, s) in t and (n, s) in committed:
                meas[(n, s)] = t[(n, s)]
    for i, label in ((0, "model (profile_model.cpp)"), (1, f"candidate {CANDIDATE8}")):
        for title, keep in (("new variants", lambda n, s: n in new), ("old variants, new shapes", lambda n, s: n not in new),
                            ("all", lambda n, s: True)):
            ks = [k for k in meas if keep(*k)]
            if not ks:
                continue
            within = sum(abs(committed[k][i] / meas[k] - 1) <= 0.2 for k in ks)
            rms = math.sqrt(sum(math.log(committed[k][i] / meas[k]) ** 2 for k in ks) / len(ks))
            print(f"* {label}, {title}: within 20 % for {within} of {len(ks)} points, rms log error {rms:.3f}")
        good = tot = 0
        for s in EIGHTH_SHAPES + OLD_SHAPES8:
            ks = [k for k in meas if k[1] == s]
            for a in range(len(ks)):
                for b in range(a + 1, len(ks)):
                    tot += 1
                    good += (committed[ks[a]][i] - committed[ks[b]][i]) * (meas[ks[a]] - meas[ks[b]]) > 0
        if tot:
            print(f"* {label}, ranking: {good} of {tot} pairs in the measured order ({good / tot * 100:.1f} %)")
    print("\n| contrast at shape | measured µs | ratio measured | ratio model | ratio candidate |")
    print("| --- | --- | --- | --- | --- |")
    for a, b in CONTRASTS8:
        for s in EIGHTH_SHAPES + OLD_SHAPES8:
            if (a, s) in meas and (b, s) in meas and (b, s) in committed:
                print(f"| {a} / {b} at {s.replace(' ', ' × ')} | {meas[(a, s)]:.1f} / {meas[(b, s)]:.1f} | "
                      f"{meas[(a, s)] / meas[(b, s)]:.2f} | {committed[(a, s)][0] / committed[(b, s)][0]:.2f} | "
                      f"{committed[(a, s)][1] / committed[(b, s)][1]:.2f} |")
    bank_conflicts8(emu_dir, gpu)


def fit8(emu_dir, table_path, gpu, iters, names):
    """Each candidate fitted on the eighth call's points alone, and the contrasts it then predicts (in sample)."""
    copy, t = copy_bps(gpu), F.measured(str(gpu))
    inputs = eighth_inputs(emu_dir, table_path)
    pts = [(n, s, inputs[(n, s)], t[(n, s)], None) for n, shapes in eighth_plan()[2] for s in shapes
           if (n, s) in t and (n, s) in inputs]
    print(f"{len(pts)} points of {gpu}, copy {copy / 1e12:.3f} TB/s; fitted in sample ({iters} iterations)")
    for name in names:
        terms, extra, w0 = CANDIDATES[name]
        c, score, ranking, predict = I.fit(terms, extra, w0, pts, iters, copy)
        (w, r), (g, tot) = score(pts, copy), ranking(pts, copy)
        print(f"\n{name}: within 20 % for {w} of {len(pts)}, rms {r:.3f}, {g} of {tot} pairs; constants " +
              ", ".join(f"{v:.3g}" for v in c))
        print("  contrast, predicted / measured ratio at " + ", ".join(EIGHTH_SHAPES))
        for a, b in CONTRASTS8:
            print(f"  {a:14} " + "  ".join(f"{predict(c, inputs[(a, s)], copy) / predict(c, inputs[(b, s)], copy):.2f}"
                                            f"/{t[(a, s)] / t[(b, s)]:.2f}" for s in EIGHTH_SHAPES))


def bank_conflicts8(emu_dir, gpu):
    """Nsight Compute's shared-memory wavefronts and bank conflicts (asked for from this call on) against the
    emulator's, at both counted launches; the requests and sectors as compare.py tables them for the seventh check."""
    e = C.emu(f"{RUNS}/2026-12-02-profile6-emu,{RUNS}/2026-12-07-profile7-emu,{emu_dir}")
    variants = ["smem_unpadded", "smem_padded", "smem_pad2"] + names("heldout7.txt")
    print("\n| variant at shape | shared wavefronts emu / ncu | bank conflicts emu / ncu |")
    print("| --- | --- | --- |")
    for n in variants:
        for s, c in zip(("256 4096", "57344 1024"), C.ncu(gpu / f"{n}.ncu.csv")):
            em = e.get(n, {}).get(s)
            if not em:
                continue
            k = em["predict_blocks"] / em["blocks"]
            w = sum(C.g(c, f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{o}.sum") or 0 for o in ("ld", "st"))
            bc = sum(C.g(c, f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{o}.sum") or 0 for o in ("ld", "st"))
            print(f"| {n} at {s.replace(' ', ' × ')} | {em['sh_wavefronts'] * k:.0f} / {w:.0f} | "
                  f"{em['sh_bank_conflicts'] * k:.0f} / {bc:.0f} |")
    C.seventh_counts_all(e, gpu, variants)


def main():
    if sys.argv[1:2] == ["--predict8"]:
        predict8(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1:2] == ["--eighth"]:
        eighth(sys.argv[2], sys.argv[3], Path(sys.argv[4]))
        return
    if sys.argv[1:2] == ["--fit8"]:
        fit8(sys.argv[2], sys.argv[3], Path(sys.argv[4]), int(sys.argv[5]), sys.argv[6].split(","))
        return
    if sys.argv[1:2] == ["--eighth-copy"]:
        gpu = Path(sys.argv[4])
        print(f"The constants committed before the call (fitted on the H200), only the copy replaced: "
              f"{copy_bps(gpu) / 1e12:.3f} TB/s measured in this call (the H200's: {F.DRAM_BPS / 1e12:.2f}).\n")
        eighth(sys.argv[2], sys.argv[3], gpu, recomputed8(sys.argv[2], sys.argv[3], copy_bps(gpu)))
        return
    table = read_table(sys.argv[1])
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    emu_dirs = [str(I.E), f"{I.E}-code-37b7f20", f"{I.E}-code-1a8afa9"]
    five = attach(I.load(I.SOURCES[:5]), table, emu_dirs)
    sixth = attach(I.load(I.SOURCES[5:]), table, emu_dirs)
    seventh, copy7 = seventh_points(table), copy_bps(H100)
    print(f"seventh check: {len(seventh)} points, copy {copy7 / 1e12:.3f} TB/s")
    print(f"{'candidate':28} {'fit':4} {'five (556)':>15} {'sixth (227)':>15} {'all (783)':>15} {'rank6':>11} "
          f"{'H100 (249)':>15} {'rank7':>11}  constants")
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else list(CANDIDATES)
    for name, (terms, extra, w0) in CANDIDATES.items():
        if name not in only:
            continue
        for label, train in (("556", five), ("783", five + sixth)):
            c, score, ranking, _ = I.fit(terms, extra, w0, train, iters)
            cells = [score(p) for p in (five, sixth, five + sixth)]
            r6 = ranking(sixth)
            s7, r7 = score(seventh, copy7), ranking(seventh, copy7)
            print(f"{name:28} {label:4} " + " ".join(f"{w:>5} rms {r:.3f}" for w, r in cells) +
                  f" {r6[0]:>5}/{r6[1]:<5} {s7[0]:>5} rms {s7[1]:.3f} {r7[0]:>5}/{r7[1]:<5}  " +
                  ", ".join(f"{v:.3g}" for v in c), flush=True)


if __name__ == "__main__":
    main()
