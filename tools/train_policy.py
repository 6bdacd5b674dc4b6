#!/usr/bin/python3
"""train_policy.py — learns tengen's 19x19 policy network (src/engine/policy_net.c).

Reads the positions tools/gen_policy wrote from game records (the input
planes of policy_net_planes, the move played, the game's outcome for the
mover), fits the network policy_net.c evaluates, and writes its weights as a
weights file (src/engine/weights.h, kind 3).

    h = relu(conv3x3(planes) + b); h = relu(h + conv3x3(h) + b)   (blocks times)
    a point's logit = pol_w . h + pol_b;  the pass's = pass_w . mean(h) + pass_b
    winrate = sigmoid(v2 . relu(v1 mean(h) + b1) + b2)

The policy is fitted by cross-entropy over the search's candidates (plane
12) and the pass, the value head by cross-entropy to the game's outcome
(VALUE_WEIGHT of the loss).  Each batch is seen under one of the eight
symmetries of the board.  Training runs for --minutes (or --steps) and
saves a checkpoint (--checkpoint) every few minutes and at the end, from
which --resume carries on: the weights, the optimizer's state, the step
and where in the data it was.  --test FILE: positions of held-out games,
on which the network's top-1 and top-5 accuracy and the move model's
(plane 13's first choices) are reported.

Needs Debian's python3-torch and python3-numpy (run it with /usr/bin/python3).

usage: train_policy.py --data TRAIN.bin --test TEST.bin --out policy19.tgw
                       [--checkpoint ckpt.pt] [--resume] [--minutes M]
       train_policy.py --golden WEIGHTS.tgw POSITIONS.bin OUT.txt
           (the network's outputs by torch, for tests/test_policy_net.c)
"""
import argparse
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N = 19
PLANES = 15
PLANE_BYTES = 46
BINARY = PLANES - 1
RECORD = BINARY * PLANE_BYTES + N * N + 3
VALUE_WEIGHT = 0.25
MODEL_PLANE = 13
CANDIDATE_PLANE = 12


def records(path):
    data = np.memmap(path, dtype=np.uint8, mode='r')
    n = len(data) // RECORD
    return data[:n * RECORD].reshape(n, RECORD)


def decode(rows):
    """planes (B, 15, 19, 19) float, move (B,) long, outcome (B,) float in {-1, 0, 1}"""
    rows = np.asarray(rows)
    b = len(rows)
    bits = np.unpackbits(rows[:, :BINARY * PLANE_BYTES].reshape(b, BINARY, PLANE_BYTES), axis=2)[:, :, :N * N]
    model = rows[:, BINARY * PLANE_BYTES:BINARY * PLANE_BYTES + N * N].view(np.int8).astype(np.float32) / 30
    planes = np.empty((b, PLANES, N * N), dtype=np.float32)
    planes[:, :MODEL_PLANE] = bits[:, :MODEL_PLANE]
    planes[:, MODEL_PLANE] = model
    planes[:, MODEL_PLANE + 1:] = bits[:, MODEL_PLANE:]
    tail = rows[:, BINARY * PLANE_BYTES + N * N:]
    move = tail[:, 0].astype(np.int64) | (tail[:, 1].astype(np.int64) << 8)
    outcome = tail[:, 2].view(np.int8).astype(np.float32)
    return (torch.from_numpy(planes.reshape(b, PLANES, N, N)), torch.from_numpy(move),
            torch.from_numpy(outcome))


def symmetry(t, x):
    """x (..., y, x) seen under symmetry t, as policy_net_transform does it:
    swap x and y (t & 4), then mirror x (t & 1), then y (t & 2)."""
    if t & 4:
        x = x.transpose(-2, -1)
    if t & 1:
        x = x.flip(-1)
    if t & 2:
        x = x.flip(-2)
    return x


def move_symmetry(t, move):
    y, x = move // N, move % N
    if t & 4:
        x, y = y, x
    if t & 1:
        x = N - 1 - x
    if t & 2:
        y = N - 1 - y
    return torch.where(move == N * N, move, y * N + x)


