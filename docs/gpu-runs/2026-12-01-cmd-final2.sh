#!/usr/bin/env bash
# Second verification call: the known answers the first call's deadline left, and the sandbox without namespaces.
set -uo pipefail
export OUT
KNOWN_ONLY=1 SKIP="solutions bench" KNOWN_DEADLINE_S=290 bash scripts/gpu-verify.sh 16 .deps/final2.txt > $OUT/console.txt 2>&1
export PATH=/tmp/deps/usr/bin:$PATH LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
{
  echo "=== the GPU probe under the worker's filter: no namespaces (Landlock), no namespaces without Landlock, bubblewrap"
  nvcc -arch=sm_90 -o /root/probe grader/harness/selftest/gpu_sandbox_probe.cu
  R=build/grader/harness/wb-sandbox-run
  $R --backend gpu --mode none -- /root/probe 2>&1
  $R --backend gpu --mode none --no-landlock -- /root/probe 2>&1
  $R --backend gpu --mode bwrap -- /root/probe 2>&1
  echo "=== solutions on gpu without namespaces (WORKBOOK_SANDBOX=none)"
  WORKBOOK_SANDBOX=none timeout 100 build/grader/cli/workbook grade 04 --solutions --backend gpu --seed 2026 2>&1 \
    | grep -E "^Sandbox|^(PASSED|NOT PASSED)|passed  " | head -20
} > $OUT/fallback.txt 2>&1
cat $OUT/summary.txt; cat $OUT/fallback.txt
