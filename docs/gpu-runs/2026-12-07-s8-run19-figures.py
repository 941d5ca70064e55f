# Every figure of docs/gpu-runs.md's and docs/performance.md's run-19 sections (session 8, one NVIDIA H100 80GB HBM3),
# computed from the committed files beside this script:  python3 THIS docs/gpu-runs/2026-12-07-s8-run19-
# (the argument is the files' common prefix). Nothing here is copied from a console.
import csv, gzip, io, re, statistics as st, sys, tarfile

P = sys.argv[1] if len(sys.argv) > 1 else '2026-12-07-s8-run19-'


def load(name):
    f = gzip.open(P + name, 'rt') if name.endswith('.gz') else open(P + name)
    return [r for r in csv.DictReader(f) if r['status'] == 'ok']


bench, tune = load('bench04.csv.gz'), load('tune.csv.gz')
ab = {v: load(f'ab-{v}.csv.gz') for v in ('nopdl-1', 'pdl-1', 'nopdl-2', 'pdl-2')}
groups = [('rmsnorm', 'fp32'), ('rmsnorm', 'bf16'), ('rmsnorm', 'fp16'), ('fused_add_rmsnorm', 'bf16'),
          ('fused_add_rmsnorm', 'fp32')]
large = [(16384, 1024), (16384, 4096), (16384, 8192), (8192, 16384), (4096, 5120)]
name = {('rmsnorm', 'fp32'): 'norm fp32', ('rmsnorm', 'bf16'): 'norm bf16', ('rmsnorm', 'fp16'): 'norm fp16',
        ('fused_add_rmsnorm', 'bf16'): 'fused bf16', ('fused_add_rmsnorm', 'fp32'): 'fused fp32'}


def us(r): return float(r['median_us'])


def index(rows):
    d = {}
    for r in rows:
        if r['op'] == 'copy': continue
        d.setdefault((r['op'], r['dtype'], int(r['M']), int(r['N'])), []).append(r)
    return d


def roofline(rows):
    return [r for r in rows if r['source'] == 'roofline'][0]


def tbs(r, t=None): return int(r['bytes']) / (t if t is not None else us(r)) / 1e6


def one(rs, kernel, source=None):
    x = [r for r in rs if r['kernel'] == kernel and (source is None or r['source'] == source)]
    return x[0] if x else None


def designs(rs, kind):  # kind: 'plain' (no pair), 'wait' (pair, plain launch), 'pdl'
    out = {}
    for r in rs:
        if r['source'] != 'copy design': continue
        s = r['shape']
        k = 'pdl' if s.endswith('+pdl') else 'wait' if s.endswith('+wait') else 'plain'
        if k == kind: out[re.sub(r'\+(pdl|wait)$', '', s)] = r
    return out


def best_plain(rs):  # the tables' "best copy of the same bytes": plain launches, with or without the pair
    c = list(designs(rs, 'plain').values()) + list(designs(rs, 'wait').values())
    return min(c, key=us)


def best_pdl(rs): return min(designs(rs, 'pdl').values(), key=us)


B = index(bench)
R = tbs(roofline(bench))
print(f"device {bench[0]['device']}; copies at 2 GiB:",
      ', '.join(f"{r['kernel']} {float(r['tb_per_s']):.4f} TB/s ({us(r):.1f} us)" for r in bench if r['op'] == 'copy'))
print(f"roofline {R:.4f} TB/s")

