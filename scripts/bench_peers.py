#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_peers.py: times the peers of ConvoLab's per-channel convolution on a CUDA GPU, in one run.

Measures, at the same sizes and with a filter of the same kind as `convolab-cli bench` (dense random
per-channel KxK with weights in [0.05, 1] rounded to 1e-3 and divisor = their sum, or the binomial
Gaussian; reflect101 borders):
  - PyTorch F.conv2d(groups=3): fp32 and fp16, NCHW and channels_last; the convolution alone (input already
    float, padded, on the device) and the whole uchar HWC -> uchar HWC pipeline (convert, reflect-pad,
    convolve, round, clamp, convert back);
  - torch.compile of that pipeline (fp32, NCHW);
  - CuPy cupyx.scipy.ndimage.correlate, per channel (mode 'mirror' = reflect101), alone and whole pipeline;
  - OpenCV's Python module where it is installed: filter2D per channel on the CPU and through OpenCL (UMat).
Chains (issue 30): --steps N runs N such filters one after another (each its own random weights, seeds
--seed + i), rounded and clamped to 0..255 between steps as ConvoLab's uchar intermediate is; --filter
sobel-magnitude is one step of sqrt(gx^2 + gy^2) of the two 3x3 Sobel filters (cv2.magnitude's meaning). The
chain's rows are PyTorch's (conv alone on device floats with the rounding between; the whole uchar pipeline;
torch.compile of it); CuPy and OpenCV run single filters only.
Times are CUDA-event medians over --reps runs after warm-up. Writes JSON (--json) and prints a table.
Not part of `make test`: this machine has no PyTorch or CuPy; the lent GPU machine has both.

  python3 scripts/bench_peers.py --size 1920x1080,3840x2160 --filter random --ksize 7 --json peers.json
  python3 scripts/bench_peers.py --size 1920x1080 --ksize 7 --steps 2 --json chain2.json
"""
import argparse
import datetime
import json
import platform
import statistics
import sys
import time


def parse_sizes(text):
    out = []
    for s in text.split(","):
        w, h = s.lower().split("x")
        out.append((int(w), int(h)))
    return out


def make_weights(kind, k, seed):
    import numpy as np

    if kind == "gaussian":
        b = np.array([1.0])
        for _ in range(k - 1):
            b = np.convolve(b, [1.0, 1.0])
        m = np.outer(b, b) / (2.0 ** (2 * (k - 1)))
        return np.stack([m, m, m]).astype(np.float64)
    rng = np.random.default_rng(seed)
    w = np.round(rng.uniform(0.05, 1.0, size=(3, k, k)) * 1000) / 1000
    return w / w.sum(axis=(1, 2), keepdims=True)


def cuda_time(fn, reps, warmup):
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        samples.append(a.elapsed_time(b))
    # Back to back: many launches between two events (what a stream of frames sees).
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(reps):
        fn()
    b.record()
    b.synchronize()
    return {
        "ms_median": statistics.median(samples),
        "ms_min": min(samples),
        "ms_back_to_back": a.elapsed_time(b) / reps,
    }


def bench_torch(sizes, weights, reps, warmup, results, do_compile):
    import torch
    import torch.nn.functional as F

    torch.backends.cudnn.benchmark = True
    dev = "cuda"
    k = weights.shape[-1]
    r = k // 2
    w32 = torch.tensor(weights, dtype=torch.float32, device=dev).reshape(3, 1, k, k)
    for (W, H) in sizes:
        g = torch.Generator(device="cpu").manual_seed(W * 65537 + H)
        img = torch.randint(0, 256, (H, W, 3), dtype=torch.uint8, generator=g).to(dev)
        for dtype, dname in ((torch.float32, "fp32"), (torch.float16, "fp16")):
            wt = w32.to(dtype)
            for layout in ("nchw", "channels_last"):
                fmt = torch.channels_last if layout == "channels_last" else torch.contiguous_format
                wl = wt.contiguous(memory_format=fmt)
                x = img.permute(2, 0, 1).unsqueeze(0).to(dtype)
                xp = F.pad(x, (r, r, r, r), mode="reflect").contiguous(memory_format=fmt)

                def conv_alone(xp=xp, wl=wl):
                    return F.conv2d(xp, wl, groups=3)

                def pipeline(wl=wl, dtype=dtype, fmt=fmt):
                    t = img.permute(2, 0, 1).unsqueeze(0).to(dtype).contiguous(memory_format=fmt)
                    t = F.pad(t, (r, r, r, r), mode="reflect")
                    y = F.conv2d(t, wl, groups=3)
                    return y.round().clamp_(0, 255).to(torch.uint8)[0].permute(1, 2, 0).contiguous()

                with torch.no_grad():
                    for what, fn in (("conv_alone", conv_alone), ("pipeline_uchar", pipeline)):
                        t = cuda_time(fn, reps, warmup)
                        t.update(peer="pytorch_conv2d", dtype=dname, layout=layout, what=what,
                                 size=f"{W}x{H}")
                        results.append(t)
                        print(f"{W}x{H} pytorch {dname} {layout} {what}: {t['ms_median']*1000:.1f} us "
                              f"(b2b {t['ms_back_to_back']*1000:.1f} us)", flush=True)
        if do_compile:
            def pipeline32(img):
                t = img.permute(2, 0, 1).unsqueeze(0).to(torch.float32)
                t = F.pad(t, (r, r, r, r), mode="reflect")
                y = F.conv2d(t, w32, groups=3)
                return y.round().clamp(0, 255).to(torch.uint8)[0].permute(1, 2, 0).contiguous()

            try:
                t0 = time.time()
                compiled = torch.compile(pipeline32)
                with torch.no_grad():
                    compiled(img)
                    torch.cuda.synchronize()
                    ct = time.time() - t0
                    t = cuda_time(lambda: compiled(img), reps, warmup)
                    ref = pipeline32(img)
                    diff = (compiled(img).int() - ref.int()).abs().max().item()
                t.update(peer="torch_compile", dtype="fp32", layout="nchw", what="pipeline_uchar",
                         size=f"{W}x{H}", compile_s=ct, max_diff_vs_eager=diff)
                results.append(t)
                print(f"{W}x{H} torch.compile pipeline: {t['ms_median']*1000:.1f} us", flush=True)
            except Exception as e:  # noqa: BLE001 - a peer that fails is reported, not fatal
                results.append({"peer": "torch_compile", "size": f"{W}x{H}", "error": repr(e)[:300]})


def sobel_pair():
    import numpy as np

    gx = np.array([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]])
    return np.stack([gx] * 3), np.stack([gx.T] * 3)


def bench_torch_chain(sizes, steps, reps, warmup, results, do_compile, magnitude):
    """A chain: each step reflect-pads, convolves (groups=3) and rounds/clamps, as ConvoLab's uchar
    intermediate; `magnitude`: one step of hypot(conv gx, conv gy) instead (weights: the Sobel pair)."""
    import torch
    import torch.nn.functional as F

    torch.backends.cudnn.benchmark = True
    dev = "cuda"
    ws = [torch.tensor(w, dtype=torch.float32, device=dev).reshape(3, 1, w.shape[-1], w.shape[-1])
          for w in steps]
    label = "sobel_magnitude" if magnitude else f"chain_{len(steps)}x{steps[0].shape[-1]}"

    def run(t):
        if magnitude:
            t = F.pad(t, (1, 1, 1, 1), mode="reflect")
            return torch.hypot(F.conv2d(t, ws[0], groups=3), F.conv2d(t, ws[1], groups=3)).round().clamp(0, 255)
        for w in ws:
            r = w.shape[-1] // 2
            t = F.conv2d(F.pad(t, (r, r, r, r), mode="reflect"), w, groups=3).round().clamp(0, 255)
        return t

    for (W, H) in sizes:
        g = torch.Generator(device="cpu").manual_seed(W * 65537 + H)
        img = torch.randint(0, 256, (H, W, 3), dtype=torch.uint8, generator=g).to(dev)
        for layout in ("nchw", "channels_last"):
            fmt = torch.channels_last if layout == "channels_last" else torch.contiguous_format
            x = img.permute(2, 0, 1).unsqueeze(0).to(torch.float32).contiguous(memory_format=fmt)

            def pipeline(fmt=fmt):
                t = img.permute(2, 0, 1).unsqueeze(0).to(torch.float32).contiguous(memory_format=fmt)
                return run(t).to(torch.uint8)[0].permute(1, 2, 0).contiguous()

            with torch.no_grad():
                for what, fn in (("conv_alone", lambda x=x: run(x)), ("pipeline_uchar", pipeline)):
                    t = cuda_time(fn, reps, warmup)
                    t.update(peer="pytorch_conv2d", dtype="fp32", layout=layout, what=f"{label}_{what}",
                             size=f"{W}x{H}")
                    results.append(t)
                    print(f"{W}x{H} pytorch {layout} {label} {what}: {t['ms_median']*1000:.1f} us "
                          f"(b2b {t['ms_back_to_back']*1000:.1f} us)", flush=True)
        if do_compile:
            def pipeline32(img):
                t = img.permute(2, 0, 1).unsqueeze(0).to(torch.float32)
                return run(t).to(torch.uint8)[0].permute(1, 2, 0).contiguous()

            try:
                t0 = time.time()
                compiled = torch.compile(pipeline32)
                with torch.no_grad():
                    compiled(img)
                    torch.cuda.synchronize()
                    ct = time.time() - t0
                    t = cuda_time(lambda: compiled(img), reps, warmup)
                    diff = (compiled(img).int() - pipeline32(img).int()).abs().max().item()
                t.update(peer="torch_compile", dtype="fp32", layout="nchw", what=f"{label}_pipeline_uchar",
                         size=f"{W}x{H}", compile_s=ct, max_diff_vs_eager=diff)
                results.append(t)
                print(f"{W}x{H} torch.compile {label} pipeline: {t['ms_median']*1000:.1f} us", flush=True)
            except Exception as e:  # noqa: BLE001 - a peer that fails is reported, not fatal
                results.append({"peer": "torch_compile", "size": f"{W}x{H}", "what": label, "error": repr(e)[:300]})


def bench_opencv(sizes, weights, reps, warmup, results):
    """cv2.filter2D per channel (split, three calls, merge), CPU and OpenCL (UMat), where cv2 is installed."""
    import cv2
    import numpy as np

    k = weights.shape[-1]
    kern = [weights[c].astype(np.float32) for c in range(3)]
    for (W, H) in sizes:
        img = np.random.default_rng(W * 65537 + H).integers(0, 256, size=(H, W, 3), dtype=np.uint8)
        for where in ("cpu", "opencl"):
            if where == "opencl" and not cv2.ocl.haveOpenCL():
                continue
            cv2.ocl.setUseOpenCL(where == "opencl")
            src = cv2.UMat(img) if where == "opencl" else img

            def fn(src=src):
                chans = cv2.split(src)
                out = [cv2.filter2D(chans[c], -1, kern[c], borderType=cv2.BORDER_REFLECT_101) for c in range(3)]
                res = cv2.merge(out)
                if where == "opencl":
                    cv2.ocl.finish()  # the result stays on the device; wait for it
                return res

            for _ in range(warmup):
                fn()
            samples = []
            for _ in range(max(reps // 4, 5)):
                t0 = time.perf_counter()
                fn()
                samples.append((time.perf_counter() - t0) * 1000)
            t = {"ms_median": statistics.median(samples), "ms_min": min(samples), "peer": f"opencv_filter2d_{where}",
                 "dtype": "uchar", "layout": "hwc", "what": f"per_channel_k{k}", "size": f"{W}x{H}",
                 "device": cv2.ocl.Device.getDefault().name() if where == "opencl" else "cpu"}
            results.append(t)
            print(f"{W}x{H} opencv {where} per channel: {t['ms_median']*1000:.1f} us (host wall)", flush=True)
        cv2.ocl.setUseOpenCL(False)


def bench_cupy(sizes, weights, reps, warmup, results):
    import cupy as cp
    from cupyx.scipy import ndimage

    k = weights.shape[-1]
    wc = [cp.asarray(weights[c], dtype=cp.float32) for c in range(3)]
    for (W, H) in sizes:
        rng = cp.random.default_rng(W * 65537 + H)
        img = rng.integers(0, 256, size=(H, W, 3), dtype=cp.uint8)
        planes = [cp.ascontiguousarray(img[:, :, c].astype(cp.float32)) for c in range(3)]
        outs = [cp.empty_like(p) for p in planes]

        def alone():
            for c in range(3):
                ndimage.correlate(planes[c], wc[c], output=outs[c], mode="mirror")

        def pipeline():
            f = img.astype(cp.float32)
            res = cp.empty((H, W, 3), dtype=cp.uint8)
            for c in range(3):
                y = ndimage.correlate(f[:, :, c], wc[c], mode="mirror")
                res[:, :, c] = cp.clip(cp.rint(y), 0, 255).astype(cp.uint8)
            return res

        for what, fn in (("conv_alone_3_planes", alone), ("pipeline_uchar", pipeline)):
            for _ in range(warmup):
                fn()
            cp.cuda.Device().synchronize()
            samples = []
            for _ in range(max(reps // 4, 5)):
                a, b = cp.cuda.Event(), cp.cuda.Event()
                a.record()
                fn()
                b.record()
                b.synchronize()
                samples.append(cp.cuda.get_elapsed_time(a, b))
            t = {"ms_median": statistics.median(samples), "ms_min": min(samples), "peer": "cupy_ndimage_correlate",
                 "dtype": "fp32", "layout": "planar", "what": what, "size": f"{W}x{H}"}
            results.append(t)
            print(f"{W}x{H} cupy {what}: {t['ms_median']*1000:.1f} us", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", default="1920x1080,3840x2160")
    ap.add_argument("--filter", default="random", choices=["random", "gaussian", "sobel-magnitude"])
    ap.add_argument("--steps", type=int, default=1, help="a chain of this many filters, rounded between steps")
    ap.add_argument("--ksize", type=int, default=7)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile (it takes a minute)")
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    sizes = parse_sizes(a.size)
    magnitude = a.filter == "sobel-magnitude"
    chain = magnitude or a.steps > 1
    weights = None if magnitude else make_weights(a.filter, a.ksize, a.seed)
    doc = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "host": platform.node(), "python": sys.version.split()[0],
           "config": {"filter": a.filter, "k": 3 if magnitude else a.ksize, "steps": 1 if magnitude else a.steps,
                      "border": "reflect101", "reps": a.reps, "warmup": a.warmup, "sizes": a.size},
           "results": []}
    try:
        import torch

        doc["torch"] = torch.__version__
        doc["cuda"] = torch.version.cuda
        doc["cudnn"] = torch.backends.cudnn.version()
        doc["device"] = torch.cuda.get_device_name(0)
        if chain:
            steps = list(sobel_pair()) if magnitude else [make_weights(a.filter, a.ksize, a.seed + i)
                                                          for i in range(a.steps)]
            bench_torch_chain(sizes, steps, a.reps, a.warmup, doc["results"], not a.no_compile, magnitude)
        else:
            bench_torch(sizes, weights, a.reps, a.warmup, doc["results"], not a.no_compile)
    except ImportError as e:
        doc["torch_error"] = str(e)
    if not chain:
        try:
            import cupy

            doc["cupy"] = cupy.__version__
            bench_cupy(sizes, weights, a.reps, a.warmup, doc["results"])
        except ImportError as e:
            doc["cupy_error"] = str(e)
        try:
            import cv2

            doc["opencv"] = cv2.__version__
            bench_opencv(sizes, weights, a.reps, a.warmup, doc["results"])
        except ImportError as e:
            doc["opencv_error"] = str(e)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2)
    print(f"{'size':>10} {'peer':<24} {'dtype':<5} {'layout':<14} {'what':<20} {'median us':>10}")
    for r in doc["results"]:
        if "error" in r:
            print(f"{r['size']:>10} {r['peer']:<24} error {r['error'][:80]}")
            continue
        print(f"{r['size']:>10} {r['peer']:<24} {r['dtype']:<5} {r['layout']:<14} {r['what']:<20} "
              f"{r['ms_median']*1000:>10.1f}")


if __name__ == "__main__":
    main()
