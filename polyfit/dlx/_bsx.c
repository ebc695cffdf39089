/*
 * polyfit.dlx._bsx: Algorithm X on bitsets ("BSX"), in C.
 *
 * The state at each level of the search is a copy, not a set of links to undo: the live options
 * as a bitset and the covered primary items as a bitset. Choosing option o kills every live
 * option that shares an item with it: one AND with o's precomputed conflict row. Branching takes
 * the uncovered primary item with the fewest live options (leftmost on ties, as in dancing
 * links) and tries its live options in index order. Backing up is free: the parent's state is
 * still there.
 *
 * The live options of a level are also kept as a packed list of their nonzero words, so the
 * deeper the search (the fewer live options), the less each step reads.
 *
 * Two ways to find the branching item, chosen once per problem; they make the same choices:
 *   - by popcount: for each uncovered item, count its live options word by word, and stop as
 *     soon as the count reaches the best so far. Nothing is maintained between levels. Best
 *     when options conflict with many others (pentominoes, polycubes): the killing is then a
 *     few ANDs, and the early stop keeps the counting short.
 *   - by counts: keep each item's number of live options per level, lowering it for every item
 *     of every killed option. Best when options have few items and kill few others but there
 *     are many items to compare (N-queens, Sudoku).
 * choose_popcount() estimates both costs at the root and takes the cheaper.
 *
 * Python hands over the options as lists of items; this module builds the bitsets and searches.
 * Like _dlxc, the search is resumable in batches, releases the GIL and checks for Ctrl-C. On
 * x86 the search is compiled twice, with and without the POPCNT instruction, and the processor
 * picks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <structmember.h>
#include <string.h>

#include "_batch.h"

#define CHECK_EVERY 16384

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define POPCNT_CLONE 1
#endif

enum { FORWARD, NEXT, DONE };
enum { MODE_AUTO = -1, MODE_COUNTS = 0, MODE_POPCOUNT = 1 };

typedef struct {
    PyObject_HEAD
    int32_t options, primary, W, IW, levels;
    int by_popcount;        /* how the branching item is found (see the top of this file) */
    uint64_t *item_opts;    /* primary x W: the options containing each primary item */
    int32_t *item_word_start; /* primary + 1: each item's nonzero words of item_opts, packed */
    int32_t *item_word;
    uint64_t *item_bits;
    uint64_t *conflict;     /* options x W: options sharing an item with each option (itself too) */
    uint64_t *opt_mask;     /* options x IW: each option's primary items as bits */
    /* Counting mode: each option's primary items (CSR), and when no option has more than 8,
     * the same in padded rows of S (padding: the spare count `primary`). */
    int32_t *opt_start, *opt_item;
    int32_t S, *opt_row;
    int32_t CS;             /* counts per level: primary + 1 (the spare) */
    /* Per level: */
    uint64_t *live;         /* levels x W: every word of the live set (by popcount only) */
    int32_t *live_word;     /* levels x W: the live set's nonzero words, packed: index ... */
    uint64_t *live_bits;    /* ... and bits */
    int32_t *live_len;
    int32_t *cand_word;     /* levels x W: the branching item's live options, packed */
    uint64_t *cand_bits;
    int32_t *cand_len, *cand_next;
    uint64_t *covered;      /* levels x IW */
    int32_t *count;         /* levels x CS (by counts only) */
    int32_t *choice;
    int32_t level, phase;
    long long nodes, updates, solutions;
    Found found; /* solutions of the current batch */
} Bsx;

