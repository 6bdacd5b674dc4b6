/*
 * pattern.c — the 3x3 shapes the playouts and the priors prefer.
 *
 * These are the shapes of Gelly, Wang, Munos and Teytaud, "Modification of
 * UCT with Patterns in Monte-Carlo Go" (2006), the playout knowledge of
 * MoGo: hane, cuts and a few edge shapes, centred on the candidate point.
 * Every shape is taken in its eight symmetries and with the colours
 * swapped, and compiled once into a bit table indexed by the colours of the
 * eight neighbours (pattern_key), so that a test is one load.
 *
 * Legend: X and O the two colours, '.' empty, '#' off the board, '?' any,
 * 'x' not X (empty or O), 'o' not O (empty or X).  The centre is the
 * empty candidate point.
 */
#include <pthread.h>
#include <string.h>

#include "engine/pattern.h"

static const char *const shapes[] = {
    "XOX" "..." "???",  /* hane: enclosing hane */
    "XO." "..." "?.?",  /* hane: non-cutting hane */
    "XO?" "X.." "x.?",  /* hane: magari */
    "XOO" "..." "?.?",  /* hane: thin hane */
    ".O." "X.." "...",  /* katatsuke, diagonal attachment */
    "XO?" "O.o" "?o?",  /* cut: unprotected cut */
    "XO?" "O.X" "???",  /* cut: peeped cut */
    "?X?" "O.O" "ooo",  /* cut: de, pushing between two stones */
    "OX?" "o.O" "???",  /* cut: keima cut */
    "X.?" "O.?" "###",  /* edge: chase */
    "OX?" "X.O" "###",  /* edge: block the side cut */
    "?X?" "x.O" "###",  /* edge: block the side connection */
    "?XO" "x.x" "###",  /* edge: sagari */
    "?OX" "X.O" "###",  /* edge: cut */
};

static uint8_t table[65536 / 8];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/* Colours a legend character stands for, as a bit set over tg_color. */
static unsigned legend(char ch, bool swap)
{
    unsigned x = 1u << (swap ? TG_WHITE : TG_BLACK), o = 1u << (swap ? TG_BLACK : TG_WHITE);
    switch (ch) {
    case 'X': return x;
    case 'O': return o;
    case '.': return 1u << TG_EMPTY;
    case '#': return 1u << TG_OFFBOARD;
    case 'x': return o | 1u << TG_EMPTY;
    case 'o': return x | 1u << TG_EMPTY;
    default: return 15; /* '?' */
    }
}

void pattern_transform(int t, int row, int col, int *r, int *c)
{
    int a = row - 1, b = col - 1;
    if (t & 1)
        a = -a;
    if (t & 2)
        b = -b;
    if (t & 4) {
        int tmp = a;
        a = b;
        b = tmp;
    }
    *r = a + 1;
    *c = b + 1;
}

/* Key bit position (0..7) of each grid cell; the centre has none. */
static const int cell_slot[3][3] = {{0, 1, 2}, {3, -1, 4}, {5, 6, 7}};

/* Set the table bits of every key that matches the allowed sets. */
static void mark(const unsigned allowed[8], int slot, unsigned key)
{
    if (slot == 8) {
        table[key >> 3] |= (uint8_t)(1u << (key & 7));
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        if (allowed[slot] & (1u << c))
            mark(allowed, slot + 1, key | c << (2 * slot));
}

static void build_table(void)
{
    memset(table, 0, sizeof table);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (int t = 0; t < 8; t++) {
            for (int swap = 0; swap < 2; swap++) {
                unsigned allowed[8];
                for (int row = 0; row < 3; row++) {
                    for (int col = 0; col < 3; col++) {
                        int r, c;
                        pattern_transform(t, row, col, &r, &c);
                        if (cell_slot[r][c] >= 0)
                            allowed[cell_slot[r][c]] = legend(shapes[i][row * 3 + col], swap);
                    }
                }
                mark(allowed, 0, 0);
            }
        }
    }
}

void pattern_init(void)
{
    pthread_once(&table_once, build_table);
}

bool pattern_match(const tg_board *b, tg_point p)
{
    unsigned key = pattern_key(b, p);
    return table[key >> 3] >> (key & 7) & 1;
}
