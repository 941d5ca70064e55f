# performance.md's lesson 04 results table and sweep summary from a bench-04 CSV (run 18), run 13's ranges beside:
# python3 THIS run18.csv.gz run13.csv.gz
import csv, gzip, sys
def load(p):
    return [r for r in csv.DictReader(gzip.open(p, 'rt')) if r['status'] == 'ok']
rows = load(sys.argv[1]); r13 = load(sys.argv[2])
def index(rows):
    d = {}
    for r in rows: d.setdefault((r['op'], r['dtype'], int(r['M']), int(r['N'])), {}).setdefault(r['kernel'], r)
    return d
I, J = index(rows), index(r13)
R = [float(r['median_us']) for r in rows if r['source'] == 'roofline'][0]
R = 4294967296 / R / 1e6
groups = [('rmsnorm', 'fp32', 'norm fp32'), ('rmsnorm', 'bf16', 'norm bf16'), ('rmsnorm', 'fp16', 'norm fp16'),
          ('fused_add_rmsnorm', 'bf16', 'fused bf16'), ('fused_add_rmsnorm', 'fp32', 'fused fp32')]
large = [(16384, 1024), (16384, 4096), (16384, 8192), (8192, 16384), (4096, 5120)]
sols = {'fp32': ['rmsnorm', 'rmsnorm_fast'], 'bf16': ['rmsnorm_half', 'rmsnorm_vec', 'rmsnorm_bf16_fast'], 'fp16': ['rmsnorm_half']}
for op, dt, name in groups:
    tr = 'triton one-step' if op == 'rmsnorm' else 'triton fused one-step'
    to = 'torch.rms_norm' if op == 'rmsnorm' else 'torch add + rms_norm'
    tgt = 95 if op == 'rmsnorm' else 93
    for M, N in large:
        d = I[(op, dt, M, N)]; ref = d['reference']
        t = float(ref['median_us']); pct = int(ref['bytes']) / t / 1e6 / R * 100
        cell = f"{float(ref['tb_per_s']):.2f} ({pct:.1f}%)"
        if pct >= tgt: cell = f"**{cell}**"
        cp = f"{float(d['copy']['tb_per_s']):.2f}" if 'copy' in d else ''
        ss = (', '.join(f"{s} {float(d[s]['tb_per_s']):.2f}" for s in sols[dt]) if op == 'rmsnorm' else
              (f"fused_add_rmsnorm {float(d['fused_add_rmsnorm']['tb_per_s']):.2f}" if dt == 'bf16' else '—'))
        print(f"| {name} | {M} × {N} | {ref['shape']} | {cell} | {cp} | {float(d[to]['tb_per_s']):.2f} | "
              f"{float(d[tr]['tb_per_s']):.2f} ({float(d[tr]['median_us'])/t:.3f}) | {ss} |")
print()
for op, dt, name in groups:
    tr = 'triton one-step' if op == 'rmsnorm' else 'triton fused one-step'
    to = 'torch.rms_norm' if op == 'rmsnorm' else 'torch add + rms_norm'
    out = []
    for X in (I, J):
        a, q, both = [], [], 0
        for (o, dd, M, N), d in X.items():
            if (o, dd) != (op, dt) or M != 512 or 'reference' not in d or tr not in d: continue
            t = float(d['reference']['median_us'])
            a.append(float(d[tr]['median_us']) / t); q.append(float(d[to]['median_us']) / t)
            both += a[-1] > 1 and q[-1] > 1
        out.append((min(a), max(a), min(q), max(q), both, len(a)))
    x, y = out
    print(f"| {name} | {x[0]:.2f} – {x[1]:.2f} ({y[0]:.2f} – {y[1]:.2f}) | {x[2]:.2f} – {x[3]:.2f} | **{x[4]} of {x[5]}** ({y[4]} of {y[5]}) |")