static void Bsx_dealloc(Bsx *s)
{
    void *arrays[] = {s->item_opts, s->item_word_start, s->item_word, s->item_bits, s->conflict,
                      s->opt_mask, s->opt_start, s->opt_item, s->opt_row, s->live, s->live_word,
                      s->live_bits, s->live_len, s->cand_word, s->cand_bits, s->cand_len,
                      s->cand_next, s->covered, s->count, s->choice, s->found.data};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        PyMem_RawFree(arrays[k]);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static inline int bit_count(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Which way of finding the branching item costs fewer word operations at the root: by counts,
 * each node lowers a count for every primary item of every option it kills (on average, the
 * live options a live option conflicts with, times its primary items); by popcount, each node
 * reads, for each primary item, the fewer of its nonzero words and the live set's. The early
 * stop makes the popcounts cheaper than that bound, hence the factor 0.6, from timing both ways:
 * popcount won on the pentomino boxes (reads / decrements 0.40-0.46) and the Soma cube (0.18),
 * counts on 12 and 13 queens (0.67) and on Sudoku (10). Up to 11 queens the two ways time within
 * 3% of each other. */
static int choose_popcount(const Bsx *s)
{
    const size_t w = (size_t)s->W;
    int32_t live_words = 0, live_options = 0;
    for (size_t k = 0; k < w; k++) {
        live_words += s->live[k] != 0;
        live_options += bit_count(s->live[k]);
    }
    if (live_options == 0 || s->primary == 0)
        return 0;
    double decrements = 0, reads = 0;
    for (int32_t o = 0; o < s->options; o++) {
        if (!(s->live[o / 64] >> (o % 64) & 1))
            continue;
        long killed = 0;
        for (size_t k = 0; k < w; k++)
            killed += bit_count(s->conflict[(size_t)o * w + k] & s->live[k]);
        decrements += (double)killed * (s->opt_start[o + 1] - s->opt_start[o]);
    }
    decrements /= live_options;
    for (int32_t j = 0; j < s->primary; j++) {
        int32_t words = s->item_word_start[j + 1] - s->item_word_start[j];
        reads += words < live_words ? words : live_words;
    }
    return 10 * reads < 6 * decrements;
}

/* Search(primary, items, opt_start, opt_items, mode=-1): the options as lists of item indices
 * (CSR: option k has items opt_items[opt_start[k] .. opt_start[k+1]-1]; items below `primary`
 * are primary). mode: -1 to choose, 0 by counts, 1 by popcount (the tests run both). The
 * bitsets are built here. */
static int Bsx_init(Bsx *s, PyObject *args, PyObject *kwds)
{
    int primary, items, mode = MODE_AUTO;
    PyObject *start_obj, *items_obj;
    static char *names[] = {"primary", "items", "opt_start", "opt_items", "mode", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOO|i", names, &primary, &items, &start_obj, &items_obj, &mode))
        return -1;
    if (s->item_opts != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-initialise");
        return -1;
    }
    if (mode < MODE_AUTO || mode > MODE_POPCOUNT) {
        PyErr_SetString(PyExc_ValueError, "mode must be -1 (choose), 0 (counts) or 1 (popcount)");
        return -1;
    }
    Py_ssize_t nstart, nall;
    int32_t *start = copy_buffer(start_obj, &nstart);
    int32_t *all = start ? copy_buffer(items_obj, &nall) : NULL;
    uint64_t *containing = NULL;
    int ok = start != NULL && all != NULL;
    if (ok && (primary < 0 || items < primary || nstart < 1 || start[0] != 0 || start[nstart - 1] != nall)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent option lists");
        ok = 0;
    }
    int32_t options = ok ? (int32_t)(nstart - 1) : 0;
    for (int32_t k = 0; ok && k < options; k++)
        if (start[k] > start[k + 1])
            ok = 0;
    for (Py_ssize_t t = 0; ok && t < nall; t++)
        if (all[t] < 0 || all[t] >= items)
            ok = 0;
    if (!ok && start && all && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "bad option item index");
    int32_t W = options > 0 ? (options + 63) / 64 : 1, IW = primary > 0 ? (primary + 63) / 64 : 1;
    size_t w = (size_t)W;
    if (ok) {
        s->options = options;
        s->primary = primary;
        s->W = W;
        s->IW = IW;
        s->levels = primary + 1;
        s->CS = primary + 1;
        size_t L = (size_t)s->levels, P = (size_t)(primary > 0 ? primary : 1);
        size_t O = (size_t)(options > 0 ? options : 1);
        containing = PyMem_RawCalloc((size_t)(items > 0 ? items : 1) * w, 8);
        s->item_opts = PyMem_RawCalloc(P * w, 8);
        s->item_word_start = PyMem_RawCalloc(P + 1, 4);
        s->conflict = PyMem_RawCalloc(O * w, 8);
        s->opt_mask = PyMem_RawCalloc(O * (size_t)IW, 8);
        s->opt_start = PyMem_RawCalloc(O + 1, 4);
        s->opt_item = PyMem_RawCalloc((size_t)(nall > 0 ? nall : 1), 4);
        s->live = PyMem_RawCalloc(L * w, 8);
        s->live_word = PyMem_RawCalloc(L * w, 4);
        s->live_bits = PyMem_RawCalloc(L * w, 8);
        s->live_len = PyMem_RawCalloc(L, 4);
        s->cand_word = PyMem_RawCalloc(L * w, 4);
        s->cand_bits = PyMem_RawCalloc(L * w, 8);
        s->cand_len = PyMem_RawCalloc(L, 4);
        s->cand_next = PyMem_RawCalloc(L, 4);
        s->covered = PyMem_RawCalloc(L * (size_t)IW, 8);
        s->count = PyMem_RawCalloc(L * (size_t)s->CS, 4);
        s->choice = PyMem_RawCalloc(L, 4);
        if (!containing || !s->item_opts || !s->item_word_start || !s->conflict || !s->opt_mask ||
            !s->opt_start || !s->opt_item || !s->live || !s->live_word || !s->live_bits ||
            !s->live_len || !s->cand_word || !s->cand_bits || !s->cand_len || !s->cand_next ||
            !s->covered || !s->count || !s->choice) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    if (ok) {
        /* Which options contain each item; which options can ever be chosen (those with a
         * primary item: the live set at the root). */
        for (int32_t k = 0; k < options; k++) {
            uint64_t bit = UINT64_C(1) << (k % 64);
            int has_primary = 0;
            for (int32_t t = start[k]; t < start[k + 1]; t++) {
                containing[(size_t)all[t] * w + (size_t)(k / 64)] |= bit;
                if (all[t] < primary)
                    has_primary = 1;
            }
            if (has_primary)
                s->live[k / 64] |= bit;
        }
        int32_t n = 0;
        for (int32_t k = 0; k < options; k++) {
            s->opt_start[k] = n;
            if (s->live[k / 64] & (UINT64_C(1) << (k % 64))) {
                uint64_t *row = s->conflict + (size_t)k * w;
                for (int32_t t = start[k]; t < start[k + 1]; t++) {
                    const uint64_t *with = containing + (size_t)all[t] * w;
                    for (size_t i = 0; i < w; i++)
                        row[i] |= with[i];
                    if (all[t] < primary) {
                        s->opt_item[n++] = all[t];
                        s->opt_mask[(size_t)k * (size_t)IW + (size_t)(all[t] / 64)] |= UINT64_C(1) << (all[t] % 64);
                    }
                }
            }
        }
        s->opt_start[options] = n;
        /* Each primary item's live options, in full and as its packed nonzero words. */
        int32_t words = 0;
        for (int32_t j = 0; j < primary; j++)
            for (size_t i = 0; i < w; i++) {
                uint64_t v = containing[(size_t)j * w + i] & s->live[i];
                s->item_opts[(size_t)j * w + i] = v;
                words += v != 0;
            }
        s->item_word = PyMem_RawCalloc((size_t)words + 1, 4);
        s->item_bits = PyMem_RawCalloc((size_t)words + 1, 8);
        if (!s->item_word || !s->item_bits) {
            PyErr_NoMemory();
            ok = 0;
        } else {
            words = 0;
            for (int32_t j = 0; j < primary; j++) {
                s->item_word_start[j] = words;
                for (int32_t i = 0; i < W; i++) {
                    uint64_t v = s->item_opts[(size_t)j * w + (size_t)i];
                    if (v) {
                        s->item_word[words] = i;
                        s->item_bits[words++] = v;
                    }
                }
            }
            s->item_word_start[primary] = words;
        }
    }
    if (ok) {
        s->by_popcount = mode == MODE_AUTO ? choose_popcount(s) : mode;
        /* Options of a few primary items each (a queen's row and column, a Sudoku cell's four
         * constraints): store them in rows of equal length, so that killing one is a fixed run
         * of decrements with no loop test per item. */
        int32_t most = 0;
        for (int32_t k = 0; k < options; k++)
            if (s->opt_start[k + 1] - s->opt_start[k] > most)
                most = s->opt_start[k + 1] - s->opt_start[k];
        if (!s->by_popcount && most >= 1 && most <= 8) {
            s->opt_row = PyMem_RawMalloc((size_t)(options > 0 ? options : 1) * (size_t)most * 4);
            if (s->opt_row == NULL) {
                PyErr_NoMemory();
                ok = 0;
            } else {
                s->S = most;
                for (int32_t k = 0; k < options; k++)
                    for (int32_t t = 0; t < most; t++) {
                        int32_t at = s->opt_start[k] + t;
                        s->opt_row[(size_t)k * most + t] = at < s->opt_start[k + 1] ? s->opt_item[at] : primary;
                    }
            }
        }
    }
    if (ok) {
        for (int32_t j = 0; j < primary; j++) {
            int32_t c = 0;
            for (size_t i = 0; i < w; i++)
                c += bit_count(s->item_opts[(size_t)j * w + i]);
            s->count[j] = c;
        }
        int32_t m = 0;
        for (int32_t i = 0; i < W; i++)
            if (s->live[i]) {
                s->live_word[m] = i;
                s->live_bits[m++] = s->live[i];
            }
        s->live_len[0] = m;
        s->level = 0;
        s->phase = FORWARD;
    }
    PyMem_RawFree(start);
    PyMem_RawFree(all);
    PyMem_RawFree(containing);
    return ok ? 0 : -1;
}

static int record(Bsx *s)
{
    return found_append(&s->found, s->choice, s->level);
}

/* The uncovered primary item with the fewest live options (leftmost on ties), or -1 when every
 * primary item is covered: by the counts of the level, or by popcount over the live words. */
static inline __attribute__((always_inline)) int32_t best_item(const Bsx *s, int32_t lv)
{
    const uint64_t *covered = s->covered + (size_t)lv * s->IW;
    const int32_t *count = s->count + (size_t)lv * s->CS;
    const uint64_t *live = s->live + (size_t)lv * s->W;
    const int32_t *live_word = s->live_word + (size_t)lv * s->W;
    const uint64_t *live_bits = s->live_bits + (size_t)lv * s->W;
    const int32_t n = s->live_len[lv];
    int32_t best = -1, least = INT32_MAX;
    for (int32_t w = 0; w < s->IW; w++) {
        int32_t left = s->primary - w * 64; /* primary items in this word and after */
        if (left <= 0)
            break;
        uint64_t open = ~covered[w];
        if (left < 64)
            open &= (UINT64_C(1) << left) - 1;
        while (open) {
            int32_t j = w * 64 + __builtin_ctzll(open);
            open &= open - 1;
            int32_t c = 0;
            if (!s->by_popcount) {
                c = count[j];
            } else {
                /* Count through the item's words or the live words, whichever are fewer,
                 * and stop once the count cannot beat the best. */
                int32_t a = s->item_word_start[j], b = s->item_word_start[j + 1];
                if (b - a <= n) {
                    for (int32_t t = a; t < b && c < least; t++)
                        c += bit_count(live[s->item_word[t]] & s->item_bits[t]);
                } else {
                    const uint64_t *mine = s->item_opts + (size_t)j * s->W;
                    for (int32_t t = 0; t < n && c < least; t++)
                        c += bit_count(live_bits[t] & mine[live_word[t]]);
                }
            }
            if (c < least) {
                least = c;
                best = j;
                if (least == 0)
                    return best;
            }
        }
    }
    return best;
}

/* Option o chosen at level lv: the child level's live set (the live options that do not
 * conflict with o), its counts (by counts), and its covered items. Returns the options killed. */
static inline __attribute__((always_inline)) long long choose(Bsx *s, int32_t lv, int32_t o)
{
    const int32_t W = s->W, CS = s->CS, S = s->S;
    const uint64_t *restrict conf = s->conflict + (size_t)o * W;
    const int32_t *restrict live_word = s->live_word + (size_t)lv * W;
    const uint64_t *restrict live_bits = s->live_bits + (size_t)lv * W;
    int32_t *restrict child_word = s->live_word + (size_t)(lv + 1) * W;
    uint64_t *restrict child_bits = s->live_bits + (size_t)(lv + 1) * W;
    const int32_t n = s->live_len[lv];
    long long killed = 0;
    int32_t m = 0;
    if (s->by_popcount) {
        const uint64_t *restrict live = s->live + (size_t)lv * W;
        uint64_t *restrict child = s->live + (size_t)(lv + 1) * W;
        for (int32_t i = 0; i < W; i++)
            child[i] = live[i] & ~conf[i];
        for (int32_t t = 0; t < n; t++) {
            uint64_t x = live_bits[t], c = conf[live_word[t]];
            killed += bit_count(x & c);
            child_word[m] = live_word[t]; /* kept when nonzero: no branch */
            child_bits[m] = x & ~c;
            m += (x & ~c) != 0;
        }
    } else {
        int32_t *restrict count = s->count + (size_t)(lv + 1) * CS;
        const int32_t *restrict opt_start = s->opt_start, *restrict opt_item = s->opt_item;
        const int32_t *restrict opt_row = s->opt_row;
        memcpy(count, s->count + (size_t)lv * CS, (size_t)CS * 4);
        for (int32_t t = 0; t < n; t++) {
            uint64_t x = live_bits[t], c = conf[live_word[t]];
            uint64_t dead = x & c;
            child_word[m] = live_word[t];
            child_bits[m] = x & ~c;
            m += (x & ~c) != 0;
            while (dead) {
                int32_t k = live_word[t] * 64 + __builtin_ctzll(dead);
                dead &= dead - 1;
                killed++;
                if (S) {
                    const int32_t *row = opt_row + (size_t)k * S;
                    switch (S) { /* each case falls through to the next: S decrements */
                    case 8: count[row[7]]--; /* fall through */
                    case 7: count[row[6]]--; /* fall through */
                    case 6: count[row[5]]--; /* fall through */
                    case 5: count[row[4]]--; /* fall through */
                    case 4: count[row[3]]--; /* fall through */
                    case 3: count[row[2]]--; /* fall through */
                    case 2: count[row[1]]--; /* fall through */
                    default: count[row[0]]--;
                    }
                } else {
                    const int32_t *item = opt_item + opt_start[k], *end = opt_item + opt_start[k + 1];
                    while (item < end)
                        count[*item++]--;
                }
            }
        }
    }
    s->live_len[lv + 1] = m;
    const uint64_t *cov = s->covered + (size_t)lv * s->IW;
    uint64_t *ccov = s->covered + (size_t)(lv + 1) * s->IW;
    const uint64_t *mask = s->opt_mask + (size_t)o * s->IW;
    for (int32_t i = 0; i < s->IW; i++)
        ccov[i] = cov[i] | mask[i];
    return killed;
}

static inline __attribute__((always_inline)) int search(Bsx *s, long long wanted, PyThreadState **save)
{
    const int32_t W = s->W;
    long long found = 0, next_check = s->nodes + CHECK_EVERY;
    int32_t lv = s->level;

    if (s->phase == DONE)
        return 0;
    if (s->phase == NEXT)
        goto next;

forward: {
    int32_t i = best_item(s, lv);
    if (i < 0) {
        s->level = lv;
        if (record(s) < 0) {
            s->phase = DONE;
            return out_of_memory(save);
        }
        s->solutions++;
        if (++found >= wanted) {
            s->phase = NEXT;
            lv--;
            s->level = lv;
            if (lv < 0)
                s->phase = DONE;
            return 0;
        }
        lv--;
        if (lv < 0)
            goto done;
        goto next;
    }
    /* The candidates: the live options containing i, packed like the live set. */
    const uint64_t *mine = s->item_opts + (size_t)i * W;
    const int32_t *live_word = s->live_word + (size_t)lv * W;
    const uint64_t *live_bits = s->live_bits + (size_t)lv * W;
    int32_t *cand_word = s->cand_word + (size_t)lv * W;
    uint64_t *cand_bits = s->cand_bits + (size_t)lv * W;
    int32_t m = 0;
    for (int32_t t = 0; t < s->live_len[lv]; t++) {
        uint64_t x = live_bits[t] & mine[live_word[t]];
        cand_word[m] = live_word[t];
        cand_bits[m] = x;
        m += x != 0;
    }
    s->cand_len[lv] = m;
    s->cand_next[lv] = 0;
}

next: {
    int32_t t = s->cand_next[lv];
    if (t >= s->cand_len[lv]) {
        lv--;
        if (lv < 0)
            goto done;
        goto next;
    }
    uint64_t *bits = s->cand_bits + (size_t)lv * W + t;
    int32_t o = s->cand_word[(size_t)lv * W + t] * 64 + __builtin_ctzll(*bits);
    *bits &= *bits - 1;
    if (*bits == 0)
        s->cand_next[lv] = t + 1;
    s->nodes++;
    s->choice[lv] = o;
    s->updates += choose(s, lv, o);
    lv++;
    if (s->nodes >= next_check) {
        next_check = s->nodes + CHECK_EVERY;
        if (signals_pending(save) < 0) {
            s->phase = FORWARD;
            s->level = lv;
            return -1;
        }
    }
    goto forward;
}

done:
    s->phase = DONE;
    s->level = 0;
    return 0;
}

#ifdef POPCNT_CLONE
__attribute__((target("popcnt"))) static int run_with_popcnt(Bsx *s, long long wanted, PyThreadState **save)
{
    return search(s, wanted, save);
}
#endif

static int run_portable(Bsx *s, long long wanted, PyThreadState **save)
{
    return search(s, wanted, save);
}

static int run(Bsx *s, long long wanted, PyThreadState **save)
{
#ifdef POPCNT_CLONE
    if (__builtin_cpu_supports("popcnt"))
        return run_with_popcnt(s, wanted, save);
#endif
    return run_portable(s, wanted, save);
}

static PyMemberDef Bsx_members[] = {
    {"way", T_INT, offsetof(Bsx, by_popcount), READONLY, "how the branching item is found: 0 by counts, 1 by popcount"},
    {NULL, 0, 0, 0, NULL},
};

SEARCH_MODULE(_bsx, Bsx, s->choice != NULL, Bsx_members, "A resumable bitset exact cover search over prebuilt bit arrays.", "Bitset exact cover search in C.")