print('\n== 1. Large shapes (bench04.csv, the final run): reference, +pdl, best copies, peers')
counts = {}
for op, dt in groups:
    tgt = 95 if op == 'rmsnorm' else 93
    tr = 'triton one-step' if op == 'rmsnorm' else 'triton fused one-step'
    to = 'torch.rms_norm' if op == 'rmsnorm' else 'torch add + rms_norm'
    print(f'\n-- {name[(op, dt)]} (target {tgt} % of {R:.2f})')
    for M, N in large:
        rs = B[(op, dt, M, N)]
        ref, pdl = one(rs, 'reference'), one(rs, 'reference+pdl')
        bc, bp, gs = best_plain(rs), best_pdl(rs), one(rs, 'copy')
        pct = lambda r: tbs(r) / R * 100
        c = counts.setdefault(name[(op, dt)], [0, 0, 0, 0, 0, []])
        c[0] += pct(ref) >= tgt; c[1] += pct(pdl) >= tgt; c[2] += pct(bc) >= tgt; c[3] += pct(bp) >= tgt; c[4] += 1
        if pct(ref) < tgt: c[5].append((M, N, round(pct(ref), 1), round(pct(bc), 1), round(pct(bp), 1)))
        print(f"{M}x{N} ref {ref['shape']} {us(ref):.3f} us {pct(ref):.1f}% of-best-copy {us(bc) / us(ref) * 100:.1f}% | "
              f"+pdl {us(pdl):.3f} ({us(pdl) - us(ref):+.3f} us) {pct(pdl):.1f}% of-best-pdl-copy {us(bp) / us(pdl) * 100:.1f}% | "
              f"best copy {bc['shape']} {us(bc):.3f} {pct(bc):.1f}% | best pdl copy {bp['shape']} {us(bp):.3f} "
              f"{pct(bp):.1f}% ({us(bp) - us(bc):+.3f} us) | grid-stride copy "
              + (f"{pct(gs):.1f}% ({us(gs) / us(bc) * 100 - 100:+.1f}% slower than best)" if gs else "none") +
              f" | triton {tbs(one(rs, tr)) / R * 100:.1f}% "
              f"torch {tbs(one(rs, to)) / R * 100:.1f}%")
print()
for g, c in counts.items():
    print(f"{g}: reference >= target {c[0]}/{c[4]}, +pdl {c[1]}/{c[4]}, best plain copy {c[2]}/{c[4]}, "
          f"best pdl copy {c[3]}/{c[4]}; misses (M, N, ref %, best plain copy %, best pdl copy %): {c[5]}")
ofb = [us(best_plain(B[(op, dt, M, N)])) / us(one(B[(op, dt, M, N)], 'reference')) for op, dt in groups
       for M, N in large]
ofp = [us(best_pdl(B[(op, dt, M, N)])) / us(one(B[(op, dt, M, N)], 'reference+pdl')) for op, dt in groups
       for M, N in large]
print(f"reference of best plain copy, 25 rows: {min(ofb) * 100:.1f} .. {max(ofb) * 100:.1f} %; "
      f"reference+pdl of best pdl copy: {min(ofp) * 100:.1f} .. {max(ofp) * 100:.1f} %")

print('\n== 2. P1: the copy designs at the 25 large rows (bench04.csv)')
fam = {'2KiB': 0, 'rows': 0}
within, gsl, wpl = [], [], []
for op, dt in groups:
    for M, N in large:
        rs = B[(op, dt, M, N)]
        pl = {**designs(rs, 'plain'), **{k + '+wait': v for k, v in designs(rs, 'wait').items()}}
        b = min(pl.values(), key=us)
        fam['2KiB' if b['shape'].startswith('2KiB') else 'rows'] += 1
        # every row-length design ("rows/") with 1 or 2 words a thread, plain launch: how far behind the fastest
        own = [us(v) / us(b) - 1 for k, v in designs(rs, 'plain').items() if k.startswith('rows/')
               and re.search(r'x[12]$', k)]
        if own: within.append(max(own))  # none where the row needs 4 words a thread (1024 threads at most)
        if one(rs, 'copy'): gsl.append(us(one(rs, 'copy')) / us(b) - 1)
print(f"fastest plain design a 2 KiB-row copy at {fam['2KiB']} of 25, a row-length copy at {fam['rows']}")
print(f"row-length designs of 1-2 words a thread ({len(within)} rows have one), the slowest of them behind the fastest: "
      f"{min(within) * 100:.1f} .. {max(within) * 100:.1f} % (over 1.5 % at {sum(w > 0.015 for w in within)})")
print(f"grid-stride copy (the norm's {len(gsl)} rows) behind the fastest design: {min(gsl) * 100:.1f} .. "
      f"{max(gsl) * 100:.1f} %")

print('\n== 3. P4: the griddepcontrol pair in plain launches')
d = []
for op, dt in groups:
    for M, N in large:
        rs = B[(op, dt, M, N)]
        p, w = designs(rs, 'plain'), designs(rs, 'wait')
        d += [us(w[k]) / us(p[k]) - 1 for k in p if k in w]
print(f"+wait copy against the same design without the pair, {len(d)} pairs at the large rows (bench04.csv): "
      f"median {st.median(d) * 100:+.2f} %, {min(d) * 100:+.2f} .. {max(d) * 100:+.2f} %, "
      f"outside +-0.5 %: {sum(abs(x) > 0.005 for x in d)}")


