#!/usr/bin/env bash
mkdir -p /tmp/deps; for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export PATH=/tmp/deps/usr/bin:$PATH LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
cmake -S . -B build -DCMAKE_PREFIX_PATH=/tmp/deps/usr > /tmp/cfg.log 2>&1 || tail -5 /tmp/cfg.log
cmake --build build --target wb-sandbox-run -j16 > /tmp/b.log 2>&1 || tail -20 /tmp/b.log
nvcc -arch=sm_90 -o /root/probe grader/harness/selftest/gpu_sandbox_probe.cu
R=build/grader/harness/wb-sandbox-run
for mode in bwrap none; do
  echo "=== trap, $mode"; $R --backend gpu --mode $mode --trap -- /root/probe 2>&1 | sort | uniq -c
  echo "=== real filter, $mode"; $R --backend gpu --mode $mode -- /root/probe 2>&1
done
echo "=== + listen, accept"; $R --backend gpu --mode bwrap --allow listen --allow accept --allow accept4 -- /root/probe 2>&1
echo "=== + connect"; $R --backend gpu --mode bwrap --allow connect --allow listen --allow accept --allow accept4 -- /root/probe 2>&1
