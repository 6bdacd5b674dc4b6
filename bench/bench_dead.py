#!/usr/bin/env python3
"""bench_dead.py — how often the dead-stone estimate counts a finished game
as it was counted: tengen's (`tengen score`, the count every front end gives)
beside GNU Go's final_score, on the same positions, as counts and ratios.

Two samples (either may be left out):
  --games DIR     finished games under DIR (recursively): an SGF whose RE is
                  a counted result (B+n / W+n) and whose main line ends with
                  two passes; --limit N takes N of them spread evenly over the
                  sorted list, so one DIR and N give one sample.
  --score-tst F   a GNU Go regression file of `loadsgf` + `final_score` lines
                  with their expected answers (#? [W\\+32.5]); the SGF paths are
                  relative to F's folder; commented-out tests are skipped.

For each position: whether each program names the recorded winner, and
whether it gives the exact margin.  GNU Go is asked in its own rules
(Japanese; --chinese-rules where the SGF's RU says Chinese), tengen under the
rules the SGF names (RU), as `tengen score` does, and under --default-rules
(japanese) where it names none.  GNU Go's answers do not
change between runs, so --gnugo-cache FILE keeps them (JSON) for the next run.

Figures, never assertions: the exit status is 0 whatever the counts.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

RESULT = re.compile(r'^\s*([BW])\+([0-9]+(?:\.[0-9]+)?)\s*$')


def parse_result(text):
    """('B', 7.5) from 'B+7.5'; None for anything else (resign, time, 0)."""
    m = RESULT.match(text or '')
    return (m.group(1), float(m.group(2))) if m else None


def finished_games(root, limit):
    games = []
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith('.sgf'):
                continue
            path = os.path.join(folder, name)
            with open(path, errors='replace') as f:
                text = f.read()
            m = re.search(r'RE\[([^\]]*)\]', text)
            if not m or not parse_result(m.group(1)):
                continue
            moves = re.findall(r';\s*[BW]\[([a-z]*)\]', text)
            if len(moves) < 2 or any(mv not in ('', 'tt') for mv in moves[-2:]):
                continue
            games.append((path, parse_result(m.group(1)), 'RU[Chinese]' in text or 'RU[chinese]' in text))
    games.sort()
    if limit and len(games) > limit:
        step = len(games) / limit
        games = [games[int(i * step)] for i in range(limit)]
    return games


def score_tst_positions(path):
    folder = os.path.dirname(os.path.abspath(path))
    positions, sgf = [], None
    with open(path) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith('loadsgf '):
            sgf = os.path.join(folder, line.split()[1])
        elif re.match(r'^\d+ final_score', line) and sgf:
            for answer in lines[i + 1:i + 3]:
                m = re.match(r'^#\? \[(.*)\]\*?\s*$', answer)
                if m:
                    expected = parse_result(m.group(1).replace('\\', ''))
                    if expected:
                        positions.append((sgf, expected, False))
                    break
    return positions


def tengen_score(tengen, path, default_rules, extra):
    rules = list(extra)
    with open(path, errors='replace') as f:
        if default_rules and 'RU[' not in f.read():
            rules = ['--rules', default_rules]
    out = subprocess.run([tengen, 'score', '--json'] + rules + [path], capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        return None
    try:
        return parse_result(json.loads(out.stdout).get('result', ''))
    except ValueError:
        return None


def gnugo_score(gnugo, path, chinese):
    args = [gnugo, '--mode', 'gtp'] + (['--chinese-rules'] if chinese else [])
    commands = 'loadsgf %s\nfinal_score\nquit\n' % path
    out = subprocess.run(args, input=commands, capture_output=True, text=True, timeout=1200)
    answers = [a for a in out.stdout.split('\n\n') if a.strip()]
    if len(answers) < 2 or not answers[1].startswith('='):
        return None
    return parse_result(answers[1][1:].strip())


def agreement(recorded, got):
    if not got:
        return False, False
    return got[0] == recorded[0], got == recorded


def run_sample(name, positions, args, cache):
    def gnugo_answer(pos):
        path, _, chinese = pos
        key = '%s%s' % (os.path.abspath(path), ' chinese' if chinese else '')
        if key not in cache:
            got = gnugo_score(args.gnugo, path, chinese)
            cache[key] = list(got) if got else None
        return tuple(cache[key]) if cache[key] else None

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        tengen = list(pool.map(lambda p: tengen_score(args.tengen, p[0], args.default_rules, args.tengen_args.split()), positions))
        gnugo = list(pool.map(gnugo_answer, positions)) if args.gnugo else [None] * len(positions)
    counts = {'tengen': [0, 0], 'gnugo': [0, 0]}
    for pos, t, g in zip(positions, tengen, gnugo):
        path, recorded, _ = pos
        tw, te = agreement(recorded, t)
        gw, ge = agreement(recorded, g)
        for who, (w, e) in (('tengen', (tw, te)), ('gnugo', (gw, ge))):
            counts[who][0] += w
            counts[who][1] += e
        if args.verbose or (not te and ge) or (not tw and gw):
            fmt = lambda r: '%s+%g' % r if r else '-'
            print('  %-60s recorded %-8s tengen %-8s%s gnugo %-8s%s' % (
                os.path.relpath(path, args.relative_to), fmt(recorded), fmt(t),
                '' if te else (' (margin)' if tw else ' (WINNER)'), fmt(g),
                '' if ge else (' (margin)' if gw else ' (WINNER)')))
    n = len(positions)
    print('%s: %d positions' % (name, n))
    for who in ('tengen', 'gnugo'):
        if who == 'gnugo' and not args.gnugo:
            continue
        w, e = counts[who]
        print('  %-7s winner %3d/%d (%.2f)   exact margin %3d/%d (%.2f)' % (
            who, w, n, w / max(n, 1), e, n, e / max(n, 1)))
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--tengen', default='build/tengen')
    ap.add_argument('--gnugo', default='/usr/games/gnugo', help="GNU Go ('' to leave it out)")
    ap.add_argument('--games', help='folder of finished SGF games')
    ap.add_argument('--limit', type=int, default=100)
    ap.add_argument('--score-tst', help="GNU Go's regression/score.tst")
    ap.add_argument('--gnugo-cache', help="JSON file keeping GNU Go's answers between runs")
    ap.add_argument('--default-rules', default='japanese',
                    help="tengen's rules where the SGF names none (RU): GNU Go's default, and the "
                         "servers' of its regression games ('' for tengen's own default)")
    ap.add_argument('--tengen-args', default='', help="options added to `tengen score`'s, e.g. '--playouts 4000'")
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--relative-to', default='.')
    ap.add_argument('-v', '--verbose', action='store_true', help='every position, not only the differences')
    args = ap.parse_args()
    cache = {}
    if args.gnugo_cache and os.path.exists(args.gnugo_cache):
        with open(args.gnugo_cache) as f:
            cache = json.load(f)
    try:
        if args.games:
            run_sample('finished games under %s' % args.games, finished_games(args.games, args.limit), args, cache)
        if args.score_tst:
            run_sample(args.score_tst, score_tst_positions(args.score_tst), args, cache)
    finally:
        if args.gnugo_cache:
            with open(args.gnugo_cache, 'w') as f:
                json.dump(cache, f, indent=0, sort_keys=True)


if __name__ == '__main__':
    main()
