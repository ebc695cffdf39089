/*
 * polyfit.dlx._bsx: Algorithm X on bitsets ("BSX"), in C.
 *
 * The state at each level of the search is a copy, not a set of links to undo: the live options
 * as a bitset, the covered items as a bitset, and for each primary item the number of live
 * options that contain it. Choosing option o kills every live option that shares an item with
 * it: one AND with o's precomputed conflict row. Each killed option lowers the counts of its
 * primary items; branching takes the uncovered primary item with the smallest count (leftmost
 * on ties, as in dancing links). Backing up is free: the parent's state is still there.
 *
 * Python hands over the options as lists of items; this module builds the bitsets and searches.
 * Like _dlxc, the search is resumable in batches, releases the GIL and checks for Ctrl-C.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_batch.h"

#define CHECK_EVERY 16384

enum { FORWARD, NEXT, DONE };

typedef struct {
    PyObject_HEAD
    int32_t options, primary, W, IW, levels;
    uint64_t *item_opts;   /* primary x W: options containing each primary item */
    uint64_t *conflict;    /* options x W: options sharing an item with each option (itself too) */
    int32_t *opt_start;    /* options + 1: CSR of each option's primary items */
    int32_t *opt_item;
    int32_t S;             /* when every option has at most 8 primary items: the most any has */
    int32_t *opt_row;      /* options x S: those items, padded with `primary` (a spare count) */
    int32_t CS;            /* counts per level: primary + 1 (the spare) */
    uint64_t *opt_mask;    /* options x IW: each option's primary items as bits */
    /* per level: live[W], cands[W], covered[IW], count[primary] */
    uint64_t *live, *cands, *covered;
    int32_t *count, *choice;
    int32_t level, phase;
    long long nodes, updates, solutions;
    Found found; /* solutions of the current batch */
} Bsx;

