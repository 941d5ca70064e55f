# Every figure the write-up of run 20 quotes (H100 80GB HBM3, 2026-12-07, h-layernorm8's gpu-session8.sh), computed
# from the run's own files: python3 THIS docs/gpu-runs/2026-12-07-s8-run20-results.tgz
# Sections: A large shapes; B the 512 x N sweep; C profile_one old vs new; D Nsight Compute; E registers (L1);
# F the tuning sweep (L7, the 16-bit rule, fp32 where Triton is ahead).
import csv, io, re, statistics, sys, tarfile

tar = tarfile.open(sys.argv[1])
def text(name):
    return tar.extractfile('./' + name).read().decode()
def rows(name):
    return [r for r in csv.DictReader(io.StringIO(text(name))) if r['status'] == 'ok']

bench, tune = rows('bench-05.csv'), rows('tune.csv')
roof = [r for r in bench if r['source'] == 'roofline'][0]
R = int(roof['bytes']) / float(roof['median_us']) / 1e6
print(f"roofline {roof['kernel']} {R:.4f} TB/s ({roof['device']})")
def index(rs):
    d = {}
    for r in rs:
        if r['op'] != 'copy': d.setdefault((r['op'], r['dtype'], int(r['M']), int(r['N'])), {}).setdefault(r['kernel'], r)
    return d
I = index(bench)
groups = [('layernorm', 'fp32'), ('layernorm', 'bf16'), ('layernorm', 'fp16'), ('fused_add_layernorm', 'bf16')]
large = [(16384, 1024), (16384, 4096), (16384, 8192), (8192, 16384), (4096, 5120)]
def peers(op):
    return (('triton one-step', 'torch.layer_norm') if op == 'layernorm' else
            ('triton fused one-step', 'torch add + layer_norm'))
us = lambda r: float(r['median_us'])
tbs = lambda r: int(r['bytes']) / us(r) / 1e6

print('\n## A. large shapes: TB/s (% of roofline); Triton / torch; Triton time / reference time')
for op, dt in groups:
    tr, to = peers(op)
    cells, pcells, n_ahead = [], [], 0
    for M, N in large:
        d = I[(op, dt, M, N)]; ref = d['reference']
        cells.append(f"{tbs(ref):.2f} ({tbs(ref) / R * 100:.0f}%) {ref['shape']}")
        pcells.append(f"{tbs(d[tr]):.2f} / {tbs(d[to]):.2f} ({us(d[tr]) / us(ref):.3f})")
        n_ahead += us(ref) < min(us(d[tr]), us(d[to]))
    print(f"{op} {dt} reference: " + ' | '.join(cells))
    print(f"{op} {dt} Triton / torch: " + ' | '.join(pcells) + f"; reference ahead of both at {n_ahead} of 5")

print('\n## B. 512 x N: Triton time / reference time, torch likewise; sizes where the reference is ahead of both')
for op, dt in groups:
    tr, to = peers(op)
    qt, qo, both, behind = [], [], 0, []
    for (o, dd, M, N), d in sorted(I.items()):
        if (o, dd) != (op, dt) or M != 512: continue
        ref = d['reference']; a, b = us(d[tr]) / us(ref), us(d[to]) / us(ref)
        qt.append(a); qo.append(b); both += a > 1 and b > 1
        if a <= 1: behind.append(f"{N} {a:.3f} ({ref['shape']}, {us(ref):.2f} vs {us(d[tr]):.2f} us)")
    print(f"{op} {dt}: Triton {min(qt):.2f}-{max(qt):.2f}, torch {min(qo):.2f}-{max(qo):.2f}; ahead of both at "
          f"{both} of {len(qt)}; Triton ahead or level at {len(behind)}: " + '; '.join(behind))
