#!/usr/bin/env bash
# `make bench-04 [EX=name]`: builds and times lesson 04's kernels on this machine's GPU.
#
#   benchmarks/04-rmsnorm/bench.sh [--ex NAME] [--out DIR] [--tune] [--quick] [--no-peers] [--replays N]
#       [--build-only | --no-build]   (build and stop / time what an earlier --build-only left in DIR)
#
# Builds, with nvcc for sm_90 (BENCH_ARCH to change it), the student's kernels from exercises/04-rmsnorm/ (only NAME
# with --ex), every solution kernel of solutions/04-rmsnorm/ (where the checkout has them), the reference kernels of
# benchmarks/04-rmsnorm/kernels/ and the driver of benchmarks/04-rmsnorm/bench/. An exercise that does not compile
# (blanks still open) is named and left out. With PyTorch and Triton importable, peers.py times
# torch.nn.functional.rms_norm and a Triton one-step kernel (and their fused-add counterparts) first, the same way.
# Then every kernel is checked against an fp64 reference, timed, and written to DIR (default build/bench-04):
# bench-04.csv, bench-04.svg, peers.csv, build.log; the table goes to the terminal.
# Without a GPU it says so and exits 0: timings need one.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=1 build_only="" ex="" out="$root/${BUILD:-build}/bench-04" tune="" quick="" peers=1 replays=20
while [ $# -gt 0 ]; do
  case "$1" in
    --ex) ex=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --tune) tune=--tune; shift ;;
    --quick) quick=--quick; shift ;;
    --no-peers) peers=0; shift ;;
    --replays) replays=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --no-build) build=0; shift ;;
    *) echo "bench-04: unknown option $1" >&2; exit 2 ;;
  esac
done

if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "bench-04: timings need a GPU, and this machine has none (nvidia-smi lists no GPU). Nothing was timed."
  echo "          Run 'make bench-04' where CUDA and a GPU are; 'make grade-04' checks correctness without one."
  exit 0
fi
if ! command -v nvcc >/dev/null; then
  echo "bench-04: this machine has a GPU but no nvcc on PATH; the kernels cannot be built." >&2
  exit 2
fi

exercises=(rmsnorm rmsnorm_fast rmsnorm_half rmsnorm_vec fused_add_rmsnorm rmsnorm_bf16_fast)
entries=(launch_rmsnorm launch_rmsnorm_fast launch_rmsnorm_bf16 launch_rmsnorm_fp16 launch_rmsnorm_vec
         launch_fused_add_rmsnorm launch_rmsnorm_bf16_fast)
if [ -n "$ex" ]; then
  case " ${exercises[*]} " in
    *" $ex "*) ;;
    *) echo "bench-04: no timed exercise '$ex' (timed: ${exercises[*]})" >&2; exit 2 ;;
  esac
fi

if [ "$build" = 1 ]; then
mkdir -p "$out/obj"
log="$out/build.log"
arch=${BENCH_ARCH:-sm_90}
nvcc_flags=(-std=c++17 -O3 -arch="$arch" -lineinfo)

# compile SRC OBJ [defines...]: in the background (the files are independent); the compiler's messages go to
# OBJ.log, and OBJ.ok marks success. wait_all then folds the logs into build.log.
jobs_max=$(nproc 2>/dev/null || echo 2)
compile() {
  local src=$1 obj=$2; shift 2
  # No more compilers at once than cores: nvcc takes a few hundred MB each.
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  rm -f "$obj.ok"
  { echo "== nvcc $src"; nvcc "${nvcc_flags[@]}" "$@" -c "$src" -o "$obj" 2>&1 && touch "$obj.ok"; } > "$obj.log" &
}
# The exercises' entry points renamed for one edition, so that student and solution kernels link side by side.
renames() { local p=$1 e; for e in "${entries[@]}"; do printf -- '-D%s=%s%s ' "$e" "$p" "$e"; done; }

echo "bench-04: building the kernels (log: $log)"
own=() solution=() student=()
for f in kernels/rmsnorm.cu kernels/fused_add_rmsnorm.cu bench/suite.cu bench/check.cu bench/device_data.cu bench/timing.cu \
         bench/report.cpp bench/bench.cu; do
  obj="$out/obj/$(echo "$f" | tr / _).o"
  compile "$here/$f" "$obj"
  own+=("$f:$obj")
