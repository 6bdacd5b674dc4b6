#!/usr/bin/env python3
"""gnugo_agreement.py — does `tengen score` count finished games as GNU Go does?

Plays GNU Go 3.8 against itself (GTP, --chinese-rules, komi 7.5) until two
passes in a row or a move cap, asks GNU Go's `final_score`, writes the game
as SGF, counts it with `tengen score --json` (dead stones estimated), and
compares.  For each board size, in at least --min-agreement (97%) of the
counted games the winner must agree, and as many must have margins at most
--max-diff (2) points apart; every game beyond that is listed.  Games GNU Go
resigns or that reach the move cap are not counted.  Nothing is cached
between runs.

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
    name = "gnugo-%dx%d-L%d-s%d.sgf" % (size, size, level, seed)
    try:
        moves, gnugo_result = self_play(args.gnugo, size, level, seed, args.komi)
    except (RuntimeError, OSError) as e:
        return {"game": name, "size": size, "counted": True, "error": "GNU Go: %s" % e}
    path = os.path.join(workdir, name)
    write_sgf(path, size, args.komi, moves, gnugo_result or "?",
              "GNU Go 3.8 self-play, level %d, seed %d" % (level, seed))
    if gnugo_result is None:
        return {"game": name, "size": size, "counted": False}
    out = subprocess.run([args.tengen, "score", "--json", "--playouts", str(args.playouts),
                          path], capture_output=True, text=True)
    if out.returncode != 0:
        return {"game": name, "size": size, "counted": True, "error": out.stderr.strip()}
    tengen = json.loads(out.stdout)
    return {"game": name, "size": size, "counted": True, "moves": len(moves), "gnugo": gnugo_result,
            "tengen": tengen["result"], "gnugo_margin": signed_margin(gnugo_result),
            "tengen_margin": float(tengen["margin"])}


def winner(margin):
    return "B" if margin > 0 else "W" if margin < 0 else "0"


def report(games, args):
    """Print the games that disagree; returns the games that were scored."""
    for g in games:
        if "error" in g:
            print("ERROR %s: %s" % (g["game"], g["error"]))
    scored = [g for g in games if g["counted"] and "error" not in g]
    for g in scored:
        diff = g["tengen_margin"] - g["gnugo_margin"]
        flag = "" if abs(diff) <= args.max_diff else "   <-- margin differs by %g" % diff
        if winner(g["gnugo_margin"]) != winner(g["tengen_margin"]):
            flag += "   <-- winner differs"
        if flag or args.verbose:
            print("%-28s moves %3d  gnugo %-7s tengen %-7s%s"
                  % (g["game"], g["moves"], g["gnugo"], g["tengen"], flag))
    return scored


def judge_size(size, games, args):
    """Summary line for one board size; True when it meets the thresholds."""
    scored = [g for g in games if g["counted"] and "error" not in g]
    errors = sum(1 for g in games if "error" in g)
    n = len(scored)
    agree = sum(1 for g in scored if winner(g["gnugo_margin"]) == winner(g["tengen_margin"]))
    exact = sum(1 for g in scored if g["gnugo_margin"] == g["tengen_margin"])
    within = sum(1 for g in scored if abs(g["gnugo_margin"] - g["tengen_margin"]) <= args.max_diff)
    print("%dx%d: %d games, %d counted, %d errors; winner agrees in %d/%d (%.1f%%); "
          "margin equal in %d, within %g points in %d/%d (%.1f%%), beyond in %d"
          % (size, size, len(games), n, errors, agree, n, 100.0 * agree / max(n, 1), exact,
             args.max_diff, within, n, 100.0 * within / max(n, 1), n - within))
    return (n > 0 and errors == 0 and agree >= args.min_agreement * n
            and within >= args.min_agreement * n)


def judge(games, args):
    report(games, args)
    ok = True
    for size in args.size:
        ok &= judge_size(size, [g for g in games if g["size"] == size], args)
    print("PASS" if ok else "FAIL (need %.1f%% of the games of each size to agree on the "
          "winner and to be within %g points)" % (100 * args.min_agreement, args.max_diff))
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
