#!/usr/bin/env python3
"""train_value.py — learns tengen's value function (src/engine/value.c).

Reads the records of tools/gen_value (positions of self-play, each with the
verdict of a search from it) and their input planes (gen_value --planes),
fits the network value.c evaluates, and writes its weights as a weights
file (src/engine/weights.h; data/value9.tgw is the one built in).

    h = relu(conv3x3(planes) + b); h = relu(h + conv3x3(h) + b) (blocks times)
    ownership = tanh(conv1x1(h))   (for the side to move: +1 its, -1 the opponent's)
    m         = (sum(ownership) + komi for the mover) / points
    value     = sigmoid(a m points + w2 . relu(W1 [mean(h), m] + b1) + b2)

The value is fitted to the winrate the search gave the side to move (a soft
target, by cross-entropy), the ownership to the search's ownership map seen
from the side to move (squared error): its 81 targets a position teach the
trunk what belongs to whom, which the one winrate alone teaches slowly.
Each batch is seen under one of the eight symmetries of the board.  The
last tenth of each file (whole games, the files are written in order) is
held out.

Needs Debian's python3-torch and python3-numpy.

usage: train_value.py --size 9 --komi 7.5 --out data/value9.tgw
                      RECORDS.bin PLANES.bin [RECORDS.bin PLANES.bin ...]
"""
import argparse
import struct
import math
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PLANES = 11


