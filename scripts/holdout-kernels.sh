#!/usr/bin/env bash
# Compile real CUTLASS kernels the flow rules were NOT tuned on (a holdout set
# beside ../shared/realkernels/build.sh's ten), to see whether the rules hold
# on code nobody here looked at. Nothing it makes may be committed: it is
# third-party code. ~10 minutes on 2 cores.
#
# Usage: scripts/holdout-kernels.sh OUT_DIR CUTLASS_GIT_DIR
#   CUTLASS_GIT_DIR: a bare git directory of NVIDIA/cutlass (the search
#   tool's fetch). Writes OUT_DIR/ptx/*.ptx, OUT_DIR/src/, OUT_DIR/logs/.
# Then: for f in OUT_DIR/ptx/*.ptx; do build/bin/ptxlint --no-config "$f"; done
set -u
out=$1; cutlass=$2
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out/src" "$out/ptx" "$out/logs"
C=$out/src/cutlass
git --git-dir="$cutlass" ls-tree -r --name-only HEAD -- include tools/util/include examples/common \
    examples/54_hopper_fp8_warp_specialized_gemm examples/57_hopper_grouped_gemm \
    examples/74_blackwell_gemm_streamk examples/79_blackwell_geforce_gemm examples/88_hopper_fmha |
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
cc sm_90a  54_hopper_fp8_warp_specialized_gemm "$E/54_hopper_fp8_warp_specialized_gemm/54_hopper_fp8_warp_specialized_gemm.cu" $CI -I"$E/54_hopper_fp8_warp_specialized_gemm"
cc sm_90a  57_hopper_grouped_gemm "$E/57_hopper_grouped_gemm/57_hopper_grouped_gemm.cu" $CI
cc sm_100a 74_blackwell_gemm_streamk "$E/74_blackwell_gemm_streamk/blackwell_gemm_streamk.cu" $CI
cc sm_120a 79a_blackwell_geforce_nvfp4_bf16_gemm "$E/79_blackwell_geforce_gemm/79a_blackwell_geforce_nvfp4_bf16_gemm.cu" $CI
cc sm_90a  88_hopper_fmha "$E/88_hopper_fmha/88_hopper_fmha.cu" $CI -I"$E/88_hopper_fmha"
