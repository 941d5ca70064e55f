#!/usr/bin/env bash
# The final verification call: the whole grader on the GPU with the sandbox, then its fallback without namespaces.
set -uo pipefail
export OUT
KNOWN_ONLY=1 SKIP=bench KNOWN_DEADLINE_S=390 bash scripts/gpu-verify.sh 16 .deps/final.txt > $OUT/console.txt 2>&1
export PATH=/tmp/deps/usr/bin:$PATH LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
{
  echo "=== solutions on gpu without namespaces (WORKBOOK_SANDBOX=none: seccomp, Landlock, no capabilities, limits)"
  WORKBOOK_SANDBOX=none timeout 120 build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 2>&1 \
    | grep -E "^Sandbox|^(PASSED|NOT PASSED)|passed|✗" | head -20
  echo "=== the GPU probe under the worker's filter, without and with namespaces"
  nvcc -arch=sm_90 -o /root/probe grader/harness/selftest/gpu_sandbox_probe.cu
  for m in none bwrap; do build/grader/harness/wb-sandbox-run --backend gpu --mode $m -- /root/probe 2>&1; done
} > $OUT/fallback.txt 2>&1
cat $OUT/summary.txt; cat $OUT/fallback.txt | head -30
