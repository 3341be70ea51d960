#!/usr/bin/env bash
# Compile real CUTLASS kernels the flow rules were NOT tuned on (a holdout set
# beside ../shared/realkernels/build.sh's ten), to see whether the rules hold
# on code nobody here looked at. Nothing it makes may be committed: it is
# third-party code. ~10 minutes on 2 cores.
#
# Usage: scripts/holdout-kernels.sh OUT_DIR CUTLASS_GIT_DIR [SET]
#   CUTLASS_GIT_DIR: a bare git directory of NVIDIA/cutlass (the search
#   tool's fetch). Writes OUT_DIR/ptx/*.ptx, OUT_DIR/src/, OUT_DIR/logs/.
#   SET 1 (the default): examples 54, 57, 74, 79a, 88 (the seventh session's
#   holdout; rules were fixed against it since, so it is no longer unseen).
#   SET 2: examples 41 and 47 (Ampere cp.async pipelines), 62, 67 (Hopper
#   TMA/wgmma), 75, 76, 81, 93 (Blackwell TMA/tcgen05), first used in the
#   eighth session to judge that session's rules.
# Then: for f in OUT_DIR/ptx/*.ptx; do build/bin/ptxlint --no-config "$f"; done
set -u
out=$1; cutlass=$2; set=${3:-1}
case "$set" in
  1) examples="54_hopper_fp8_warp_specialized_gemm 57_hopper_grouped_gemm 74_blackwell_gemm_streamk
       79_blackwell_geforce_gemm 88_hopper_fmha" ;;
  2) examples="41_fused_multi_head_attention 47_ampere_gemm_universal_streamk 62_hopper_sparse_gemm
       67_hopper_fp8_warp_specialized_gemm_with_blockwise_scaling 75_blackwell_grouped_gemm 76_blackwell_conv
       81_blackwell_gemm_blockwise 93_blackwell_low_latency_gqa" ;;
  *) echo "holdout-kernels: SET is 1 or 2" >&2; exit 2 ;;
esac
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out/src" "$out/ptx" "$out/logs"
C=$out/src/cutlass
git --git-dir="$cutlass" ls-tree -r --name-only HEAD -- include tools/util/include examples/common \
    $(for e in $examples; do echo "examples/$e"; done) |
  while read -r f; do
    case "$f" in *.png|*.jpg|*.gif|*.svg|*.pdf) continue;; esac
    mkdir -p "$C/$(dirname "$f")"; git --git-dir="$cutlass" show "HEAD:$f" > "$C/$f" 2>/dev/null || rm -f "$C/$f"
  done
E=$C/examples
CI="-I$C/include -I$C/tools/util/include -I$C/examples/common"
cc() { # arch name source flags...
  local arch=$1 o=$2 s=$3; shift 3
  if timeout 1200 "$nvcc" -std=c++17 --expt-relaxed-constexpr -ptx -arch=$arch "$@" -o "$out/ptx/$o.ptx" "$s" \
       > "$out/logs/$o.log" 2>&1; then echo "built $o"; else echo "FAILED $o (see logs/)"; fi; }
if [ "$set" = 1 ]; then
cc sm_90a  54_hopper_fp8_warp_specialized_gemm "$E/54_hopper_fp8_warp_specialized_gemm/54_hopper_fp8_warp_specialized_gemm.cu" $CI -I"$E/54_hopper_fp8_warp_specialized_gemm"
cc sm_90a  57_hopper_grouped_gemm "$E/57_hopper_grouped_gemm/57_hopper_grouped_gemm.cu" $CI
cc sm_100a 74_blackwell_gemm_streamk "$E/74_blackwell_gemm_streamk/blackwell_gemm_streamk.cu" $CI
cc sm_120a 79a_blackwell_geforce_nvfp4_bf16_gemm "$E/79_blackwell_geforce_gemm/79a_blackwell_geforce_nvfp4_bf16_gemm.cu" $CI
cc sm_90a  88_hopper_fmha "$E/88_hopper_fmha/88_hopper_fmha.cu" $CI -I"$E/88_hopper_fmha"
else
cc sm_80   41_fused_multihead_attention_fixed_seqlen "$E/41_fused_multi_head_attention/fused_multihead_attention_fixed_seqlen.cu" $CI -I"$E/41_fused_multi_head_attention"
cc sm_80   47_ampere_gemm_universal_streamk "$E/47_ampere_gemm_universal_streamk/ampere_gemm_universal_streamk.cu" $CI
cc sm_90a  62_hopper_sparse_gemm "$E/62_hopper_sparse_gemm/62_hopper_sparse_gemm.cu" $CI
cc sm_90a  67_hopper_fp8_blockwise_scaling "$E/67_hopper_fp8_warp_specialized_gemm_with_blockwise_scaling/67_hopper_fp8_warp_specialized_gemm_with_blockwise_scaling.cu" $CI -I"$E/67_hopper_fp8_warp_specialized_gemm_with_blockwise_scaling"
cc sm_100a 75_blackwell_grouped_gemm "$E/75_blackwell_grouped_gemm/75_blackwell_grouped_gemm.cu" $CI
cc sm_100a 76_blackwell_conv_fprop "$E/76_blackwell_conv/76_blackwell_conv_fprop.cu" $CI
cc sm_100a 81_blackwell_gemm_blockwise "$E/81_blackwell_gemm_blockwise/81_blackwell_gemm_blockwise.cu" $CI -I"$E/81_blackwell_gemm_blockwise"
cc sm_100a 93_blackwell_low_latency_gqa "$E/93_blackwell_low_latency_gqa/tgv_gqa.cu" $CI -I"$E/93_blackwell_low_latency_gqa"
fi
