#!/usr/bin/env python3
"""gnugo_agreement.py — does `tengen score` count finished games as GNU Go does?

Plays GNU Go 3.8 against itself (GTP, --chinese-rules, komi 7.5) until two
passes in a row or a move cap, asks GNU Go's `final_score`, writes the game
as SGF, counts it with `tengen score --json` (dead stones estimated), and
compares: the winner must agree in at least --min-agreement of the counted
games, and the margins must differ by at most --max-diff points in every
counted game.  Games GNU Go resigns or that reach the move cap are not
counted.  Nothing is cached between runs.

    gnugo_agreement.py --tengen build/tengen --size 9 --games 40 --size 13 --games 20

Exit status: 0 pass, 1 fail, 2 usage or setup error.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    """A GNU Go process spoken to over GTP."""

    def __init__(self, gnugo, level, seed):
        self.proc = subprocess.Popen(
            [gnugo, "--mode", "gtp", "--chinese-rules", "--level", str(level),
             "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("gnugo exited on: " + command)
            line = line.strip()
            if not line:
                if lines:
                    break
                continue
            lines.append(line)
        answer = " ".join(lines)
        if not answer.startswith("="):
            raise RuntimeError("gnugo refused %r: %s" % (command, answer))
        return answer[1:].strip()

    def close(self):
        try:
            self.ask("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.proc.wait()


def sgf_point(vertex, size):
    col = COLUMNS.index(vertex[0].upper())
    row = size - int(vertex[1:])
    return "abcdefghijklmnopqrstuvwxy"[col] + "abcdefghijklmnopqrstuvwxy"[row]


def self_play(gnugo, size, level, seed, komi):
    """Returns (moves, gnugo_result) or (moves, None) for a game not counted."""
    gtp = Gtp(gnugo, level, seed)
    try:
        gtp.ask("boardsize %d" % size)
        gtp.ask("clear_board")
        gtp.ask("komi %s" % komi)
        moves, passes, colour = [], 0, "B"
        while passes < 2 and len(moves) < 3 * size * size:
            vertex = gtp.ask("genmove " + colour).upper()
            if vertex == "RESIGN":
                return moves, None
            moves.append((colour, vertex))
            passes = passes + 1 if vertex == "PASS" else 0
            colour = "W" if colour == "B" else "B"
        if passes < 2:
            return moves, None
        return moves, gtp.ask("final_score")
    finally:
        gtp.close()


def write_sgf(path, size, komi, moves, result, comment):
    nodes = "".join(";%s[%s]" % (c, "" if v == "PASS" else sgf_point(v, size))
                    for c, v in moves)
    with open(path, "w") as f:
        f.write("(;FF[4]GM[1]SZ[%d]KM[%s]RU[Chinese]PB[GNU Go]PW[GNU Go]RE[%s]GC[%s]%s)\n"
                % (size, komi, result, comment, nodes))


def signed_margin(result):
    """'B+3.5' -> 3.5, 'W+2' -> -2, '0' -> 0."""
    if result in ("0", "Draw", "Jigo"):
        return 0.0
    sign = 1.0 if result[0] == "B" else -1.0
    return sign * float(result[2:])


def run_one(args, size, level, seed, workdir):
    moves, gnugo_result = self_play(args.gnugo, size, level, seed, args.komi)
    name = "gnugo-%dx%d-L%d-s%d.sgf" % (size, size, level, seed)
    path = os.path.join(workdir, name)
    write_sgf(path, size, args.komi, moves, gnugo_result or "?",
              "GNU Go 3.8 self-play, level %d, seed %d" % (level, seed))
    if gnugo_result is None:
        return {"game": name, "counted": False}
    out = subprocess.run([args.tengen, "score", "--json", "--playouts", str(args.playouts),
                          path], capture_output=True, text=True)
    if out.returncode != 0:
        return {"game": name, "counted": True, "error": out.stderr.strip()}
    tengen = json.loads(out.stdout)
    return {"game": name, "counted": True, "moves": len(moves), "gnugo": gnugo_result,
            "tengen": tengen["result"], "gnugo_margin": signed_margin(gnugo_result),
            "tengen_margin": float(tengen["margin"])}


def winner(margin):
    return "B" if margin > 0 else "W" if margin < 0 else "0"


def judge(games, args):
    counted = [g for g in games if g["counted"]]
    errors = [g for g in counted if "error" in g]
    for g in errors:
        print("ERROR %s: %s" % (g["game"], g["error"]))
    scored = [g for g in counted if "error" not in g]
    agree = [g for g in scored if winner(g["gnugo_margin"]) == winner(g["tengen_margin"])]
    far = [g for g in scored if abs(g["gnugo_margin"] - g["tengen_margin"]) > args.max_diff]
    for g in scored:
        diff = g["tengen_margin"] - g["gnugo_margin"]
        flag = "" if abs(diff) <= args.max_diff else "   <-- margin differs by %g" % diff
        if winner(g["gnugo_margin"]) != winner(g["tengen_margin"]):
            flag += "   <-- winner differs"
        if flag or args.verbose:
            print("%-28s moves %3d  gnugo %-7s tengen %-7s%s"
                  % (g["game"], g["moves"], g["gnugo"], g["tengen"], flag))
    n = len(scored)
    rate = len(agree) / n if n else 0.0
    print("games %d, counted %d (not counted: %d resigned or capped), errors %d"
          % (len(games), len(counted), len(games) - len(counted), len(errors)))
    print("winner agreement %d/%d = %.1f%% (need %.1f%%)"
          % (len(agree), n, 100 * rate, 100 * args.min_agreement))
    print("margin within %g points: %d/%d; beyond: %d"
          % (args.max_diff, n - len(far), n, len(far)))
    ok = n > 0 and not errors and rate >= args.min_agreement and len(far) <= args.max_far
    print("PASS" if ok else "FAIL")
    return ok


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tengen", default=os.environ.get("TENGEN_BIN", "tengen"))
    p.add_argument("--gnugo", default="/usr/games/gnugo")
    p.add_argument("--size", type=int, action="append", help="board size (repeatable)")
    p.add_argument("--games", type=int, action="append", help="games for the matching --size")
    p.add_argument("--levels", default="1", help="GNU Go levels, comma-separated, used in turn")
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--komi", default="7.5")
    p.add_argument("--playouts", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--min-agreement", type=float, default=0.97)
    p.add_argument("--max-diff", type=float, default=2.0)
    p.add_argument("--max-far", type=int, default=0,
                   help="games allowed beyond --max-diff (default 0)")
    p.add_argument("--keep", help="directory to keep the SGF files in")
    p.add_argument("--verbose", action="store_true")
    a = p.parse_args()
    a.size = a.size or [9, 13]
    a.games = a.games or [40] * len(a.size)
    if len(a.games) != len(a.size):
        p.error("give one --games per --size")
    a.levels = [int(x) for x in a.levels.split(",")]
    return a


def main():
    args = parse_args()
    specs = []
    for size, count in zip(args.size, args.games):
        for i in range(count):
            specs.append((size, args.levels[i % len(args.levels)], args.first_seed + i))
    with tempfile.TemporaryDirectory(prefix="tengen-gnugo-") as tmp:
        workdir = args.keep or tmp
        os.makedirs(workdir, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            games = list(pool.map(lambda s: run_one(args, s[0], s[1], s[2], workdir), specs))
    return 0 if judge(games, args) else 1


if __name__ == "__main__":
    sys.exit(main())
