#!/usr/bin/env python3
"""The torch and Triton side of `make bench-05` (optional: runs where PyTorch with Triton and a GPU exist).

Times, exactly as the C++ benchmark does (lesson 04's peers.py: K launches in one CUDA graph over input sets that
together exceed the L2 three times, median over replays, divided by K), after the same fp64 check:

  layernorm:           torch.nn.functional.layer_norm, and a one-step Triton LayerNorm (the whole row in registers,
                       BLOCK = next power of two of N, fp32 statistics: mean, then the mean of squared distances);
  fused_add_layernorm: torch add (in place into the residual) followed by layer_norm, and a Triton fused kernel of the
                       same design that writes the residual back.

Writes one CSV (the columns of lesson 04's bench/report.cpp). Usage: peers.py --csv peers.csv [--replays N] [--quick]
"""
import argparse
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "04-rmsnorm"))
from peers import ATOL, NAMES, RTOL, median_launch_us, shapes, warps_for  # noqa: E402  (lesson 04's timing)

EPS = 1e-5


@triton.jit
def layernorm_one_step(x, w, b, y, stride, eps, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    v = tl.load(x + row * stride + cols, mask, other=0.0).to(tl.float32)
    mean = tl.sum(v, axis=0) / N
    d = tl.where(mask, v - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, axis=0) / N + eps)
    g = tl.load(w + cols, mask, other=0.0).to(tl.float32)
    c = tl.load(b + cols, mask, other=0.0).to(tl.float32)
    tl.store(y + row * stride + cols, d * rstd * g + c, mask)


@triton.jit
def fused_add_layernorm_one_step(x, r, w, b, y, stride, eps, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    h = tl.load(x + row * stride + cols, mask, other=0.0) + tl.load(r + row * stride + cols, mask, other=0.0)
    tl.store(r + row * stride + cols, h, mask)
    hf = h.to(tl.float32)
    mean = tl.sum(hf, axis=0) / N
    d = tl.where(mask, hf - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, axis=0) / N + eps)
    g = tl.load(w + cols, mask, other=0.0).to(tl.float32)
    c = tl.load(b + cols, mask, other=0.0).to(tl.float32)
    tl.store(y + row * stride + cols, d * rstd * g + c, mask)


def worst_ratio(got, ref, dtype):
    ratio = (got.double() - ref).abs() / (ATOL + RTOL[dtype] * ref.abs())
    return float("inf") if torch.isnan(got).any() else float(ratio.max())


def ln_ref(h, w, b):
    h = h.double()
    mean = h.mean(dim=-1, keepdim=True)
    var = ((h - mean) ** 2).mean(dim=-1, keepdim=True)
    return (h - mean) * torch.rsqrt(var + EPS) * w.double() + b.double()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--replays", type=int, default=20)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    gen = torch.Generator(device="cuda").manual_seed(2027)
    rows = []

    def record(op, dtype, M, N, kernel, status, nbytes, us, err):
        rows.append(f"{op},{NAMES[dtype]},{M},{N},{kernel},peer,,{status},{nbytes:.0f},{us:.3f},{err:.3g}")

    def time_checked(op, dtype, M, N, cands, ref, nbytes, sets, before=None, residual_ok=None):
        for name, fn in cands.items():
            if before:
                before()
            y.fill_(float("nan"))
            out = fn(0)
            got = out if out is not None else y[0]
            err = worst_ratio(got, ref, dtype)
            if not (err <= 1 and (residual_ok is None or residual_ok())):
                record(op, dtype, M, N, name, "wrong", nbytes, 0, err)
                continue
            us = median_launch_us(lambda i: fn(i % sets), max(sets, 8), args.replays)
            record(op, dtype, M, N, name, "ok", nbytes, us, err)

    for op, dtypes in (("layernorm", (torch.float32, torch.bfloat16, torch.float16)),
                       ("fused_add_layernorm", (torch.bfloat16,))):
        for dtype in dtypes:
            for M, N in shapes(args.quick):
                es = torch.tensor([], dtype=dtype).element_size()
                one = M * N * es
                sets = max(1, min(512, -(-3 * l2 // (one * (3 if op != "layernorm" else 2)))))
                # A mean away from zero, as the C++ side draws it.
                x = (0.5 + torch.randn((sets, M, N), device="cuda", generator=gen)).to(dtype)
                w = (1 + 0.1 * torch.randn(N, device="cuda", generator=gen)).to(dtype)
                b = (0.1 * torch.randn(N, device="cuda", generator=gen)).to(dtype)
                y = torch.empty_like(x)
                block = triton.next_power_of_2(N)
                nw = warps_for(block)
                if op == "layernorm":
                    def triton_one_step(i):
                        layernorm_one_step[(M,)](x[i], w, b, y[i], N, EPS, N, block, num_warps=nw)

                    cands = {
                        "torch.layer_norm": lambda i: F.layer_norm(x[i], (N,), w, b, EPS),
                        "triton one-step": triton_one_step,
                    }
                    time_checked(op, dtype, M, N, cands, ln_ref(x[0], w, b), 2 * one + 2 * N * es, sets)
                else:
                    r = torch.randn((sets, M, N), device="cuda", dtype=dtype, generator=gen)
                    r0 = r[0].clone()

                    def torch_unfused(i):
                        torch.add(x[i], r[i], out=r[i])
                        return F.layer_norm(r[i], (N,), w, b, EPS)

                    def triton_fused(i):
                        fused_add_layernorm_one_step[(M,)](x[i], r[i], w, b, y[i], N, EPS, N, block, num_warps=nw)

                    cands = {
                        "torch add + layer_norm": torch_unfused,
                        "triton fused one-step": triton_fused,
                    }
                    h = (x[0].float() + r0.float()).to(dtype)
                    time_checked(op, dtype, M, N, cands, ln_ref(h, w, b), 4 * one + 2 * N * es, sets,
                                 before=lambda: r[0].copy_(r0), residual_ok=lambda: torch.equal(r[0], h))
                    del r
                del x, y, w, b
            print(f"peers: measured {op} {NAMES[dtype]}", flush=True)
    with open(args.csv, "w") as f:
        f.write("op,dtype,M,N,kernel,source,shape,status,bytes,median_us,max_err_over_tol\n")
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