def ab_ref(rows):
    return {(r['op'], int(r['M']), int(r['N'])): us(r) for r in rows if r['kernel'] == 'reference'}


A1, B1, A2, B2 = (ab_ref(ab[v]) for v in ('nopdl-1', 'pdl-1', 'nopdl-2', 'pdl-2'))
for op in ('rmsnorm', 'fused_add_rmsnorm'):
    keys = sorted(k for k in A1 if k[0] == op)
    lk = [k for k in keys if (k[1], k[2]) in large]
    sk = [k for k in keys if k[1] == 512]
    a = lambda X, k: (X[k] if k in X else float('nan'))
    rel = [((B1[k] + B2[k]) / (A1[k] + A2[k]) - 1) * 100 for k in lk]
    print(f"{op} bf16, large: with pair / without (mean of 2 each): " +
          ', '.join(f"{k[1]}x{k[2]} {x:+.2f}%" for k, x in zip(lk, rel)))
    for lab, X, Y in (('B-A', B1, A1), ('B-A 2nd', B2, A2), ('A-A', A2, A1), ('B-B', B2, B1)):
        dl = [(X[k] / Y[k] - 1) * 100 for k in lk]
        ds = [X[k] - Y[k] for k in sk]
        print(f"   {lab}: large {min(dl):+.2f} .. {max(dl):+.2f} %; 512xN ({len(sk)}) median {st.median(ds):+.3f} us, "
              f"{min(ds):+.3f} .. {max(ds):+.3f}")

try:
    tf = tarfile.open(P + 'ptxas-clocks-consoles.tgz')

    def regs(member):
        t = tf.extractfile(member).read().decode()
        out, fn = {}, None
        for line in t.splitlines():
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m: fn = m.group(1)
            m = re.search(r'Used (\d+) registers', line)
            if m and fn: out[fn] = int(m.group(1))
            m = re.search(r'(\d+) bytes spill stores', line)
            if m and fn and int(m.group(1)): out[fn + ' spill'] = int(m.group(1))
        return out

    for f in ('rmsnorm', 'fused_add_rmsnorm'):
        a, b = regs(f'k8/ptxas-{f}.txt'), regs(f'k8/ptxas-nopdl-{f}.txt')
        diff = [(k, b.get(k), a[k]) for k in a if b.get(k) != a[k]]
        up = sum(1 for _, x, y in diff if x is not None and y > x)
        dn = sum(1 for _, x, y in diff if x is not None and y < x)
        print(f"ptxas {f}: {len(a)} entries with the pair, {len(b)} without; differing {len(diff)} "
              f"(more registers with the pair {up}, fewer {dn}, unmatched {sum(1 for _, x, _ in diff if x is None)})")
        for k, x, y in diff:  # the mangled name's kernel and template arguments
            m = re.search(r'(?<=\d)([a-z_]+_kernel)I(.+?)EEv', k)
            short = f"{m.group(1)}<{m.group(2)}>" if m else k
            print(f"   {short}: {x} -> {y} registers")
    clk = tf.extractfile('k8/clocks.csv').read().decode().splitlines()[1:]
    smp = [(l.split(',')[0].split()[1], int(l.split(',')[2].split()[0])) for l in clk if 'MHz' in l]
    mem = sorted(set(int(l.split(',')[3].split()[0]) for l in clk if 'MHz' in l))
    spans = []
    for t, f in smp:
        if spans and spans[-1][2] == f: spans[-1][1], spans[-1][3] = t, spans[-1][3] + 1
        else: spans.append([t, t, f, 1])
    print(f"clocks: {len(smp)} samples every 500 ms; SM clock spans: " +
          '; '.join(f"{a}-{b} {f} MHz ({n})" for a, b, f, n in spans) + f"; memory {mem} MHz")
except FileNotFoundError:
    print('(no ptxas/clocks archive beside this script)')

print('\n== 4. P5: programmatic dependent launch (bench04.csv)')
dref, dcp = [], []
for op, dt in groups:
    for M, N in large:
        rs = B[(op, dt, M, N)]
        dref.append(us(one(rs, 'reference+pdl')) - us(one(rs, 'reference')))
        p, q = designs(rs, 'plain'), designs(rs, 'pdl')
        dcp += [us(q[k]) - us(p[k]) for k in p if k in q]
