#!/bin/sh
# Regenerates the corpus slice: each kernel of this folder compiled by nvcc to
# PTX for the targets it uses. The .cu files are ptxlint's own; the .ptx are
# committed so the corpus tests run in a clone without ../shared/corpus.
# usage: test/corpus-slice/gen.sh [NVCC]   (CUDA 13.0 nvcc)
set -eu
cd "$(dirname "$0")"
NVCC=${1:-/usr/local/cuda/bin/nvcc}
"$NVCC" -arch=compute_80 -ptx cp_async_pipeline.cu -o cp_async_pipeline.sm80.ptx
"$NVCC" -arch=compute_90 -ptx cp_async_pipeline.cu -o cp_async_pipeline.sm90.ptx
"$NVCC" -arch=compute_90 -ptx bulk_mbarrier.cu -o bulk_mbarrier.sm90.ptx
"$NVCC" -arch=compute_100a -ptx bulk_mbarrier.cu -o bulk_mbarrier.sm100a.ptx
"$NVCC" -arch=compute_90a -ptx tma_tile.cu -o tma_tile.sm90a.ptx
"$NVCC" -arch=compute_100a -ptx tma_tile.cu -o tma_tile.sm100a.ptx
