# Run 17 (python3 THIS DIR, DIR the unpacked …-run17-diag12.tgz): each variant's per-launch time against old-1 at every shape of --quick (bf16 norm), reference and per-shape copy.
import csv, statistics as st, sys, os
d = sys.argv[1]
def load(n):
    return {(r['kernel'], int(r['M']), int(r['N'])): float(r['median_us']) for r in csv.DictReader(open(os.path.join(d, n + '.csv'))) if r['status'] == 'ok' and r['op'] == 'rmsnorm'}
base = load('old-1')
print('shapes', sorted({(m, n) for k, m, n in base}))
for v in ['old-1', 'new-1', 'nomem-1', 'nocheck-1', 'norow-1', 'old-2', 'new-2']:
    x = load(v)
    for k in ('reference', 'copy'):
        ds = [x[(k, m, n)] - base[(k, m, n)] for (kk, m, n) in base if kk == k and m == 512 and (k, m, n) in x]
        lg = [x[(k, m, n)] / base[(k, m, n)] - 1 for (kk, m, n) in base if kk == k and m != 512 and (k, m, n) in x]
        print(f"{v:10s} {k:9s} 512xN: median {st.median(ds):+.3f} us ({min(ds):+.3f}..{max(ds):+.3f}, {len(ds)})  large {min(lg)*100:+.1f}..{max(lg)*100:+.1f} % ({len(lg)})  512x128 {x[(k,512,128)]:.3f}")