done
if [ -d "$root/solutions/04-rmsnorm" ]; then
  for e in "${exercises[@]}"; do
    # shellcheck disable=SC2046
    compile "$root/solutions/04-rmsnorm/$e.cu" "$out/obj/solution_$e.o" $(renames solution_)
    solution+=("$e")
  done
fi
for e in "${exercises[@]}"; do
  [ -n "$ex" ] && [ "$e" != "$ex" ] && continue
  [ -f "$root/exercises/04-rmsnorm/$e.cu" ] || continue
  # shellcheck disable=SC2046
  compile "$root/exercises/04-rmsnorm/$e.cu" "$out/obj/student_$e.o" $(renames student_)
  student+=("$e")
done
wait
cat "$out"/obj/*.log > "$log"

objs=() not_built=()
for pair in "${own[@]}"; do
  f=${pair%%:*} obj=${pair#*:}
  [ -e "$obj.ok" ] || { echo "bench-04: $f does not compile (see $log)" >&2; exit 2; }
  objs+=("$obj")
done
for e in "${solution[@]}"; do
  [ -e "$out/obj/solution_$e.o.ok" ] || { echo "bench-04: solution $e does not compile (see $log)" >&2; exit 2; }
  objs+=("$out/obj/solution_$e.o")
done
for e in "${student[@]}"; do
  if [ -e "$out/obj/student_$e.o.ok" ]; then objs+=("$out/obj/student_$e.o"); else not_built+=("$e"); fi
done
for e in "${not_built[@]}"; do echo "bench-04: your $e does not compile yet (blanks open?): not timed"; done
echo "== link" >> "$log"
if ! nvcc "${nvcc_flags[@]}" -o "$out/bench" "${objs[@]}" >> "$log" 2>&1; then
  echo "bench-04: linking failed (see $log)" >&2
  exit 2
fi
  printf "%s\n" "${not_built[@]}" > "$out/not-built"
else
  # --no-build: the driver and the list of exercises that did not compile, as --build-only left them.
  [ -x "$out/bench" ] || { echo "bench-04: --no-build, but $out/bench does not exist" >&2; exit 2; }
  log="$out/build.log" not_built=()
  while read -r e; do [ -n "$e" ] && not_built+=("$e"); done < "$out/not-built"
fi
[ -n "$build_only" ] && exit 0

peer_args=()
if [ "$peers" = 1 ]; then
  if python3 -c 'import torch, triton; assert torch.cuda.is_available()' 2>/dev/null; then
    echo "bench-04: timing torch and Triton (peers.py)"
    # shellcheck disable=SC2086
    if python3 "$here/peers.py" --csv "$out/peers.csv" --replays "$replays" $quick; then
      peer_args=(--peers "$out/peers.csv")
    else
      echo "bench-04: peers.py failed; the table has no torch/Triton columns"
    fi
  else
    echo "bench-04: no PyTorch with Triton and CUDA here; the table has no torch/Triton columns (optional)"
  fi
fi

# A student kernel that breaks the CUDA context (an illegal address, say) takes the process with it: run again
# without it, and say so.
excluded=()
for attempt in 1 2 3 4 5 6; do
  args=(--csv "$out/bench-04.csv" --svg "$out/bench-04.svg" --crash-file "$out/crashed" --date "$(date -u +%F)"
        --replays "$replays" "${peer_args[@]}")
  [ -n "$tune" ] && args+=("$tune")
  [ -n "$quick" ] && args+=("$quick")
  for e in "${excluded[@]}"; do args+=(--exclude "$e"); done
  for e in "${not_built[@]}"; do args+=(--not-built "$e"); done
  rm -f "$out/crashed"
  "$out/bench" "${args[@]}"
  rc=$?
  if [ $rc -eq 3 ] && [ -s "$out/crashed" ]; then
    name=$(head -n1 "$out/crashed")
    echo "bench-04: your $name broke the CUDA context; it is not timed. Measuring the rest again without it."
    excluded+=("$name")
    continue
  fi
  exit $rc
done
exit 1
