#!/usr/bin/env python3
"""The torch and Triton side of `make bench-04` (optional: runs where PyTorch with Triton and a GPU exist).

Times, exactly as the C++ benchmark does (K launches captured in one CUDA graph, each on the next of several input
sets that together exceed the L2 three times; median over replays, divided by K), after the same fp64 check:

  rmsnorm:           torch.nn.functional.rms_norm, and the one-step Triton kernel of source document 001 (the whole
                     row in registers, BLOCK_SIZE = next power of two of N), with fp32 accumulation and N a run-time
                     argument (Triton still specialises it as a multiple of 16; one compilation per BLOCK_SIZE);
  fused_add_rmsnorm: torch add (in place into the residual) followed by rms_norm, and a Triton fused kernel of the same
                     one-step design that writes the residual back.

With --ref-lib LIB (bench/peer_bridge.cu built as a shared library), the norm's rows also get the project's
reference kernel and its copy of the same bytes timed by this same harness ("reference via peers.py", "copy via
peers.py"), so that the reference and Triton are compared with one timing code, not two.

Writes one CSV (the columns bench/report.cpp reads).
Usage: peers.py --csv peers.csv [--replays N] [--quick] [--ref-lib LIB] [--only OP:DTYPE]...

peers.py --dump DIR compiles the Triton kernels instead, at the shapes where the reference kernels were behind them
(the 512-row sweep past N = 4096, 8192 x 16384), and writes for each its registers, spills, PTX and cubin, and the
SASS where a cuobjdump is found (CUDA's or the one Triton ships): what Triton generates, read rather than guessed.

peers.py --profile DTYPE M N launches the Triton one-step norm three times at that shape on fresh inputs and nothing
else, for Nsight Compute (ncu -k regex:rmsnorm_one_step python3 peers.py --profile bf16 8192 16384); DTYPE
fused-bf16 or fused-fp32 launches the Triton fused kernel instead (its name matches regex:rmsnorm_one_step too).
"""
import argparse
import ctypes
import os
import shutil
import statistics
import subprocess

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

EPS = 1e-6
SWEEP_M = 512
RTOL = {torch.float32: 1e-4, torch.bfloat16: 2.5 * 2.0**-8, torch.float16: 2.5 * 2.0**-11}
ATOL = 1e-5
NAMES = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}