for dt in ('bf16', 'fp16'):
    g = lambda N, k: us(I[('layernorm', dt, 512, N)][k])
    print(f"{dt} step 4096 -> 4608: reference {g(4096, 'reference'):.2f} -> {g(4608, 'reference'):.2f} us "
          f"({g(4608, 'reference') / g(4096, 'reference'):.3f}x), copy {g(4096, 'copy'):.2f} -> {g(4608, 'copy'):.2f} "
          f"({g(4608, 'copy') / g(4096, 'copy'):.3f}x)")

print('\n## C. profile_one: median of launches 2-6 (the first wakes the clocks), old build then new')
po = {}
for line in text('profile-one.txt').splitlines():
    m = re.match(r'profile_one: (\S+) (\d+) x (\d+) rule \((\S+)\), \d+ launches; us \(TB/s\): (.*)', line)
    if not m: continue
    t = [float(x) for x in re.findall(r'([\d.]+) \(', m.group(5))][1:]
    key = (m.group(1), int(m.group(2)), int(m.group(3)))
    po.setdefault(key, []).append((m.group(4), statistics.median(t)))
for key, runs in po.items():
    (so, to_), (sn, tn) = runs
    print(f"{key[0]} {key[1]} x {key[2]}: old {so} {to_:.2f} us, new {sn} {tn:.2f} us: new/old speed {to_ / tn:.3f}x")

print('\n## D. Nsight Compute, bf16 16384 x 4096, the rule\'s kernel (old, new)')
wanted = ['DRAM Throughput', 'Duration', 'Memory Throughput', 'Registers Per Thread', 'Achieved Occupancy',
          'Theoretical Occupancy', 'Block Limit Registers', 'Issued Warp Per Scheduler', 'No Eligible',
          'Eligible Warps Per Scheduler', 'Active Warps Per Scheduler', 'Warp Cycles Per Issued Instruction',
          'Block Size', 'Grid Size']
for v in ('old', 'new'):
    t = text(f'ncu-{v}.txt')
    k = re.search(r'(layernorm\w*_kernel<[^>]*>).*?\((\d+), 1, 1\)x\((\d+), 1, 1\)', t)
    print(f"{v}: {k.group(1)} grid {k.group(2)} block {k.group(3)}" if k else f"{v}: ?")
    for w in wanted:
        for m in re.finditer(r'^\s+' + re.escape(w) + r'\s+(\S+)\s+([\d.,]+)\s*$', t, re.M):
            print(f"  {w} {m.group(2)} {m.group(1)}")

print('\n## E. registers (cuobjdump -res-usage): the instances L1 names')
def regs(v, pat):
    t = text(f'res-usage-{v}.txt')
    out = []
    for m in re.finditer(r'Function (\S+):\n\s*REG:(\d+) STACK:(\d+) SHARED:\d+ LOCAL:(\d+)', t):
        if re.search(pat, m.group(1)): out.append((m.group(1), m.group(2), m.group(3), m.group(4)))
    return out
for v, pat in (('old', r'layernorm_regs_kernelI13__nv_bfloat16Li0ELi2ELb0ELb0ELb1EE'),
               ('new', r'layernorm_regs_kernelI13__nv_bfloat16Li0ELi2ELb0ELb0ELb1ELb0EE'),
               ('old', r'layernorm_regs_kernelI13__nv_bfloat16Li0ELi1ELb0ELb0ELb1EE'),
               ('new', r'layernorm_regs_kernelIfLi0ELi4ELb0ELb0ELb1ELb0EE'),
               ('old', r'layernorm_regs_kernelIfLi0ELi4ELb0ELb0ELb1EE')):
    for f, reg, stack, local in regs(v, pat):
        print(f"{v} {f[:90]}: REG {reg} STACK {stack} LOCAL {local}")
for v in ('old', 'new'):
    t = text(f'res-usage-{v}.txt')
    n = len(re.findall(r'Function \S+:', t))
    spill = len(re.findall(r'LOCAL:[1-9]', t))
    print(f"{v}: {n} functions, {spill} with local memory")

