#!/usr/bin/env bash
# Rebuild the trained verifier's shipped weights (src/citesynth/verify/crossencoder.*) from
# the recipe's weights, as on 2026-12-07 (docs/verification.md, "A docs stage over thirteen
# projects"). Needs ../shared/data (or CITESYNTH_DATA), the dev install and the project's
# git history; about 25 minutes on two cores. Usage: scripts/rebuild-verifier.sh [WORK]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
WORK=${1:-$HOME/.cache/citesynth/rebuild-verifier}
RECIPE=83d17c86  # the last commit shipping the recipe's weights without a docs stage
PROBES=(falcon wtforms markdown flask webargs pluggy flask_wtf itsdangerous)
STAGE=(--docs-stage 3 --docs-lr 1e-4 --replay 3000)
for probe in "${PROBES[@]}"; do STAGE+=(--probe "$probe"); done

mkdir -p "$WORK/start" "$WORK/out"
for file in crossencoder.safetensors crossencoder.json; do
  git show "$RECIPE:src/citesynth/verify/$file" > "$WORK/start/$file"
done
cp "$WORK/start/crossencoder.json" "$WORK/out/crossencoder.json"  # the gate's calibration
for seed in 13 7; do
  "$PY" -m benchmarks.train_crossencoder --start "$WORK/start" "${STAGE[@]}" --seed "$seed" \
    --work "$WORK/seed-$seed" --out "$WORK/seed-$seed-out" --resume
done
"$PY" -m benchmarks.train_crossencoder --start "$WORK/start" "${STAGE[@]}" --calibrate \
  --work "$WORK/seed-13" --average "$WORK/seed-7" --out "$WORK/out"
"$PY" -m benchmarks.calibrate_lexical_sure --weights "$WORK/out" --write
cp "$WORK/out/crossencoder.safetensors" "$WORK/out/crossencoder.json" src/citesynth/verify/
"$PY" -m benchmarks.calibrate_lexical_hopeless --write
echo "wrote src/citesynth/verify/crossencoder.*; measure: python -m benchmarks.verifier_variants"
