#!/usr/bin/env bash
# Builds a TensorFlow-with-CUDA bundle for a GPU machine that has Python 3.12 and an
# NVIDIA driver but no TensorFlow and no internet (the lent H200: Python 3.12.3,
# driver for CUDA 13). Run here, where the package registry is reachable:
#
#     bash scripts/gpu_bundle.sh            # writes .gpu/part00, part01, ... and .gpu/payload.sha256
#
# Then carry the parts over, one `run` call each (the device tool carries at most
# 64 MiB per call; keep the calls back to back, the machine goes back when idle):
#
#     run carry=[".gpu/part00"]  command="mkdir -p /root/gpu && cp .gpu/part* /root/gpu/"
#     ...
#     run carry=[".gpu/partNN", ".gpu/payload.sha256"]  command="bash scripts/gpu_run.sh"
#
# scripts/gpu_run.sh checks the payload's sha256, unpacks it and runs
# scripts/gpu_check.py --out $OUT.
#
# What goes in (the recipe that ran on the H200 on 2026-12-04): TensorFlow 2.21.0's
# cp312 wheel and its dependencies, tf-keras, tf-slim, tqdm, matplotlib; the CUDA 12
# runtime, cuBLAS and cuDNN 9 (only libcudnn.so.9 and libcudnn_graph.so.9: the
# memory checks' MLP uses no convolution); empty libraries with the sonames of
# cuFFT, cuSPARSE and cuSOLVER, which TensorFlow opens when it creates a GPU device
# but these checks never call (without them it gives up on the GPU). TensorFlow's C++
# headers are left out. 585 MB after xz (2026-12-05), 10 parts of at most 60 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."

is_312() { "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; }
if [ -z "${PY312:-}" ]; then
    for candidate in python3.12 "$HOME"/.pyenv/versions/3.12*/bin/python; do
        if is_312 "$candidate"; then PY312=$candidate; break; fi
    done
fi
if [ -z "${PY312:-}" ] || ! is_312 "$PY312"; then
    echo "gpu_bundle: needs Python 3.12 (the device's); set PY312=/path/to/python3.12" >&2
    exit 2
fi
WORK=${WORK:-/tmp/tf1mem-gpu-bundle}
PART_BYTES=${PART_BYTES:-60M}
command -v gcc >/dev/null || { echo "gpu_bundle: needs gcc for the stub libraries" >&2; exit 2; }

rm -rf "$WORK" && mkdir -p "$WORK/site"
"$PY312" -m pip install --quiet --no-compile --target "$WORK/site" \
    tensorflow==2.21.0 tf-keras==2.21.0 tf-slim tqdm matplotlib \
    nvidia-cuda-runtime-cu12==12.5.82 nvidia-cublas-cu12==12.5.3.2 nvidia-cudnn-cu12==9.3.0.75

site="$WORK/site"
# Not used at run time: TensorFlow's C++ headers, libclang (for building ops), NVBLAS.
rm -rf "$site/tensorflow/include" "$site/bin" "$site/clang" "$site"/libclang*
rm -f "$site/nvidia/cublas/lib/libnvblas.so.12"
# cuDNN: keep the two libraries TensorFlow loads at start.
find "$site/nvidia/cudnn/lib" -type f ! -name libcudnn.so.9 ! -name libcudnn_graph.so.9 -delete
rm -rf "$site/nvidia/cudnn/include"
find "$site/nvidia" -type d -name include -prune -exec rm -rf {} +
mkdir -p "$site/nvidia/stubs/lib"
for soname in libcufft.so.11 libcusparse.so.12 libcusolver.so.11; do
    echo "int tf1mem_stub_$(echo "$soname" | tr -c 'a-z0-9\n' _);" > "$WORK/stub.c"
    gcc -shared -fPIC -o "$site/nvidia/stubs/lib/$soname" -Wl,-soname,"$soname" "$WORK/stub.c"
done

tar -C "$site" -cf - . | xz -T"$(nproc)" -6 > "$WORK/payload.tar.xz"
rm -rf .gpu && mkdir -p .gpu
(cd "$WORK" && sha256sum payload.tar.xz) > .gpu/payload.sha256
split -b "$PART_BYTES" -d "$WORK/payload.tar.xz" .gpu/part
ls -l .gpu
du -sh "$site" "$WORK/payload.tar.xz"