print(f"reference+pdl - reference, 25 rows: median {st.median(dref):+.3f} us, {min(dref):+.3f} .. {max(dref):+.3f}; "
      f"faster at {sum(x < 0 for x in dref)}, by 0.3-0.5 us at {sum(-0.5 <= x <= -0.3 for x in dref)}")
dr = [a - b for a, b in zip(ofp, ofb)]
print(f"(reference+pdl of best pdl copy) - (reference of best plain copy): {min(dr) * 100:+.1f} .. {max(dr) * 100:+.1f} "
      f"points")
print(f"pdl copy - plain copy, same design, {len(dcp)} pairs: median {st.median(dcp):+.3f} us, "
      f"{min(dcp):+.3f} .. {max(dcp):+.3f}")
for op, dt in groups:
    x = [us(one(B[(op, dt, M, N)], 'reference+pdl')) - us(one(B[(op, dt, M, N)], 'reference')) for M, N in large]
    print(f"   {name[(op, dt)]}: " + ', '.join(f'{v:+.3f}' for v in x))

print('\n== 5. P6: the tuning sweep (tune.csv: the committed rule as "reference", every shape as "ref:<shape>")')
T = index(tune)
newshape = {k: one(v, 'reference')['shape'] for k, v in B.items() if (k[2], k[3]) in large}
for op, dt in groups[:4]:
    print(f'-- {name[(op, dt)]}')
    for M, N in large:
        rs = T[(op, dt, M, N)]
        ref = one(rs, 'reference')
        tn = {r['shape']: r for r in rs if r['source'] == 'tune'}
        fast = min(tn.values(), key=us)
        nw = newshape[(op, dt, M, N)]
        nwt = us(tn[nw]) if nw in tn else float('nan')
        crt = us(tn[ref['shape']]) if ref['shape'] in tn else float('nan')
        print(f"{M}x{N} committed {ref['shape']} {us(ref):.3f} us (as tune row {crt:.3f}); fastest {fast['shape']} "
              f"{us(fast):.3f} ({(us(ref) / us(fast) - 1) * 100:+.2f}% committed over fastest); new rule {nw} "
              f"{nwt:.3f} ({(nwt / us(ref) - 1) * 100:+.2f}% against committed) | final run reference "
              f"{us(one(B[(op, dt, M, N)], 'reference')):.3f}")
for dt in ('bf16', 'fp16'):
    rs = T[('rmsnorm', dt, 16384, 4096)]
    tn = {r['shape']: us(r) for r in rs if r['source'] == 'tune'}
    c = us(one(rs, 'reference'))
    cells = []
    for pre in ('block512x1', 'block128x4'):
        for first in (False, True):
            m = {k: v for k, v in tn.items() if k.startswith(pre + '+') or k == pre}
            m = {k: v for k, v in m.items() if ('+first' in k) == first}
            k = min(m, key=m.get)
            cells.append(f"{k} {(m[k] / c - 1) * 100:+.2f}%")
    print(f'{dt} 16384x4096 "more bytes in flight", fastest of each: ' + ', '.join(cells) +
          f" (against the committed shape in the same sweep, {c:.3f} us)")
within = [us(one(T[(op, dt, M, N)], 'reference')) / min(us(r) for r in T[(op, dt, M, N)] if r['source'] == 'tune')
          - 1 for op, dt in groups[:4] for M, N in large]
print(f"committed shape within 0.5 % of the sweep's fastest at {sum(x <= 0.005 for x in within)} of {len(within)}")

print('\n== 5b. The committed (H200) rule on this device: tune.csv\'s "reference" rows (same sweep as its copies)')
RT = tbs(roofline(tune))
for op, dt in groups[:4]:
    tgt = 95 if op == 'rmsnorm' else 93
    cells = []
    for M, N in large:
        rs = T[(op, dt, M, N)]
        ref, bc = one(rs, 'reference'), best_plain(rs)
        cells.append(f"{M}x{N} {tbs(ref) / RT * 100:.1f}% ({us(bc) / us(ref) * 100:.1f}% of best copy)")
    met = sum(tbs(one(T[(op, dt, M, N)], 'reference')) / RT * 100 >= tgt for M, N in large)
    print(f"{name[(op, dt)]}: " + '; '.join(cells) + f"; >= {tgt} % at {met} of 5")

