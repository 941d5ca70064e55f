#!/usr/bin/env bash
# `make bench-04 [EX=name]`: builds and times lesson 04's kernels on this machine's GPU with the driver every lesson's
# benchmark shares (../common/bench.sh: the options, what is built, checked and written to build/bench-04/).
# The peers (peers.py): torch.nn.functional.rms_norm and a Triton one-step kernel, and their fused-add counterparts.
lesson=04-rmsnorm
# The exercises that are timed, and all their entry points (renamed per edition, so that they link side by side).
exercises=(rmsnorm rmsnorm_fast rmsnorm_half rmsnorm_vec fused_add_rmsnorm rmsnorm_bf16_fast)
entries=(launch_rmsnorm launch_rmsnorm_fast launch_rmsnorm_bf16 launch_rmsnorm_fp16 launch_rmsnorm_vec
         launch_fused_add_rmsnorm launch_rmsnorm_bf16_fast)
# The lesson's half of the driver: its reference kernels, its kernel table, its fp64 check, its main.
sources=(kernels/rmsnorm.cu kernels/fused_add_rmsnorm.cu bench/suite.cu bench/check.cu bench/bench.cu)
. "$(dirname "$0")/../common/bench.sh"
