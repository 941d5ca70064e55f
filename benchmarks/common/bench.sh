# The driver of every lesson's `make bench-NN [EX=name]`: builds and times the lesson's kernels on this machine's GPU.
# Sourced by benchmarks/<lesson>/bench.sh, which sets first
#   lesson=NN-name       exercises=(the exercises that are timed)   entries=(every entry point of theirs)
#   sources=(the lesson's own files of the driver, relative to its folder: kernels/…, bench/…)
# and takes the options
#   benchmarks/<lesson>/bench.sh [--ex NAME] [--out DIR] [--tune] [--quick] [--no-peers] [--replays N]
#                                [--build-only | --no-build]
# Builds, with nvcc for sm_90 (BENCH_ARCH to change it), the student's kernels from exercises/<lesson>/ (only NAME
# with --ex), every solution kernel of solutions/<lesson>/ (where the checkout has them), the lesson's sources (its
# reference kernels and its half of the driver, bench/) and this folder's half (timing, report, device data, sweep,
# the run's frame, the check's verdict). An exercise that does not compile (blanks still open) is named and left out.
# With PyTorch and Triton importable, the lesson's peers.py times its PyTorch and Triton counterparts first, the same
# way. Then every kernel is checked against an fp64 reference, timed, and written to DIR (default build/bench-NN):
# bench-NN.csv, bench-NN.svg, peers.csv, build.log; the table goes to the terminal. --build-only stops after the
# build; --no-build times what an earlier --build-only left in DIR.
# Without a GPU it says so and exits 0: timings need one.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # benchmarks/<lesson>/, whose bench.sh sourced this file
common=$(cd "$here/../common" && pwd)
root=$(cd "$here/../.." && pwd)
number=${lesson%%-*}
me=bench-$number
build=1 build_only="" ex="" out="$root/${BUILD:-build}/$me" tune="" quick="" peers=1 replays=20
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
    *) echo "$me: unknown option $1" >&2; exit 2 ;;
  esac
done

if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "$me: timings need a GPU, and this machine has none (nvidia-smi lists no GPU). Nothing was timed."
  echo "          Run 'make $me' where CUDA and a GPU are; 'make grade-$number' checks correctness without one."
  # The emulator's profiler counts what a profiler would, and predicts (never measures) an H200 time.
  if [ -f "$root/grader/emulator/profile/lesson${number}_driver.cu" ]; then
    echo "          Without a GPU, 'make profile-$number EX=<exercise>' shows a kernel's memory traffic on the emulator:"
    echo "          sectors per request, DRAM bytes over the minimum, and a predicted (not measured) H200 time."
  fi
  exit 0
fi
if ! command -v nvcc >/dev/null; then
  echo "$me: this machine has a GPU but no nvcc on PATH; the kernels cannot be built." >&2
  exit 2
fi

if [ -n "$ex" ]; then
  case " ${exercises[*]} " in
    *" $ex "*) ;;
    *) echo "$me: no timed exercise '$ex' (timed: ${exercises[*]})" >&2; exit 2 ;;
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

echo "$me: building the kernels (log: $log)"
own=() solution=() student=()
for f in "${sources[@]}"; do
  obj="$out/obj/$(echo "$f" | tr / _).o"
  compile "$here/$f" "$obj"
  own+=("$f:$obj")
done
# What every lesson's driver shares: timing, report, device data, the sweep, the roofline's copies, the run's frame,
# the check's verdict.
for f in copies.cu device_data.cu timing.cu report.cpp sweep.cu run.cu verdict.cu; do
  obj="$out/obj/common_${f%.*}.o"
  compile "$common/$f" "$obj"
  own+=("../common/$f:$obj")
done
if [ -d "$root/solutions/$lesson" ]; then
  for e in "${exercises[@]}"; do
    # shellcheck disable=SC2046
    compile "$root/solutions/$lesson/$e.cu" "$out/obj/solution_$e.o" $(renames solution_)
    solution+=("$e")
  done
fi
for e in "${exercises[@]}"; do
  [ -n "$ex" ] && [ "$e" != "$ex" ] && continue
  [ -f "$root/exercises/$lesson/$e.cu" ] || continue
  # shellcheck disable=SC2046
  compile "$root/exercises/$lesson/$e.cu" "$out/obj/student_$e.o" $(renames student_)
  student+=("$e")
done
wait
cat "$out"/obj/*.log > "$log"

objs=() not_built=()
for pair in "${own[@]}"; do
  f=${pair%%:*} obj=${pair#*:}
  [ -e "$obj.ok" ] || { echo "$me: $f does not compile (see $log)" >&2; exit 2; }
  objs+=("$obj")
done
for e in "${solution[@]}"; do
  [ -e "$out/obj/solution_$e.o.ok" ] || { echo "$me: solution $e does not compile (see $log)" >&2; exit 2; }
  objs+=("$out/obj/solution_$e.o")
done
for e in "${student[@]}"; do
  if [ -e "$out/obj/student_$e.o.ok" ]; then objs+=("$out/obj/student_$e.o"); else not_built+=("$e"); fi
done
for e in "${not_built[@]}"; do echo "$me: your $e does not compile yet (blanks open?): not timed"; done
echo "== link" >> "$log"
if ! nvcc "${nvcc_flags[@]}" -o "$out/bench" "${objs[@]}" >> "$log" 2>&1; then
  echo "$me: linking failed (see $log)" >&2
  exit 2
fi
  printf "%s\n" "${not_built[@]}" > "$out/not-built"
else
  # --no-build: the driver and the list of exercises that did not compile, as --build-only left them.
  [ -x "$out/bench" ] || { echo "$me: --no-build, but $out/bench does not exist" >&2; exit 2; }
  log="$out/build.log" not_built=()
  while read -r e; do [ -n "$e" ] && not_built+=("$e"); done < "$out/not-built"
fi
[ -n "$build_only" ] && exit 0

peer_args=()
if [ "$peers" = 1 ]; then
  if python3 -c 'import torch, triton; assert torch.cuda.is_available()' 2>/dev/null; then
    echo "$me: timing torch and Triton (peers.py)"
    # shellcheck disable=SC2086
    if python3 "$here/peers.py" --csv "$out/peers.csv" --replays "$replays" $quick; then
      peer_args=(--peers "$out/peers.csv")
    else
      echo "$me: peers.py failed; the table has no torch/Triton columns"
    fi
  else
    echo "$me: no PyTorch with Triton and CUDA here; the table has no torch/Triton columns (optional)"
  fi
fi

# A student kernel that breaks the CUDA context (an illegal address, say) takes the process with it: run again
# without it, and say so.
excluded=()
for attempt in 1 2 3 4 5 6; do
  args=(--csv "$out/$me.csv" --svg "$out/$me.svg" --crash-file "$out/crashed" --date "$(date -u +%F)"
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
    echo "$me: your $name broke the CUDA context; it is not timed. Measuring the rest again without it."
    excluded+=("$name")
    continue
  fi
  exit $rc
done
exit 1
