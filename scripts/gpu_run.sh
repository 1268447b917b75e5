#!/usr/bin/env bash
# On a lent GPU machine without TensorFlow: joins the bundle that
# scripts/gpu_bundle.sh built (parts copied earlier to $GPU_PARTS, default
# /root/gpu, plus any carried in .gpu/ with this call), checks its sha256, unpacks
# it, checks that TensorFlow sees a GPU and runs scripts/gpu_check.py --out $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."

PARTS=${GPU_PARTS:-/root/gpu}
SITE=${GPU_SITE:-/tmp/tf1mem-site}
PYTHON=${PYTHON:-python3}
OUT=${OUT:-gpu_check_out}
mkdir -p "$PARTS" "$OUT"
cp .gpu/part* "$PARTS"/ 2>/dev/null || true
expected=$(cut -d' ' -f1 .gpu/payload.sha256)
got=$(cat "$PARTS"/part* | sha256sum | cut -d' ' -f1)
if [ "$expected" != "$got" ]; then
    echo "gpu_run: the parts in $PARTS do not make the bundle (sha256 $got, expected" \
         "$expected): carry the missing parts, then run again" >&2
    ls -l "$PARTS" >&2
    exit 2
fi
if [ ! -f "$SITE/.unpacked-$expected" ]; then
    rm -rf "$SITE" && mkdir -p "$SITE"
    cat "$PARTS"/part* | xz -d -T0 | tar -C "$SITE" -xf -
    touch "$SITE/.unpacked-$expected"
fi
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
LD_LIBRARY_PATH="$(ls -d "$SITE"/nvidia/*/lib | paste -sd:)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
"$PYTHON" -c 'import tensorflow as tf; print("tensorflow", tf.__version__, "GPUs:", tf.config.list_physical_devices("GPU"))'
"$PYTHON" scripts/gpu_check.py --out "$OUT"
