#!/usr/bin/env bash
# Telemetry on a CUDA machine: builds stackscope-cli, runs `monitor --interval 250 --count 20 --json`
# while a PyTorch matmul loop keeps the H100 busy, and writes the lines plus a summary to $OUT/telemetry.txt.
. tests/device/common.sh
device_begin telemetry "telemetry device run"
nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total,utilization.gpu,temperature.gpu,power.draw \
           --format=csv,noheader || true
device_build "${B:-build-device-telemetry}" telemetry -DCMAKE_BUILD_TYPE=Release -DSTACKSCOPE_HIP=OFF -DSTACKSCOPE_CUDA=OFF \
  -- stackscope-cli
echo "== idle sample"
"$CLI" monitor --count 1 ; echo "rc=$?"

echo "== monitor --interval 250 --count 20 --json while a matmul loop runs"
python3 - > "$OUT/telemetry-load.log" 2>&1 <<'PY' &
import time, torch
assert torch.cuda.is_available(), "CUDA not available to PyTorch"
a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
keep = torch.empty(int(6 * 2**30), dtype=torch.uint8, device="cuda")  # 6 GiB more VRAM, visible in vram_used
print("load running, allocated", torch.cuda.memory_allocated(), flush=True)
end = time.time() + 25
while time.time() < end:
    for _ in range(50):
        c = a @ b
    torch.cuda.synchronize()
print("load done", flush=True)
PY
LOAD=$!
sleep 6   # CUDA context creation and the first kernels
"$CLI" monitor --interval 250 --count 20 --json > "$OUT/telemetry-monitor.jsonl"; echo "monitor rc=$?"
wait $LOAD; echo "load rc=$?"; cat "$OUT/telemetry-load.log"
cat "$OUT/telemetry-monitor.jsonl"

echo "== summary (per GPU: min/max over the 20 samples; missing values with their reason)"
python3 - "$OUT/telemetry-monitor.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("samples:", len(lines), "| interval ms:", [b["time_ms"] - a["time_ms"] for a, b in zip(lines, lines[1:])][:5], "...")
for s in lines[0]["sources"]:
    print(f"source {s['name']}: available={s['available']} reason={s['reason']} ({s['detail']})")
gpus = {}
for l in lines:
    for g in l["gpus"]:
        gpus.setdefault((g["vendor"], g["index"], g["name"]), []).append(g["readings"])
for (vendor, index, name), rs in gpus.items():
    print(f"GPU {vendor}:{index} {name}")
    for q in rs[0]:
        vals = [r[q]["value"] for r in rs if r[q]["value"] is not None]
        if vals:
            unit = rs[0][q].get("unit", "")
            scale = 2**30 if unit == "B" else 1
            print(f"  {q:16s} min {min(vals)/scale:10.2f} max {max(vals)/scale:10.2f} {'GiB' if unit == 'B' else unit}  (source {rs[0][q]['source']})")
        else:
            print(f"  {q:16s} missing: {rs[0][q]['missing']} ({rs[0][q]['detail']})")
PY