static void Bsx_dealloc(Bsx *s)
{
    PyMem_RawFree(s->item_opts);
    PyMem_RawFree(s->conflict);
    PyMem_RawFree(s->opt_start);
    PyMem_RawFree(s->opt_item);
    PyMem_RawFree(s->opt_row);
    PyMem_RawFree(s->opt_mask);
    PyMem_RawFree(s->live);
    PyMem_RawFree(s->cands);
    PyMem_RawFree(s->covered);
    PyMem_RawFree(s->count);
    PyMem_RawFree(s->choice);
    PyMem_RawFree(s->found.data);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* Search(primary, items, opt_start, opt_items): the options as lists of item indices (CSR:
 * option k has items opt_items[opt_start[k] .. opt_start[k+1]-1]; items below `primary` are
 * primary). The bitsets are built here. */
static int Bsx_init(Bsx *s, PyObject *args, PyObject *kwds)
{
    int primary, items;
    PyObject *start_obj, *items_obj;
    static char *names[] = {"primary", "items", "opt_start", "opt_items", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOO", names, &primary, &items, &start_obj, &items_obj))
        return -1;
    if (s->item_opts != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-initialise");
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
        containing = PyMem_RawCalloc((size_t)(items > 0 ? items : 1) * w, 8);
        s->item_opts = PyMem_RawCalloc((size_t)(primary > 0 ? primary : 1) * w, 8);
        s->conflict = PyMem_RawCalloc((size_t)(options > 0 ? options : 1) * w, 8);
        s->opt_start = PyMem_RawCalloc((size_t)options + 1, 4);
        s->opt_item = PyMem_RawCalloc((size_t)(nall > 0 ? nall : 1), 4);
        s->opt_mask = PyMem_RawCalloc((size_t)(options > 0 ? options : 1) * (size_t)IW, 8);
        size_t L = (size_t)s->levels;
        s->live = PyMem_RawCalloc(L * w, 8);
        s->cands = PyMem_RawCalloc(L * w, 8);
        s->covered = PyMem_RawCalloc(L * (size_t)IW, 8);
        s->CS = primary + 1;
        s->count = PyMem_RawCalloc(L * (size_t)s->CS, 4);
        s->choice = PyMem_RawCalloc(L, 4);
        if (!containing || !s->item_opts || !s->conflict || !s->opt_start || !s->opt_item ||
            !s->opt_mask || !s->live || !s->cands || !s->covered || !s->count || !s->choice) {
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
        /* Options of a few primary items each (a piece and its cells, a queen's row and
         * column): store them in rows of equal length, so that killing one is a fixed run of
         * decrements with no loop test per item. */
        int32_t most = 0;
        for (int32_t k = 0; k < options; k++)
            if (s->opt_start[k + 1] - s->opt_start[k] > most)
                most = s->opt_start[k + 1] - s->opt_start[k];
        if (most >= 1 && most <= 8) {
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
            for (size_t i = 0; i < w; i++) {
                uint64_t v = containing[(size_t)j * w + i] & s->live[i];
                s->item_opts[(size_t)j * w + i] = v;
                c += __builtin_popcountll(v);
            }
            s->count[j] = c;
        }
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
 * primary item is covered. */
static inline int32_t best_item(const Bsx *s, const uint64_t *covered, const int32_t *count)
{
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
            if (count[j] < least) {
                least = count[j];
                best = j;
                if (least == 0)
                    return best;
            }
        }
    }
    return best;
}

static int run(Bsx *s, long long wanted, PyThreadState **save)
{
    const int32_t W = s->W, IW = s->IW, CS = s->CS, S = s->S;
    long long found = 0, next_check = s->nodes + CHECK_EVERY;
    int32_t lv = s->level;

    if (s->phase == DONE)
        return 0;
    if (s->phase == NEXT)
        goto next;

forward: {
    uint64_t *covered = s->covered + (size_t)lv * IW;
    int32_t *count = s->count + (size_t)lv * CS;
    int32_t i = best_item(s, covered, count);
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
    const uint64_t *live = s->live + (size_t)lv * W;
    const uint64_t *opts = s->item_opts + (size_t)i * W;
    uint64_t *cands = s->cands + (size_t)lv * W;
    for (int32_t w = 0; w < W; w++)
        cands[w] = live[w] & opts[w];
}

next: {
    uint64_t *cands = s->cands + (size_t)lv * W;
    int32_t o = -1;
    for (int32_t w = 0; w < W; w++) {
        if (cands[w]) {
            o = w * 64 + __builtin_ctzll(cands[w]);
            cands[w] &= cands[w] - 1;
            break;
        }
    }
    if (o < 0) {
        lv--;
        if (lv < 0)
            goto done;
        goto next;
    }
    s->nodes++;
    s->choice[lv] = o;
    /* The child state: live options that do not conflict with o, counts lowered for every
     * option o kills, o's items covered. */
    const uint64_t *live = s->live + (size_t)lv * W;
    uint64_t *child = s->live + (size_t)(lv + 1) * W;
    const uint64_t *conf = s->conflict + (size_t)o * W;
    int32_t *restrict count = s->count + (size_t)(lv + 1) * CS;
    const int32_t *restrict opt_start = s->opt_start, *restrict opt_item = s->opt_item;
    const int32_t *restrict opt_row = s->opt_row;
    memcpy(count, s->count + (size_t)lv * CS, (size_t)CS * 4);
    long long killed = 0;
    for (int32_t w = 0; w < W; w++) {
        uint64_t dead = live[w] & conf[w];
        child[w] = live[w] & ~conf[w];
        while (dead) {
            int32_t k = w * 64 + __builtin_ctzll(dead);
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
    s->updates += killed;
    const uint64_t *cov = s->covered + (size_t)lv * IW;
    uint64_t *ccov = s->covered + (size_t)(lv + 1) * IW;
    const uint64_t *mask = s->opt_mask + (size_t)o * IW;
    for (int32_t w = 0; w < IW; w++)
        ccov[w] = cov[w] | mask[w];
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

SEARCH_MODULE(_bsx, Bsx, s->choice != NULL, NULL, "A resumable bitset exact cover search over prebuilt bit arrays.", "Bitset exact cover search in C.")
