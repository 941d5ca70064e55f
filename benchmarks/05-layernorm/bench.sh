#!/usr/bin/env bash
# `make bench-05 [EX=name]`: builds and times lesson 05's kernels on this machine's GPU with the driver every lesson's
# benchmark shares (../common/bench.sh: the options, what is built, checked and written to build/bench-05/).
# The peers (peers.py): torch.nn.functional.layer_norm and a Triton one-step LayerNorm, and their fused-add
# counterparts.
lesson=05-layernorm
# The exercises that are timed, and all their entry points (renamed per edition, so that they link side by side).
exercises=(layernorm welford layernorm_half fused_add_layernorm layernorm_fast bug_hunt)
entries=(launch_layernorm launch_layernorm_welford launch_layernorm_bf16 launch_layernorm_fp16
         launch_fused_add_layernorm launch_layernorm_fast launch_layernorm_bughunt)
# The lesson's half of the driver: its reference kernels, its kernel table, its fp64 check, its main.
sources=(kernels/layernorm.cu bench/suite.cu bench/check.cu bench/bench.cu)
. "$(dirname "$0")/../common/bench.sh"
