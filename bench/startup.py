"""Start-up: the whole-process time of `referee` commands against a d20 one-liner, in one run.

    python bench/startup.py [--runs N]        (needs the `bench` extra for d20: pip install -e ".[bench]")

The headline is `referee roll 3d6` against `python -c "import d20; print(d20.roll('3d6'))"`: the same
job (parse, roll, print) done by another dice library from a cold interpreter. The two are started
in turn, A B A B ..., so a machine that slows down mid-run slows both; each pair gives one ratio,
and the median of those ratios is the figure (target: at most 1.5x). `referee ruling` (index already
built) and `referee console` (the demo game) are printed beside it with their own medians.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5


def _referee() -> list[str]:
    script = shutil.which("referee", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "bot"]


def _time(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _row(name: str, times: list[float]) -> str:
    return f"{name:<44} median {statistics.median(times) * 1000:7.1f} ms   min {min(times) * 1000:7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    try:
        import d20  # noqa: F401
    except ImportError:
        sys.exit('bench/startup.py needs d20: pip install -e ".[bench]"')
    with tempfile.TemporaryDirectory(prefix="referee-startup-") as folder:
        env = {**os.environ, "REFEREE_DATA_DIR": folder, "REFEREE_CACHE_DIR": folder, "PYTHONDONTWRITEBYTECODE": "1"}
        referee = _referee()
        ours = [*referee, "roll", "3d6"]
        theirs = [sys.executable, "-c", "import d20; print(d20.roll('3d6'))"]
        ruling = [*referee, "ruling", "ドローフェイズで何枚引く？"]
        console = [*referee, "console", "--script", "docs/demo-game.txt", "--seed", "7"]
        for cmd in (ours, theirs, ruling, console):  # warm the OS file cache and build the rulings index
            _time(cmd, env)
        a: list[float] = []
        b: list[float] = []
        for _ in range(args.runs):
            a.append(_time(ours, env))
            b.append(_time(theirs, env))
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        others = {"referee ruling (index built)": ruling, "referee console (demo game, 86 lines)": console}
        timed = {name: [_time(cmd, env) for _ in range(max(3, args.runs // 3))] for name, cmd in others.items()}
    ratio = statistics.median(ratios)
    verdict = "yes" if ratio <= TARGET else "NO"
    print(
        f"referee roll 3d6 vs d20 one-liner: {ratio:.2f}x (median of {len(ratios)} paired runs); "
        f"within {TARGET}x: {verdict}"
    )
    print(_row("referee roll 3d6", a))
    print(_row("python -c 'import d20; d20.roll(\"3d6\")'", b))
    for name, times in timed.items():
        print(_row(name, times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