class Net(nn.Module):
    def __init__(self, channels, blocks, hidden):
        super().__init__()
        self.inp = nn.Conv2d(PLANES, channels, 3, padding=1)
        self.blocks = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(blocks))
        for b in self.blocks:  # each block starts near the identity
            nn.init.normal_(b.weight, std=0.3 / math.sqrt(9 * channels))
            nn.init.zeros_(b.bias)
        self.pol = nn.Conv2d(channels, 1, 1)
        self.pass_ = nn.Linear(channels, 1)
        self.v1 = nn.Linear(channels, hidden)
        self.v2 = nn.Linear(hidden, 1)

    def forward(self, x):
        h = F.relu(self.inp(x))
        for b in self.blocks:
            h = F.relu(h + b(h))
        mean = h.mean(dim=(2, 3))
        logits = torch.cat([self.pol(h).flatten(1), self.pass_(mean)], dim=1)
        value = self.v2(F.relu(self.v1(mean))).squeeze(1)
        return logits, value


def masked(logits, planes, move=None):
    """The logits of the candidates and the pass; the others far below
    (the move played kept, should it be no candidate)."""
    mask = torch.cat([planes[:, CANDIDATE_PLANE].flatten(1), torch.ones(len(planes), 1)], dim=1) > 0
    if move is not None:
        mask = mask.scatter(1, move.view(-1, 1), True)
    return logits.masked_fill(~mask, -30.0)


def accuracy(net, data, batch=2048):
    """top-1 and top-5 of the network, top-1 and top-5 of the move model
    (plane 13), the policy's loss and the value's, on data."""
    net.eval()
    hit = torch.zeros(4)
    loss = vloss = 0.0
    n = nv = 0
    with torch.no_grad():
        for i in range(0, len(data), batch):
            planes, move, outcome = decode(data[i:i + batch])
            logits, value = net(planes)
            logits = masked(logits, planes)
            loss += F.cross_entropy(masked(logits, planes, move), move, reduction='sum').item()
            top = logits.topk(5, dim=1).indices
            hit[0] += (top[:, 0] == move).sum()
            hit[1] += (top == move.view(-1, 1)).any(dim=1).sum()
            model = planes[:, MODEL_PLANE].flatten(1)
            model = torch.cat([model.masked_fill(planes[:, CANDIDATE_PLANE].flatten(1) == 0, -1e9),
                               torch.full((len(planes), 1), -1e9)], dim=1)
            mtop = model.topk(5, dim=1).indices
            hit[2] += (mtop[:, 0] == move).sum()
            hit[3] += (mtop == move.view(-1, 1)).any(dim=1).sum()
            known = outcome != 0
            if known.any():
                vloss += F.binary_cross_entropy_with_logits(value[known], (outcome[known] > 0).float(),
                                                            reduction='sum').item()
                nv += int(known.sum())
            n += len(move)
    net.train()
    return (hit / max(n, 1)).tolist(), loss / max(n, 1), vloss / max(nv, 1)


def tensor_bytes(name, t, dims):
    """One tensor of a weights file (src/engine/weights.h): f32, little-endian."""
    flat = t.detach().contiguous().view(-1).numpy().astype('<f4')
    assert flat.size == int(np.prod(dims)), (name, flat.size, dims)
    raw = name.encode()
    return (struct.pack('<B', len(raw)) + raw + struct.pack('<BB', 1, len(dims)) +
            struct.pack('<%dI' % len(dims), *dims) + flat.tobytes())


def export(net, path):
    """The network as a weights file of kind 3 (a policy network) for 19x19,
    any komi; convolutions as [3][3][in][out], the layout nn.c reads."""
    c = net.inp.out_channels
    h = net.v1.out_features
    blocks = len(net.blocks)
    tensors = [
        tensor_bytes('in_w', net.inp.weight.permute(2, 3, 1, 0), [3, 3, PLANES, c]),
        tensor_bytes('in_b', net.inp.bias, [c]),
        tensor_bytes('block_w', torch.stack([b.weight.permute(2, 3, 1, 0) for b in net.blocks]), [blocks, 9, c, c]),
        tensor_bytes('block_b', torch.stack([b.bias for b in net.blocks]), [blocks, c]),
        tensor_bytes('pol_w', net.pol.weight.view(-1), [c]),
        tensor_bytes('pol_b', net.pol.bias, [1]),
        tensor_bytes('pass_w', net.pass_.weight.view(-1), [c]),
        tensor_bytes('pass_b', net.pass_.bias, [1]),
        tensor_bytes('v1_w', net.v1.weight.t(), [c, h]),
        tensor_bytes('v1_b', net.v1.bias, [h]),
        tensor_bytes('v2_w', net.v2.weight.view(-1), [h]),
        tensor_bytes('v2_b', net.v2.bias, [1]),
    ]
    header = b'TGWT' + struct.pack('<IIiiI', 1, 3, N, -2 ** 31, len(tensors))
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(header + b''.join(tensors))
    os.replace(tmp, path)