print('\n== 5c. The best plain copy of the same bytes, least squares t = t0 + bytes / rate over the 25 rows')
pts = sorted({(int(best_plain(B[(op, dt, M, N)])['bytes']), us(best_plain(B[(op, dt, M, N)]))) for op, dt in groups
              for M, N in large})
xs, ys = [b for b, _ in pts], [t for _, t in pts]
mx, my = st.mean(xs), st.mean(ys)
slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
print(f"{len(pts)} points: t0 {my - slope * mx:.2f} us, rate {1 / slope / 1e6:.3f} TB/s")

print('\n== 6. P7: 4096 x 5120, block size (threads) against waves (tune.csv, fastest shape of each block size)')
for op, dt in groups[:4]:
    rs = T[(op, dt, 4096, 5120)]
    by = {}
    for r in rs:
        if r['source'] != 'tune': continue
        m = re.match(r'block(\d+)x(\d+)', r['shape'])
        if m: by.setdefault(int(m.group(1)), []).append(r)
    cells = []
    for th, v in sorted(by.items()):
        b = min(v, key=us)
        per_sm = min(2048 // th, 32)  # the thread limit only (registers may lower it)
        waves = 4096 / (132 * per_sm)
        cells.append(f"{th} thr ({per_sm}/SM by threads, {waves:.1f} waves, last {waves % 1 * 100:.0f}% full): "
                     f"{b['shape']} {us(b):.3f}")
    print(f"{name[(op, dt)]}: " + '; '.join(cells))

print('\n== 7. 69 shapes against torch and Triton (bench04.csv); 512 x N sweep ranges (their time / the reference\'s)')
for op, dt in groups:
    tr = 'triton one-step' if op == 'rmsnorm' else 'triton fused one-step'
    to = 'torch.rms_norm' if op == 'rmsnorm' else 'torch add + rms_norm'
    ahead, lost, a512 = 0, [], []
    n = 0
    for (o, dd, M, N), rs in B.items():
        if (o, dd) != (op, dt): continue
        n += 1
        t = us(one(rs, 'reference'))
        a, q = us(one(rs, tr)) / t, us(one(rs, to)) / t
        if a > 1 and q > 1: ahead += 1
        else: lost.append((M, N, round(a, 3), round(q, 3)))
        if M == 512: a512.append(a)
    print(f"{name[(op, dt)]}: ahead of both at {ahead} of {n}; triton/ref over 512xN {min(a512):.3f} .. "
          f"{max(a512):.3f}; not ahead: {lost}")

print("\n== 8. docs/performance.md's run-19 (H100) table")
print('| op, dtype | M × N | shape (the H100\'s rule) | reference, TB/s (% of 3.05; % of best copy) | '
      'committed rule (sweep) | best copy of the same bytes | reference+pdl (% of best PDL copy) | Triton |')
print('| --- | --- | --- | --- | --- | --- | --- | --- |')
for op, dt in groups:
    tgt = 95 if op == 'rmsnorm' else 93
    tr = 'triton one-step' if op == 'rmsnorm' else 'triton fused one-step'
    for M, N in large:
        rs = B[(op, dt, M, N)]
        ref, pdl, bc, bp = one(rs, 'reference'), one(rs, 'reference+pdl'), best_plain(rs), best_pdl(rs)
        pct = tbs(ref) / R * 100
        cell = f"{tbs(ref):.2f} ({pct:.1f}%; {us(bc) / us(ref) * 100:.1f}%)"
        if pct >= tgt: cell = f"**{cell}**"
        if (op, dt, M, N) in T and one(T[(op, dt, M, N)], 'reference'):  # fused fp32: not swept
            c, cc = one(T[(op, dt, M, N)], 'reference'), best_plain(T[(op, dt, M, N)])
            com = f"{tbs(c) / RT * 100:.1f}% ({us(cc) / us(c) * 100:.1f}%)"
        else:
            com = 'the same (not swept)'
        print(f"| {name[(op, dt)]} | {M} × {N} | {ref['shape']} | {cell} | {com} | {tbs(bc) / R * 100:.1f}% "
              f"{bc['shape']} | {tbs(pdl) / R * 100:.1f}% ({us(bp) / us(pdl) * 100:.1f}%) | "
              f"{tbs(one(rs, tr)) / R * 100:.1f}% ({us(one(rs, tr)) / us(ref):.3f}) |")