@triton.jit
def rmsnorm_one_step(x, w, y, stride, eps, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    v = tl.load(x + row * stride + cols, mask, other=0.0).to(tl.float32)
    scale = tl.rsqrt(tl.sum(v * v, axis=0) / N + eps)
    g = tl.load(w + cols, mask, other=0.0).to(tl.float32)
    tl.store(y + row * stride + cols, v * scale * g, mask)


@triton.jit
def fused_add_rmsnorm_one_step(x, r, w, y, stride, eps, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    h = tl.load(x + row * stride + cols, mask, other=0.0) + tl.load(r + row * stride + cols, mask, other=0.0)
    tl.store(r + row * stride + cols, h, mask)
    hf = h.to(tl.float32)
    scale = tl.rsqrt(tl.sum(hf * hf, axis=0) / N + eps)
    g = tl.load(w + cols, mask, other=0.0).to(tl.float32)
    tl.store(y + row * stride + cols, hf * scale * g, mask)


def warps_for(block):
    # More warps for longer rows, so that no thread holds more than a few dozen elements (as Liger and Unsloth do).
    return 4 if block < 2048 else 8 if block < 8192 else 16 if block < 32768 else 32


def shapes(quick):
    out = [(SWEEP_M, d) for d in range(128, 8193, 128) if not quick or d % 1024 == 0 or d in (128, 2176)]
    return out + [(16384, 1024), (16384, 4096), (16384, 8192), (8192, 16384), (4096, 5120)]


def median_launch_us(fn, launches, replays):
    """fn(i) launches on the current stream; captured `launches` times in one graph."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for i in range(2):
            fn(i)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(launches):
            fn(i)
    for _ in range(2):
        graph.replay()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(replays + 1)]
    events[0].record()
    for k in range(replays):
        graph.replay()
        events[k + 1].record()
    torch.cuda.synchronize()
    return statistics.median(events[k].elapsed_time(events[k + 1]) * 1e3 / launches for k in range(replays))


def worst_ratio(got, ref, dtype):
    ratio = (got.double() - ref).abs() / (ATOL + RTOL[dtype] * ref.abs())
    return float("inf") if torch.isnan(got).any() else float(ratio.max())


def rms_ref(h, w):
    h = h.double()
    return h * torch.rsqrt((h * h).mean(dim=-1, keepdim=True) + EPS) * w.double()


def cuobjdump():
    """CUDA's cuobjdump, else the one bundled with Triton's NVIDIA backend, else None."""
    found = shutil.which("cuobjdump")
    if found:
        return found
    bundled = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    return bundled if os.path.exists(bundled) else None


def dump(out_dir):
    """What Triton compiled for the shapes where it led: one summary line per kernel, and its PTX, cubin and SASS."""
    os.makedirs(out_dir, exist_ok=True)
    tool = cuobjdump()
    lines = ["op,dtype,M,N,BLOCK,num_warps,n_regs,n_spills,shared_bytes"]
    cases = [("rmsnorm", dt, 512, n) for dt in (torch.bfloat16, torch.float32) for n in (4224, 4992, 6016, 8064)]
    cases += [("rmsnorm", torch.bfloat16, 8192, 16384), ("rmsnorm", torch.float32, 8192, 16384),
              ("fused_add_rmsnorm", torch.float32, 8192, 16384), ("fused_add_rmsnorm", torch.bfloat16, 512, 8064),
              ("fused_add_rmsnorm", torch.bfloat16, 8192, 16384), ("fused_add_rmsnorm", torch.bfloat16, 16384, 1024)]
    for op, dtype, M, N in cases:
        x = torch.randn((M, N), device="cuda", dtype=dtype)
        w = torch.ones(N, device="cuda", dtype=dtype)
        y = torch.empty_like(x)
        block = triton.next_power_of_2(N)
        nw = warps_for(block)
        if op == "rmsnorm":
            k = rmsnorm_one_step[(M,)](x, w, y, N, EPS, N, block, num_warps=nw)
        else:
            r = torch.randn_like(x)
            k = fused_add_rmsnorm_one_step[(M,)](x, r, w, y, N, EPS, N, block, num_warps=nw)
        torch.cuda.synchronize()
        name = f"{op}-{NAMES[dtype]}-{M}x{N}"
        lines.append(f"{op},{NAMES[dtype]},{M},{N},{block},{nw},{k.n_regs},{k.n_spills},{k.metadata.shared}")
        with open(os.path.join(out_dir, name + ".ptx"), "w") as f:
            f.write(k.asm["ptx"])
        cubin = os.path.join(out_dir, name + ".cubin")
        with open(cubin, "wb") as f:
            f.write(k.asm["cubin"])
        if tool:
            sass = subprocess.run([tool, "-sass", cubin], capture_output=True, text=True).stdout
            with open(os.path.join(out_dir, name + ".sass"), "w") as f:
                f.write(sass)
    with open(os.path.join(out_dir, "kernels.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def profile(dtype_name, M, N):
    """Three launches of the Triton norm (or, for fused-DTYPE, the fused kernel) at one shape, each on its own input,
    for a profiler to catch."""
    fused = dtype_name.startswith("fused-")
    dtype = {v: k for k, v in NAMES.items()}[dtype_name[6:] if fused else dtype_name]
    block = triton.next_power_of_2(N)
    w = (1 + 0.1 * torch.randn(N, device="cuda")).to(dtype)
    for _ in range(3):
        x = torch.randn((M, N), device="cuda", dtype=dtype)
        y = torch.empty_like(x)
        if fused:
            r = torch.randn_like(x)
            fused_add_rmsnorm_one_step[(M,)](x, r, w, y, N, EPS, N, block, num_warps=warps_for(block))
        else:
            rmsnorm_one_step[(M,)](x, w, y, N, EPS, N, block, num_warps=warps_for(block))
    torch.cuda.synchronize()
    print(f"peers: profiled Triton {'fused add + ' if fused else ''}rmsnorm {dtype_name} {M} x {N}, 3 launches")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv")
    ap.add_argument("--replays", type=int, default=20)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dump", metavar="DIR", help="write what Triton compiled (no timing)")
    ap.add_argument("--ref-lib", help="bench/peer_bridge.cu as a shared library: time the reference here too")
    ap.add_argument("--only", action="append", metavar="OP:DTYPE", help="measure only these groups (rmsnorm:bf16)")
    ap.add_argument("--profile", nargs=3, metavar=("DTYPE", "M", "N"), help="three launches for a profiler")
    args = ap.parse_args()
    if args.profile:
        profile(args.profile[0], int(args.profile[1]), int(args.profile[2]))
        return
    if args.dump:
        dump(args.dump)
        return
    if not args.csv:
        ap.error("--csv is required (or --dump DIR)")
    props = torch.cuda.get_device_properties(0)
    l2 = props.L2_cache_size
    gen = torch.Generator(device="cuda").manual_seed(2026)
    rows = []
    lib = None
    if args.ref_lib:
        lib = ctypes.CDLL(os.path.abspath(args.ref_lib))
        vp, i32 = ctypes.c_void_p, ctypes.c_int
        lib.bench04_ref_rmsnorm.argtypes = [i32, vp, vp, vp, i32, i32, ctypes.c_float, vp]
        lib.bench04_copy.argtypes = [vp, vp, ctypes.c_size_t, vp]
    codes = {torch.float32: 0, torch.bfloat16: 1, torch.float16: 2}

    def record(op, dtype, M, N, kernel, status, nbytes, us, err):
        rows.append(f"{op},{NAMES[dtype]},{M},{N},{kernel},peer,,{status},{nbytes:.0f},{us:.3f},{err:.3g}")

    for op, dtypes in (("rmsnorm", (torch.float32, torch.bfloat16, torch.float16)),
                       ("fused_add_rmsnorm", (torch.bfloat16, torch.float32))):
        for dtype in dtypes:
            if args.only and f"{op}:{NAMES[dtype]}" not in args.only:
                continue
            for M, N in shapes(args.quick):
                es = torch.tensor([], dtype=dtype).element_size()
                one = M * N * es
                sets = max(1, min(512, -(-3 * l2 // (one * (3 if op != "rmsnorm" else 2)))))
                x = torch.randn((sets, M, N), device="cuda", dtype=dtype, generator=gen)
                w = (1 + 0.1 * torch.randn(N, device="cuda", generator=gen)).to(dtype)
                y = torch.empty_like(x)
                block = triton.next_power_of_2(N)
                nw = warps_for(block)
                if op == "rmsnorm":
                    nbytes = 2 * one + N * es
                    def triton_one_step(i):
                        rmsnorm_one_step[(M,)](x[i], w, y[i], N, EPS, N, block, num_warps=nw)

                    cands = {
                        "torch.rms_norm": lambda i: F.rms_norm(x[i], (N,), w, EPS),
                        "triton one-step": triton_one_step,
                    }
                    if lib:
                        def reference(i):
                            stream = torch.cuda.current_stream().cuda_stream
                            assert lib.bench04_ref_rmsnorm(codes[dtype], x[i].data_ptr(), w.data_ptr(),
                                                           y[i].data_ptr(), M, N, EPS, stream) == 0

                        def copy(i):
                            stream = torch.cuda.current_stream().cuda_stream
                            assert lib.bench04_copy(y[i].data_ptr(), x[i].data_ptr(), one, stream) == 0

                        cands["reference via peers.py"] = reference
                        cands["copy via peers.py"] = copy
                    ref = rms_ref(x[0], w)
                    for name, fn in cands.items():
                        y.fill_(float("nan"))
                        out = fn(0)
                        got = out if out is not None else y[0]
                        if name == "copy via peers.py":
                            # Checked as a copy (it moves the norm's bytes, it does not normalise).
                            ok = torch.equal(y[0], x[0])
                            us = median_launch_us(lambda i: fn(i % sets), max(sets, 8), args.replays) if ok else 0
                            record(op, dtype, M, N, name, "ok" if ok else "wrong", 2 * one, us, 0)
                            continue
                        err = worst_ratio(got, ref, dtype)
                        if not err <= 1:
                            record(op, dtype, M, N, name, "wrong", nbytes, 0, err)
                            continue
                        us = median_launch_us(lambda i: fn(i % sets), max(sets, 8), args.replays)
                        record(op, dtype, M, N, name, "ok", nbytes, us, err)
                else:
                    nbytes = 4 * one + N * es
                    r = torch.randn((sets, M, N), device="cuda", dtype=dtype, generator=gen)
                    r0 = r[0].clone()

                    def torch_unfused(i):
                        torch.add(x[i], r[i], out=r[i])
                        return F.rms_norm(r[i], (N,), w, EPS)

                    def triton_fused(i):
                        fused_add_rmsnorm_one_step[(M,)](x[i], r[i], w, y[i], N, EPS, N, block, num_warps=nw)

                    cands = {
                        "torch add + rms_norm": torch_unfused,
                        "triton fused one-step": triton_fused,
                    }
                    h = (x[0].float() + r0.float()).to(dtype)
                    ref = rms_ref(h, w)
                    for name, fn in cands.items():
                        r[0].copy_(r0)
                        y.fill_(float("nan"))
                        out = fn(0)
                        got = out if out is not None else y[0]
                        err = worst_ratio(got, ref, dtype)
                        if not (err <= 1 and torch.equal(r[0], h)):
                            record(op, dtype, M, N, name, "wrong", nbytes, 0, err)
                            continue
                        us = median_launch_us(lambda i: fn(i % sets), max(sets, 8), args.replays)
                        record(op, dtype, M, N, name, "ok", nbytes, us, err)
                del x, y, w
            print(f"peers: measured {op} {NAMES[dtype]}", flush=True)
    with open(args.csv, "w") as f:
        f.write("op,dtype,M,N,kernel,source,shape,status,bytes,median_us,max_err_over_tol\n")
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
