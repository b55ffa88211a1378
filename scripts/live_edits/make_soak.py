#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Issue 35's one-hour soak script: 40 filter structures (K 3-15; dense, separable and symmetric; the five
borders) written as filter files into OUT, and OUT/soak.json, a --script that loads one every PERIOD ms for
SECONDS, cycling through the 40.
    make_soak.py OUT [--seconds 3600] [--period-ms 2000] [--seed 35]
Then: convolab --source pattern:640x480@30 --strategy auto --script OUT/soak.json --stats stats.json"""
import argparse, json, os, random

BORDERS = ["reflect101", "replicate", "reflect", "wrap", "constant"]


def matrix(rng, k, kind):
    if kind == "separable":
        col = [rng.randint(1, 9) for _ in range(k)]
        row = [rng.randint(-4, 9) for _ in range(k)]
        return [[c * r for r in row] for c in col]
    if kind == "symmetric":
        half = [[rng.randint(-5, 9) for _ in range(k)] for _ in range(k)]
        return [[half[min(i, k - 1 - i)][min(j, k - 1 - j)] for j in range(k)] for i in range(k)]
    return [[rng.randint(-3, 9) for _ in range(k)] for _ in range(k)]


def structure(rng, index):
    k = [3, 5, 7, 9, 11, 13, 15][index % 7]
    kind = ["dense", "separable", "symmetric"][index % 3]
    border = BORDERS[index % 5]
    channels = {}
    for c in "rgb":
        m = matrix(rng, k, kind)
        total = sum(map(sum, m))
        channels[c] = {"matrix": m, "divisor": total if total > 0 else 1, "offset": 0 if total > 0 else 128}
    return {"name": f"soak {index:02d}: {kind} {k}x{k}, {border}", "border": border, "channels": channels}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seconds", type=int, default=3600)
    ap.add_argument("--period-ms", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=35)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    names = []
    for i in range(40):
        name = f"structure{i:02d}.json"
        with open(os.path.join(a.out, name), "w") as f:
            json.dump(structure(rng, i), f)
        names.append(name)
    actions = [{"at_ms": t, "filter": names[n % 40]}
               for n, t in enumerate(range(a.period_ms, a.seconds * 1000, a.period_ms))]
    with open(os.path.join(a.out, "soak.json"), "w") as f:
        json.dump({"actions": actions}, f, indent=0)
    print(f"{len(actions)} edits over {a.seconds} s into {a.out}/soak.json")


if __name__ == "__main__":
    main()
