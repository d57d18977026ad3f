#!/usr/bin/python3
"""dask-pgnkit.py - run pgnkit over byte ranges of big files and over whole (compressed)
files on a Dask distributed cluster, then merge the outputs and the summaries.

    dask-pgnkit.py --scheduler tcp://HOST:PORT --out DIR [--ranges N] [--pgnkit PATH]
                   [--] COMMAND-ARGS... -- FILE...

Each task is one pgnkit run: `pgnkit COMMAND-ARGS -q --range START:END FILE` for each of
N equal byte ranges of an uncompressed regular file (any cut points tile: pgnkit reads
the games whose first byte lies in the range), or `pgnkit COMMAND-ARGS -q FILE` for a
file pgnkit cannot cut (compressed, an archive, UTF-16: pgnkit is asked, by content).  Every task writes its output and its
--summary-json into DIR, which must be a file system the workers share with the driver
(as on one machine, or NFS); a task returns only its exit status.  The driver then
concatenates the outputs in (file, range) order into DIR/merged.out (equal to a single
run's output over the files in that order, game indexes aside) and runs
`pgnkit summary` over the summaries, printing the usual summary and exiting with its
status (0 clean, 1 invalid games, 2 a failed task or usage error).

Needs Debian's python3-distributed (run with /usr/bin/python3).
"""
import argparse
import os
import subprocess
import sys

from distributed import Client


def splittable(pgnkit, path):
    """Whether pgnkit --range can cut path: asked of pgnkit itself (an empty range), which
    sniffs the content as every run does: gzip, zstd, bzip2, xz, zip, 7z, tar and UTF-16
    input cannot be cut at byte offsets and runs whole."""
    probe = subprocess.run([pgnkit, "check", "-q", "--range", "0:0", path],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return probe.returncode == 0


def plan(files, ranges, pgnkit):
    """(name, file, range or None) per task, in output order."""
    tasks = []
    for k, path in enumerate(files):
        size = os.path.getsize(path)
        if ranges <= 1 or size == 0 or not splittable(pgnkit, path):
            tasks.append((f"f{k:03d}-whole", path, None))
            continue
        cuts = [size * i // ranges for i in range(ranges)] + [size]
        for i in range(ranges):
            tasks.append((f"f{k:03d}-r{i:04d}", path, (cuts[i], cuts[i + 1])))
    return tasks


def run_task(pgnkit, args, name, path, rng, out_dir):
    """One pgnkit run on a worker; its output and summary go to out_dir."""
    cmd = [pgnkit] + list(args) + ["-q", "--summary-json", os.path.join(out_dir, name + ".json")]
    if rng is not None:
        cmd += ["--range", f"{rng[0]}:{rng[1]}"]
    cmd.append(path)
    with open(os.path.join(out_dir, name + ".out"), "wb") as out, \
            open(os.path.join(out_dir, name + ".err"), "wb") as err:
        return subprocess.run(cmd, stdout=out, stderr=err).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scheduler", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ranges", type=int, default=8)
    ap.add_argument("--pgnkit", default="pgnkit")
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    rest = a.rest[1:] if a.rest[:1] == ["--"] else a.rest
    if "--" not in rest:
        ap.error("expected COMMAND-ARGS... -- FILE...")
    split = rest.index("--")
    args, files = rest[:split], [os.path.abspath(f) for f in rest[split + 1:]]
    out_dir = os.path.abspath(a.out)
    os.makedirs(out_dir, exist_ok=True)
    pgnkit = os.path.abspath(a.pgnkit) if os.sep in a.pgnkit else a.pgnkit

    tasks = plan(files, a.ranges, pgnkit)
    with Client(a.scheduler) as client:
        futures = [client.submit(run_task, pgnkit, args, name, path, rng, out_dir,
                                 key=f"pgnkit-{name}", pure=False)
                   for name, path, rng in tasks]
        codes = client.gather(futures)
        workers = {w for w in client.who_has(futures).values() for w in w}
    failed = [t[0] for t, c in zip(tasks, codes) if c > 1]
    print(f"dask-pgnkit: {len(tasks)} tasks on {len(workers)} workers; "
          f"{len(failed)} failed", file=sys.stderr)
    for name in failed:
        with open(os.path.join(out_dir, name + ".err"), "rb") as err:
            sys.stderr.write(f"{name}: " + err.read().decode(errors="replace"))
    with open(os.path.join(out_dir, "merged.out"), "wb") as merged:
        for name, _, _ in tasks:
            with open(os.path.join(out_dir, name + ".out"), "rb") as part:
                while chunk := part.read(1 << 20):
                    merged.write(chunk)
    if failed:
        return 2
    summaries = [os.path.join(out_dir, name + ".json") for name, _, _ in tasks]
    with open(os.path.join(out_dir, "summary.json"), "wb") as sj:
        subprocess.run([pgnkit, "summary", "--format", "json"] + summaries, stdout=sj)
    return subprocess.run([pgnkit, "summary"] + summaries).returncode


if __name__ == "__main__":
    sys.exit(main())