def load(pairs, n, outcome_weight):
    rec_dtype = np.dtype([('color', np.uint8, n * n), ('to_move', np.uint8), ('ko', '<i2'), ('last', '<i2'),
                          ('best', '<f4'), ('mean', '<f4'), ('own', '<f4', n * n), ('outcome', '<f4')])
    train, test = [], []
    for rec_path, planes_path in pairs:
        r = np.fromfile(rec_path, dtype=rec_dtype)
        p = np.fromfile(planes_path, dtype=np.uint8)
        count = min(len(r), len(p) // (n * n * PLANES))
        r = r[:count]
        p = p[:count * n * n * PLANES].reshape(count, n, n, PLANES).transpose(0, 3, 1, 2)
        sign = np.where(r['to_move'] == 1, 1.0, -1.0).astype(np.float32)[:, None]
        own = (r['own'] * sign).reshape(count, n, n)
        cut = int(count * 0.9)
        target = (1 - outcome_weight) * r['best'] + outcome_weight * r['outcome']
        train.append((p[:cut], target[:cut], own[:cut]))
        test.append((p[cut:], r['best'][cut:], own[cut:], r['outcome'][cut:]))

    def cat(parts):
        return (torch.from_numpy(np.ascontiguousarray(np.concatenate([x[0] for x in parts]))),) + tuple(
            torch.from_numpy(np.concatenate([x[k] for x in parts]).astype(np.float32)) for k in range(1, len(parts[0])))
    return cat(train), cat(test)


class Net(nn.Module):
    def __init__(self, channels, blocks, hidden, komi):
        super().__init__()
        self.komi = komi
        self.margin_w = nn.Parameter(torch.tensor(0.1))
        self.inp = nn.Conv2d(PLANES, channels, 3, padding=1)
        self.blocks = nn.ModuleList([nn.Conv2d(channels, channels, 3, padding=1) for _ in range(blocks)])
        for b in self.blocks:
            nn.init.normal_(b.weight, std=0.5 / math.sqrt(9 * channels))
            nn.init.zeros_(b.bias)
        self.v1 = nn.Linear(channels + 1, hidden)
        self.v2 = nn.Linear(hidden, 1)
        self.own = nn.Conv2d(channels, 1, 1)

    def forward(self, x):
        h = F.relu(self.inp(x))
        for b in self.blocks:
            h = F.relu(h + b(h))
        own = torch.tanh(self.own(h))
        points = x.shape[-1] * x.shape[-2]
        # plane 10 is 1 when the mover is White, who has the komi
        komi = (x[:, 10, 0, 0] * 2 - 1) * self.komi
        m = (own.sum(dim=(1, 2, 3)) + komi) / points
        pooled = torch.cat([h.mean(dim=(2, 3)), m[:, None]], dim=1)
        v = (self.v2(F.relu(self.v1(pooled))).squeeze(1) + self.margin_w * m * points)
        return v, own.squeeze(1)


def load_c(net, path):
    """Sets the weights of net from a data/value9.tgw that export() wrote, so
    that a network learnt before goes on learning from new positions."""
    import re
    text = open(path).read()
    arrays = {m.group(1): torch.tensor([float(v.rstrip('f')) for v in m.group(3).replace(',', ' ').split()])
              for m in re.finditer(r'static const float (\w+)\[(\d+)\] = \{([^}]*)\};', text)}
    c = net.inp.out_channels
    with torch.no_grad():
        net.inp.weight.copy_(arrays['in_w'].view(3, 3, PLANES, c).permute(3, 2, 0, 1))
        net.inp.bias.copy_(arrays['in_b'])
        bw = arrays['block_w'].view(len(net.blocks), 3, 3, c, c)
        for k, b in enumerate(net.blocks):
            b.weight.copy_(bw[k].permute(3, 2, 0, 1))
            b.bias.copy_(arrays['block_b'].view(len(net.blocks), c)[k])
        net.own.weight.copy_(arrays['own_w'].view(1, c, 1, 1))
        net.own.bias.copy_(arrays['own_b'])
        net.v1.weight.copy_(arrays['v1_w'].view(c + 1, -1).t())
        net.v1.bias.copy_(arrays['v1_b'])
        net.v2.weight.copy_(arrays['v2_w'].view(1, -1))
        net.v2.bias.copy_(arrays['v2_b'])
        net.margin_w.fill_(float(re.search(r'v2_w, v2_b, ([-0-9.e]+)f\}', text).group(1)))


def symmetry(t, x):
    if t & 1:
        x = x.flip(-2)
    if t & 2:
        x = x.flip(-1)
    if t & 4:
        x = x.transpose(-2, -1)
    return x


def evaluate(net, data, batch=4096):
    net.eval()
    planes, best, own, outcome = data
    bce = mse = sq = sq_outcome = 0.0
    with torch.no_grad():
        for i in range(0, len(best), batch):
            x = planes[i:i + batch].float()
            v, o = net(x)
            bce += F.binary_cross_entropy_with_logits(v, best[i:i + batch], reduction='sum').item()
            sq += ((torch.sigmoid(v) - best[i:i + batch]) ** 2).sum().item()
            sq_outcome += ((torch.sigmoid(v) - outcome[i:i + batch]) ** 2).sum().item()
            mse += ((o - own[i:i + batch]) ** 2).mean(dim=(1, 2)).sum().item()
    net.train()
    n = len(best)
    return bce / n, math.sqrt(sq / n), mse / n, math.sqrt(sq_outcome / n)


def tensor_bytes(name, t, dims):
    """One tensor of a weights file (src/engine/weights.h): f32, little-endian."""
    flat = t.detach().contiguous().view(-1).tolist()
    n = 1
    for d in dims:
        n *= d
    assert len(flat) == n, (name, len(flat), dims)
    raw = name.encode()
    head = struct.pack('<B', len(raw)) + raw + struct.pack('<BB', 1, len(dims)) + struct.pack('<%dI' % len(dims), *dims)
    return head + struct.pack('<%df' % n, *flat)


def export(net, args, summary, path):
    """The network as a weights file (kind 2, a value network), the format
    src/engine/weights.h reads: data/value9.tgw for 9x9 and komi 7.5."""
    c, h, blocks = args.channels, args.hidden, len(net.blocks)
    # convolutions as [3][3][in][out], the layout value.c reads
    tensors = [
        tensor_bytes('in_w', net.inp.weight.permute(2, 3, 1, 0), [3, 3, 11, c]),
        tensor_bytes('in_b', net.inp.bias, [c]),
        tensor_bytes('block_w', torch.stack([b.weight.permute(2, 3, 1, 0) for b in net.blocks]), [blocks, 9, c, c]),
        tensor_bytes('block_b', torch.stack([b.bias for b in net.blocks]), [blocks, c]),
        tensor_bytes('own_w', net.own.weight.view(-1), [c]),
        tensor_bytes('own_b', net.own.bias, [1]),
        tensor_bytes('v1_w', net.v1.weight.t(), [c + 1, h]),
        tensor_bytes('v1_b', net.v1.bias, [h]),
        tensor_bytes('v2_w', net.v2.weight.view(-1), [h]),
        tensor_bytes('v2_b', net.v2.bias, [1]),
        tensor_bytes('margin_w', net.margin_w.view(-1), [1]),
    ]
    header = b'TGWT' + struct.pack('<IIiiI', 1, 2, args.size, int(round(2 * args.komi)), len(tensors))
    with open(path, 'wb') as f:
        f.write(header + b''.join(tensors))
    print('wrote %s: %s' % (path, summary))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--size', type=int, default=9)
    ap.add_argument('--komi', type=float, default=7.5)
    ap.add_argument('--channels', type=int, default=32)
    ap.add_argument('--blocks', type=int, default=5)
    ap.add_argument('--hidden', type=int, default=32)
    ap.add_argument('--epochs', type=int, default=8)
    ap.add_argument('--batch', type=int, default=256)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--own-weight', type=float, default=1.0)
    ap.add_argument('--outcome-weight', type=float, default=0.0,
                    help="weight of the game's outcome beside the search's winrate in the value's target")
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--init', help='start from the weights of this data/value9.tgw instead of at random')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', required=True)
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    if len(args.files) % 2:
        sys.exit('train_value.py: give RECORDS.bin PLANES.bin pairs')
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    train, test = load(list(zip(args.files[0::2], args.files[1::2])), args.size, args.outcome_weight)
    n = len(train[1])
    base = test[1].mean().item()
    const_bce = -(test[1] * math.log(base) + (1 - test[1]) * math.log(1 - base)).mean().item()
    print('train %d positions, test %d; test target mean %.3f, constant guess: cross-entropy %.4f, rmse %.4f; '
          "the search's winrate to the outcome %.4f"
          % (n, len(test[1]), base, const_bce, test[1].std().item(),
             ((test[1] - test[3]) ** 2).mean().sqrt().item()), flush=True)
    net = Net(args.channels, args.blocks, args.hidden, args.komi)
    rmse = float('nan')
    if args.init:
        load_c(net, args.init)
        bce, rmse, mse, rmse_outcome = evaluate(net, test)
        print('%s: test cross-entropy %.4f, rmse %.4f, ownership mse %.4f; rmse to the outcome %.4f'
              % (args.init, bce, rmse, mse, rmse_outcome), flush=True)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=1e-5)
    steps = args.epochs * (n // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(steps, 1))
    step = 0
    for epoch in range(args.epochs):
        perm = torch.randperm(n)
        for i in range(0, n - args.batch + 1, args.batch):
            idx = perm[i:i + args.batch]
            t = int(torch.randint(8, (1,)))
            x = symmetry(t, train[0][idx].float())
            o_target = symmetry(t, train[2][idx])
            v, o = net(x)
            loss = F.binary_cross_entropy_with_logits(v, train[1][idx]) + args.own_weight * F.mse_loss(o, o_target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
        bce, rmse, mse, rmse_outcome = evaluate(net, test)
        print('epoch %d: test cross-entropy %.4f, rmse %.4f, ownership mse %.4f; rmse to the outcome %.4f'
              % (epoch + 1, bce, rmse, mse, rmse_outcome), flush=True)
    summary = ('%d channels, %d blocks; %d positions, held-out rmse %.4f of the search\'s winrate '
               '(a constant guess: %.4f)' % (args.channels, args.blocks, n, rmse, test[1].std().item()))
    export(net, args, summary, args.out)
    print('wrote', args.out)


if __name__ == '__main__':
    main()