def load_tgw(path):
    """A network from its weights file (what export wrote, read back as the
    C loader reads it), to check the file and to make golden outputs."""
    data = open(path, 'rb').read()
    assert data[:4] == b'TGWT', 'not a weights file'
    version, kind, size, komi2, count = struct.unpack_from('<IIiiI', data, 4)
    assert version == 1 and kind == 3 and size == N, (version, kind, size)
    at = 24
    tensors = {}
    for _ in range(count):
        length = data[at]
        name = data[at + 1:at + 1 + length].decode()
        at += 1 + length
        kind, rank = data[at], data[at + 1]
        dims = struct.unpack_from('<%dI' % rank, data, at + 2)
        at += 2 + 4 * rank
        n = int(np.prod(dims))
        tensors[name] = torch.from_numpy(np.frombuffer(data, dtype='<f4', count=n, offset=at).copy()).view(*dims)
        at += 4 * n
    assert at == len(data), 'bytes after the last tensor'
    blocks, _, c, _ = tensors['block_w'].shape
    net = Net(c, blocks, tensors['v2_w'].shape[0])
    with torch.no_grad():
        net.inp.weight.copy_(tensors['in_w'].permute(3, 2, 0, 1))
        net.inp.bias.copy_(tensors['in_b'])
        for k, b in enumerate(net.blocks):
            b.weight.copy_(tensors['block_w'][k].view(3, 3, c, c).permute(3, 2, 0, 1))
            b.bias.copy_(tensors['block_b'][k])
        net.pol.weight.copy_(tensors['pol_w'].view(1, c, 1, 1))
        net.pol.bias.copy_(tensors['pol_b'])
        net.pass_.weight.copy_(tensors['pass_w'].view(1, c))
        net.pass_.bias.copy_(tensors['pass_b'])
        net.v1.weight.copy_(tensors['v1_w'].t())
        net.v1.bias.copy_(tensors['v1_b'])
        net.v2.weight.copy_(tensors['v2_w'].view(1, -1))
        net.v2.bias.copy_(tensors['v2_b'])
    return net


