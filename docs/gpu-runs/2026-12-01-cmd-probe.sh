#!/usr/bin/env bash
# Which layer of the worker's sandbox keeps the CUDA driver from allocating? (one call on the GPU machine)
mkdir -p /tmp/deps; for f in .deps/*.deb; do dpkg -x "$f" /tmp/deps; done
export PATH=/tmp/deps/usr/bin:$PATH LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
cmake -S . -B build -DCMAKE_PREFIX_PATH=/tmp/deps/usr > /tmp/cfg.log 2>&1 || tail -5 /tmp/cfg.log
cmake --build build --target wb-sandbox-run -j16 > /tmp/b.log 2>&1 || tail -20 /tmp/b.log
nvcc -arch=sm_90 -o /root/probe grader/harness/selftest/gpu_sandbox_probe.cu
R=build/grader/harness/wb-sandbox-run
devs=(); for d in /dev/nvidia*; do devs+=(--dev-bind "$d" "$d"); done
try() { echo "=== $*"; timeout 60 "$@" 2>&1 | sort | uniq -c | sort -rn | head -20; }
ls -la /dev/nvidia* /dev/shm; ulimit -a | head -20; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; ls /usr/local/nvidia 2>&1 | head
try /root/probe
try $R --backend gpu --mode none --trap -- /root/probe
try $R --backend gpu --mode bwrap --trap -- /root/probe
try bwrap --ro-bind / / --dev /dev "${devs[@]}" --proc /proc --tmpfs /tmp /root/probe
try bwrap --unshare-pid --ro-bind / / --dev /dev "${devs[@]}" --proc /proc --tmpfs /tmp /root/probe
try bwrap --unshare-user --ro-bind / / --dev /dev "${devs[@]}" --proc /proc --tmpfs /tmp /root/probe
try bwrap --unshare-ipc --unshare-net --unshare-uts --ro-bind / / --dev /dev "${devs[@]}" --proc /proc --tmpfs /tmp /root/probe
try bwrap --cap-drop ALL --ro-bind / / --dev /dev "${devs[@]}" --proc /proc --tmpfs /tmp /root/probe
try bwrap --ro-bind / / --dev-bind /dev /dev --proc /proc --tmpfs /tmp /root/probe
try bwrap --unshare-all --ro-bind / / --dev-bind /dev /dev --proc /proc --tmpfs /tmp /root/probe
try bwrap --ro-bind / / --dev /dev "${devs[@]}" --proc /proc --tmpfs /tmp --tmpfs /dev/shm /root/probe
