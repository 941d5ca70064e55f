#!/usr/bin/env bash
# Probe: does compute-sanitizer run a program inside the worker's sandbox (bubblewrap + seccomp, wrapper mode)?
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/gpu/unpack-deps.sh
o=${OUT:-/tmp/out}; mkdir -p "$o"
{
which compute-sanitizer; compute-sanitizer --version | tail -2
nvcc -arch=sm_90 -lineinfo -o /tmp/planted .gpu-lead/planted.cu
cmake -S . -B build -DCMAKE_PREFIX_PATH=/tmp/deps/usr > /tmp/cfg.log 2>&1 || tail -20 /tmp/cfg.log
cmake --build build -j16 --target wb-sandbox-run > /tmp/b.log 2>&1 || tail -20 /tmp/b.log
R=build/grader/harness/wb-sandbox-run
ENVS="PATH=$PATH LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
echo "== plain"; compute-sanitizer --tool memcheck /tmp/planted oob 2>&1 | tail -8
for t in memcheck racecheck; do
  w=(--wrapper compute-sanitizer --wrapper --tool --wrapper $t --wrapper --print-limit --wrapper 5 --wrapper --show-backtrace --wrapper no)
  case $t in memcheck) arg=oob;; racecheck) arg=race;; esac
  echo "== sandboxed $t $arg"; timeout 120 $R --backend gpu --mode bwrap "${w[@]}" -- /tmp/planted $arg > /tmp/sb_$t.txt 2>&1; tail -14 /tmp/sb_$t.txt
done
w=(--wrapper compute-sanitizer --wrapper --tool --wrapper memcheck)
echo "== sandboxed clean"; timeout 120 $R --backend gpu --mode bwrap "${w[@]}" -- /tmp/planted clean 2>&1 | tail -5
if grep -q "ERROR SUMMARY: [1-9]" /tmp/sb_memcheck.txt; then echo "== sandboxed memcheck reported: no allow loop"; exit 0; fi
echo "== sandboxed, trap"; timeout 120 $R --backend gpu --mode bwrap --trap "${w[@]}" -- /tmp/planted oob 2>&1 | tail -5
for extra in ptrace process_vm_readv perf_event_open bpf memfd_create mount unshare keyctl pidfd_open io_uring_setup tkill; do
  echo "== allow $extra"; timeout 60 $R --backend gpu --mode bwrap --allow $extra "${w[@]}" -- /tmp/planted oob 2>&1 | tail -3
done
} > >(tee "$o/probe.txt") 2>&1
