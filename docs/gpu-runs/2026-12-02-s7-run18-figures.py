# Figures of docs/performance.md and docs/gpu-runs.md from a bench-04 CSV (run 18), with another run's CSV (run 13 or 16)
# for the per-launch change: python3 THIS run18.csv.gz [other.csv.gz]
import csv, gzip, sys, statistics as st
def load(p):
    f = gzip.open(p, 'rt') if p.endswith('.gz') else open(p)
    return [r for r in csv.DictReader(f) if r['status'] == 'ok']
rows = load(sys.argv[1])
old = load(sys.argv[2]) if len(sys.argv) > 2 else []
roof = [r for r in rows if r['source'] == 'roofline'][0]
R = float(roof['tb_per_s'])
print('copies:', [(r['kernel'], r['source'], r['tb_per_s'], r['median_us']) for r in rows if r['op'] == 'copy'])
groups = [('rmsnorm', 'fp32'), ('rmsnorm', 'bf16'), ('rmsnorm', 'fp16'), ('fused_add_rmsnorm', 'bf16'), ('fused_add_rmsnorm', 'fp32')]
large = [(16384, 1024), (16384, 4096), (16384, 8192), (8192, 16384), (4096, 5120)]
def key(r): return (r['op'], r['dtype'], int(r['M']), int(r['N']))
idx = {}
for r in rows:
    idx.setdefault(key(r), {})
    idx[key(r)].setdefault(r['kernel'], []).append(r)
for op, dt in groups:
    tr = 'triton one-step' if op == 'rmsnorm' else 'triton fused one-step'
    to = 'torch.rms_norm' if op == 'rmsnorm' else 'torch add + rms_norm'
    target = 0.95 if op == 'rmsnorm' else 0.93
    print(f'\n## {op} {dt}')
    met = 0
    for M, N in large:
        d = idx[(op, dt, M, N)]
        refs = d['reference']
        ref = refs[0]
        t = float(ref['median_us']); b = int(ref['bytes'])
        tt = float(d[tr][0]['median_us']); tq = float(d[to][0]['median_us'])
        cp = d.get('copy', [{}])[0].get('tb_per_s', '')
        sols = ', '.join(f"{k} {float(v[0]['tb_per_s']):.2f}" for k, v in sorted(d.items()) if v[0]['source'] == 'solution')
        pct = b / t / 1e6 / R * 100
        need = b / (target * R * 1e6)
        ok = pct >= target * 100; met += ok
        print(f"{M}x{N} refrows={len(refs)} shape={ref['shape']} ref={float(ref['tb_per_s']):.2f} ({pct:.1f}%) us={t:.2f} "
              f"over_target_us={t-need:+.2f} of={need:.2f} copy={float(cp) if cp else 0:.2f} torch={float(d[to][0]['tb_per_s']):.2f} "
              f"triton={float(d[tr][0]['tb_per_s']):.2f} ({tt/t:.3f}) | {sols}")
    print('met', met, 'of 5')
    trr, tqr, both, lost = [], [], 0, []
    all69 = 0; minm = (9, None)
    for (o, dd, M, N), d in idx.items():
        if (o, dd) != (op, dt): continue
        t = float(d['reference'][0]['median_us'])
        a = float(d[tr][0]['median_us']) / t; q = float(d[to][0]['median_us']) / t
        if a > 1 and q > 1: all69 += 1
        else: lost.append((M, N, round(a, 3), round(q, 3)))
        m = min(a, q)
        if m < minm[0]: minm = (m, (M, N))
        if M == 512:
            trr.append(a); tqr.append(q); both += (a > 1 and q > 1)
    print(f"sweep {len(trr)} sizes: triton/ref {min(trr):.3f}-{max(trr):.3f} torch/ref {min(tqr):.3f}-{max(tqr):.3f} both {both}; all {all69}; smallest margin {minm}; lost {lost}")
    # 512 x N per-launch change against the other run, reference and per-shape copy
    if old:
        oi = {}
        for r in old: oi.setdefault((key(r), r['kernel']), r)
        for k in ('reference', 'copy', tr, to):
            ds = [];
            for (o, dd, M, N), d in idx.items():
                if (o, dd) != (op, dt) or M != 512 or k not in d: continue
                r0 = oi.get(((o, dd, M, N), k))
                if r0: ds.append(float(d[k][0]['median_us']) - float(r0['median_us']))
            if ds: print(f"  vs other run {k}: median {st.median(ds):+.3f} us, {min(ds):+.3f} .. {max(ds):+.3f} ({len(ds)})")
        # ratio at large shapes
        rs = []
        for M, N in large:
            r0 = oi.get(((op, dt, M, N), 'reference'))
            if r0: rs.append(float(idx[(op, dt, M, N)]['reference'][0]['median_us']) / float(r0['median_us']) - 1)
        if rs: print(f"  large: time vs other run {min(rs)*100:+.1f} .. {max(rs)*100:+.1f} %")