print('\n## F. tuning sweep (--quick, 10 replays): per shape, the fastest variant, the rule\'s, the best block x1')
T = index(tune)
def variants(d):
    return {r['shape']: us(r) for k, r in d.items() if r['source'] == 'tune'}
for op, dt in groups:
    for (o, dd, M, N), d in sorted(T.items()):
        if (o, dd) != (op, dt) or (M, N) not in large and M != 512: continue
        v = variants(d)
        if not v or 'reference' not in d: continue
        best = min(v, key=v.get); rs = d['reference']['shape']; rt = us(d['reference'])
        x1 = {s: t for s, t in v.items() if re.match(r'(block\d+|lanes\d+)x1\b', s)}
        b1 = min(x1, key=x1.get) if x1 else None
        line = (f"{op} {dt} {M} x {N}: best {best} {v[best]:.2f} us; rule {rs} {v.get(rs, rt):.2f} "
                f"({v.get(rs, rt) / v[best]:.3f} of best)")
        if b1: line += f"; best x1 {b1} {x1[b1] / v[best]:.3f}"
        if op == 'layernorm' and dt == 'fp32' and M == 512 and (512, N) and ('layernorm', 'fp32', 512, N) in I:
            e = I[('layernorm', 'fp32', 512, N)]
            line += f"; bench: Triton / reference {us(e['triton one-step']) / us(e['reference']):.3f}"
        print(line)

print('\n## G. the 16-bit rule\'s 2-pack entry with and without streaming (+cs): per shape time / the best shape\'s, and'
      ' the geometric mean over the quick shapes that take that entry (N > 4096 at 512 rows; every N at 16384, 8192, 4096)')
def fewest(v, packs, suffix):
    c = [s for s in v if re.fullmatch(r'block(\d+)x%d%s' % (packs, re.escape(suffix)), s)]
    return min(c, key=lambda s: int(re.match(r'block(\d+)', s).group(1))) if c else None
for op, dt in groups[1:]:
    g = {'+w-late': [], '+w-late+cs': []}
    cells = []
    for (o, dd, M, N), d in sorted(T.items()):
        if (o, dd) != (op, dt) or (M <= 2048 and N <= 4096): continue
        v = variants(d); b = min(v.values())
        q = {sfx: v[fewest(v, 2, sfx)] / b for sfx in g}
        for sfx in g: g[sfx].append(q[sfx])
        cells.append(f"{M}x{N} {q['+w-late']:.3f}->{q['+w-late+cs']:.3f}")
    gm = {s: statistics.geometric_mean(x) for s, x in g.items()}
    print(f"{op} {dt}: 2 packs late {gm['+w-late']:.4f}, streaming {gm['+w-late+cs']:.4f}; streaming as fast or faster "
          f"at {sum(a >= c for a, c in zip(g['+w-late'], g['+w-late+cs']))} of {len(cells)}: " + ', '.join(cells))

print('\n## H. fp32 at 512 rows where Triton was ahead in the bench: the tune\'s fastest shape against Triton\'s bench time')
for N in (1024, 2048, 2176, 3072):
    v = variants(T[('layernorm', 'fp32', 512, N)]); best = min(v, key=v.get)
    e = I[('layernorm', 'fp32', 512, N)]
    print(f"512 x {N}: rule {e['reference']['shape']} {us(e['reference']):.2f} us (bench), Triton "
          f"{us(e['triton one-step']):.2f} (bench); tune's fastest {best} {v[best]:.2f}: Triton / it "
          f"{us(e['triton one-step']) / v[best]:.3f}")
    base = re.match(r'block\d+x4', e['reference']['shape']).group(0)
    print('  the rule\'s block, 4 packs: ' + ', '.join(f"{sfx or 'early'} {v[base + sfx]:.2f}" for sfx in
                                                       ('+w-late+cap', '+w-late', '', '+cap')))
