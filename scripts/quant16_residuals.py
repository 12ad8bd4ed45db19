#!/usr/bin/env python3
"""What limits a compact form of the exact int16 -> int16 sigmoid and tanh tables (TFLite 16x8
parameters: input scale 2^-12, output scale 2^-15, zero points 0, ties away).

For page sizes P = 16..1024 it predicts each page by the line through its first and last
entries and reports (1) the size of a page scheme storing fixed-width residuals with a 40-bit
header per page (base, end, residual width, residual offset), and (2) the order-0 entropy of
those residuals, a lower bound for any coding of them (before headers). It also reports the
entropy of the tables' first and second differences. The tables come from `actlut quant`.

Usage: scripts/quant16_residuals.py [--actlut PATH]      (needs numpy)
"""

import argparse
import collections
import math
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def entropy(values):
    c = collections.Counter(values)
    n = sum(c.values())
    return -sum(k / n * math.log2(k / n) for k in c.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--actlut", default=None)
    a = ap.parse_args()
    actlut = a.actlut
    if actlut is None:
        subprocess.run(["cargo", "build", "-q", "-p", "actlut-cli"], cwd=ROOT, check=True)
        actlut = str(ROOT / "target" / "debug" / "actlut")
    print("| table | P | fixed-width residuals + headers (KiB) | residual entropy (bits/entry) | entropy bound before headers (KiB) |")
    print("|---|---|---|---|---|")
    notes = []
    with tempfile.TemporaryDirectory() as tmp:
        for fn in ["sigmoid", "tanh"]:
            path = Path(tmp) / "t.bin"
            subprocess.run(
                [actlut, "quant", fn, "--in", "i16", "--scale", "0.000244140625",
                 "--zero-point", "0", "--out", "i16", "--out-scale", "0.000030517578125",
                 "--rounding", "ties-away", "--output", str(path)],
                check=True, stdout=subprocess.DEVNULL,
            )
            t = np.frombuffer(path.read_bytes(), dtype=np.int16).astype(np.int64)
            v = np.concatenate([t[32768:], t[:32768]])  # in code-value order
            for k in range(4, 11):
                P = 1 << k
                bits = 0
                res = []
                for p in range(0, 65536, P):
                    seg = v[p:p + P]
                    pred = seg[0] + np.round((seg[-1] - seg[0]) * np.arange(P) / (P - 1)).astype(np.int64)
                    r = seg - pred
                    w = 0 if r.max() == r.min() else math.ceil(math.log2(r.max() - r.min() + 1))
                    bits += 40 + P * w
                    res.extend(r.tolist())
                h = entropy(res)
                print(f"| {fn} | {P} | {bits / 8 / 1024:.2f} | {h:.3f} | {h * 65536 / 8 / 1024:.2f} |")
            d = np.diff(v)
            h1, h2 = entropy(d.tolist()), entropy(np.diff(d).tolist())
            notes.append(f"{fn}: first differences {h1:.3f} bits/entry ({h1 * 65536 / 8 / 1024:.2f} KiB), "
                         f"second differences {h2:.3f} bits/entry ({h2 * 65536 / 8 / 1024:.2f} KiB), "
                         f"{int((d != 0).sum()):,} steps")
    print()
    for n in notes:
        print(n)


if __name__ == "__main__":
    main()
