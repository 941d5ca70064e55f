#!/usr/bin/env bash
# h-kernels, run 5 (2026-12-01, session 4): the tuning sweep with the new launch shapes (512-thread blocks with part
# of the last packs empty, the 32-register cap, streaming loads and stores), torch and Triton in the same call, and
# what Triton and nvcc generated (registers, SASS instruction counts). Runs from /work/main's copy on the H200 with
# this branch's benchmarks/ and solutions/04-rmsnorm in .gpu-kernels/.
set -uo pipefail
cd .gpu-kernels
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv;
  nvcc --version | tail -2; python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'; } > $OUT/smi.txt 2>&1
timeout 330 benchmarks/04-rmsnorm/bench.sh --tune --out /tmp/b4 > $OUT/bench04-console.txt 2>&1; echo "bench-04 rc $?" >> $OUT/bench04-console.txt
timeout 60 python3 benchmarks/04-rmsnorm/peers.py --dump /tmp/triton > $OUT/triton-kernels.txt 2>&1
{ date -u; nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv; } >> $OUT/smi.txt 2>&1
# SASS: one line per function (instructions, and the counts that matter here), Triton's and ours.
dump=$(command -v cuobjdump || echo "$(python3 -c 'import triton,os;print(os.path.dirname(triton.__file__))')/backends/nvidia/bin/cuobjdump")
for o in /tmp/b4/obj/kernels_rmsnorm.cu.o /tmp/b4/obj/kernels_fused_add_rmsnorm.cu.o; do "$dump" -sass "$o"; done > /tmp/ours.sass 2>&1
cat /tmp/triton/*.sass > /tmp/triton.sass 2>/dev/null
python3 - /tmp/ours.sass /tmp/triton.sass > $OUT/sass-summary.txt 2>&1 <<'PY'
import re, subprocess, sys
ops = ["LDG", "STG", "LDS", "STS", "SHFL", "BAR", "F2FP", "HMUL2", "HFMA2", "FFMA", "FMUL", "FADD", "PRMT", "IMAD", "LOP3", "SHF", "MUFU", "BRA", "ISETP", "LDL", "STL"]
for path in sys.argv[1:]:
    text = open(path).read()
    for part in re.split(r"\n\s*Function : ", text)[1:]:
        name = part.split("\n", 1)[0].strip()
        try:
            name = subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip() or name
        except OSError:
            pass
        ins = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", part)
        counts = {o: sum(1 for i in ins if i == o or i.startswith(o + "_") or i.startswith(o + ".")) for o in ops}
        name = re.sub(r"\(.*", "", re.sub(r"rmsref::\(anonymous namespace\)::", "", name)).replace("__nv_bfloat16", "bf16")
        print(f"{path.split('/')[-1]} {name} total={len(ins)} " + " ".join(f"{o}={c}" for o, c in counts.items() if c))
PY
tar czf $OUT/results.tgz -C /tmp b4/bench-04.csv b4/peers.csv b4/bench-04.svg b4/build.log triton 2>> $OUT/smi.txt
tail -45 $OUT/bench04-console.txt; cat $OUT/triton-kernels.txt | tail -15; grep -c . $OUT/sass-summary.txt