def golden(weights, positions, out):
    """The outputs of the network of a weights file on the positions of a
    records file, by torch, for tests/test_policy_net.c to compare with C's:
    a line a position, the pass's logit, the winrate, then every point's
    logit (y * 19 + x order)."""
    net = load_tgw(weights)
    net.eval()
    planes, _, _ = decode(records(positions))
    with torch.no_grad():
        logits, value = net(planes)
    with open(out, 'w') as f:
        for i in range(len(planes)):
            f.write(' '.join(['%.6f' % logits[i, N * N].item(), '%.6f' % torch.sigmoid(value[i]).item()] +
                             ['%.6f' % v for v in logits[i, :N * N].tolist()]) + '\n')
    print('wrote %s: %d positions' % (out, len(planes)))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == '--golden':
        return golden(*sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--data', required=True)
    ap.add_argument('--test')
    ap.add_argument('--out', default='policy19.tgw')
    ap.add_argument('--checkpoint', default='policy19.ckpt')
    ap.add_argument('--resume', action='store_true')
    ap.add_argument('--channels', type=int, default=32)
    ap.add_argument('--blocks', type=int, default=6)
    ap.add_argument('--hidden', type=int, default=32)
    ap.add_argument('--batch', type=int, default=256)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--steps', type=int, default=0, help='stop after this many steps in all (0: --minutes)')
    ap.add_argument('--minutes', type=float, default=60)
    ap.add_argument('--plan', type=int, default=20000, help='steps over which the rate falls to a tenth')
    ap.add_argument('--cosine', type=float, default=0,
                    help='instead of --plan: the rate falls from --lr to --lr times this floor along a half cosine '
                         'over this run\'s --minutes (or --steps), counted from where it starts or resumes')
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--test-positions', type=int, default=20000)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    train = records(args.data)
    test = records(args.test) if args.test else None
    if test is not None and len(test) > args.test_positions:  # spread over all the held-out games
        test = test[::len(test) // args.test_positions][:args.test_positions]
    net = Net(args.channels, args.blocks, args.hidden)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    step = 0
    order_seed = args.seed
    if args.resume and os.path.exists(args.checkpoint):
        ck = torch.load(args.checkpoint)
        net.load_state_dict(ck['net'])
        opt.load_state_dict(ck['opt'])
        step = ck['step']
        order_seed = ck['order_seed']
        print('resumed at step %d (%d positions seen)' % (step, step * args.batch), flush=True)
    # a fixed order of the data (by its seed), walked on from the step
    per_epoch = len(train) // args.batch

    print('%d training positions, %d test; %d blocks of %d channels; %d parameters' %
          (len(train), len(test) if test is not None else 0, args.blocks, args.channels,
           sum(p.numel() for p in net.parameters())), flush=True)

    def save():
        tmp = args.checkpoint + '.tmp'
        torch.save({'net': net.state_dict(), 'opt': opt.state_dict(), 'step': step, 'order_seed': order_seed,
                    'args': vars(args)}, tmp)
        os.replace(tmp, args.checkpoint)
        export(net, args.out)

    start = last_save = last_report = time.time()
    first_step = step
    seen_loss = seen = 0.0
    cached_order = (None, None)
    while True:
        if args.steps and step >= args.steps:
            break
        if not args.steps and time.time() - start > 60 * args.minutes:
            break
        epoch, j = divmod(step, per_epoch)
        if cached_order[0] != epoch:
            cached_order = (epoch, np.random.default_rng(order_seed + epoch).permutation(len(train)))
        rows = np.sort(cached_order[1][j * args.batch:(j + 1) * args.batch])
        planes, move, outcome = decode(train[rows])
        t = step % 8
        planes = symmetry(t, planes)
        move = move_symmetry(t, move)
        if args.cosine:
            if args.steps:
                done = (step - first_step) / max(1, args.steps - first_step)
            else:
                done = (time.time() - start) / (60 * args.minutes)
            rate = args.lr * (args.cosine + (1 - args.cosine) * 0.5 * (1 + math.cos(math.pi * min(1.0, done))))
        else:
            rate = args.lr * max(0.1, 1 - 0.9 * step / args.plan)
        for g in opt.param_groups:
            g['lr'] = rate
        logits, value = net(planes)
        loss = F.cross_entropy(masked(logits, planes, move), move)
        known = outcome != 0
        if known.any():
            loss = loss + VALUE_WEIGHT * F.binary_cross_entropy_with_logits(value[known], (outcome[known] > 0).float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        seen_loss += loss.item()
        seen += 1
        if step % 200 == 0:
            print('step %d  loss %.3f  rate %.5f  %.0f positions/s' %
                  (step, seen_loss / seen, rate, seen * args.batch / max(1e-9, time.time() - last_report)), flush=True)
            seen_loss = seen = 0.0
            last_report = time.time()
        if time.time() - last_save > 600:
            save()
            last_save = time.time()
    save()
    if test is not None:
        (t1, t5, m1, m5), loss, vloss = accuracy(net, test)
        print('held out: network top-1 %.1f%% top-5 %.1f%% (loss %.3f, value loss %.3f); move model top-1 %.1f%% '
              'top-5 %.1f%%; %d positions' % (100 * t1, 100 * t5, loss, vloss, 100 * m1, 100 * m5, len(test)),
              flush=True)
    print('wrote %s and %s at step %d' % (args.out, args.checkpoint, step), flush=True)


if __name__ == '__main__':
    main()
