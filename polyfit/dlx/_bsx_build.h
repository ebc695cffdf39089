/*
 * The state of polyfit.dlx._bsx and how it is built from the option lists; the search loop over
 * it is in _bsx.c.
 *
 * Options are numbered 0..options-1 and an option set is a row of words_per_set 64-bit words
 * (bit o of word o/64 for option o); likewise a set of primary items takes words_per_item_set
 * words. Built once, read by every level:
 *   - item_options: for each primary item, the options containing it (those that can ever be
 *     chosen), and the same rows packed as their nonzero words only (item_nonzero_*);
 *   - conflicts: for each option, the options sharing an item with it, itself included;
 *   - option_primary: each option's primary items as a set, and as a list (option_start,
 *     option_item; and padded to option_rows when counting).
 * One row per level of the search (levels = primary + 1: each level covers an item):
 *   - live: the live options, and the same packed (live_index, live_bits, live_words);
 *   - candidate_*: the branching item's live options, packed, and the next word to try;
 *   - covered: the covered primary items;
 *   - counts: each item's number of live options (by counts only).
 *
 * Multiplicities (Algorithm M's bounds), for problems where every option covers an item that
 * must be covered exactly once: those items are the primary ones here and the search is
 * Algorithm X over them. An item that may be covered up to hi > 1 times is a *capacity* item,
 * left out of the option lists (it makes no conflict): cap_options holds each one's options,
 * cap_start/cap_item each option's capacity items, cap_lo/cap_hi the bounds, and cap_used the
 * uses per level. When an item reaches hi, its other options die; a cover of every primary
 * item is a solution when every capacity item has reached its lo.
 */
#ifndef POLYFIT_BSX_BUILD_H
#define POLYFIT_BSX_BUILD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_batch.h"

enum { MODE_AUTO = -1, MODE_COUNTS = 0, MODE_POPCOUNT = 1 };

typedef struct {
    PyObject_HEAD
    int32_t options, primary, words_per_set, words_per_item_set, levels;
    int by_popcount;             /* how the branching item is found (see the top of _bsx.c) */
    uint64_t *item_options;      /* primary x words_per_set */
    int32_t *item_nonzero_start; /* primary + 1: where each item's packed words begin ... */
    int32_t *item_nonzero_index; /* ... the index of each nonzero word of item_options ... */
    uint64_t *item_nonzero_bits; /* ... and its bits */
    uint64_t *conflicts;         /* options x words_per_set */
    uint64_t *option_primary;    /* options x words_per_item_set */
    /* Counting mode: each option's primary items (CSR), and when no option has more than 8,
     * the same in padded rows of row_length (padding: the spare count at index `primary`). */
    int32_t *option_start, *option_item;
    int32_t row_length, *option_rows;
    int32_t counts_per_level;    /* primary + 1 (the spare) */
    /* Per level: */
    uint64_t *live;              /* levels x words_per_set: every word (by popcount only) */
    int32_t *live_index;         /* levels x words_per_set: the nonzero words, packed: index ... */
    uint64_t *live_bits;         /* ... and bits */
    int32_t *live_words;         /* levels: how many are packed */
    int32_t *candidate_index;    /* levels x words_per_set: the branching item's live options */
    uint64_t *candidate_bits;
    int32_t *candidate_words, *candidate_next;
    uint64_t *covered;           /* levels x words_per_item_set */
    int32_t *counts;             /* levels x counts_per_level (by counts only) */
    int32_t *choice;             /* levels: the option chosen at each */
    int32_t caps;                /* capacity items (see the top) */
    int32_t *cap_lo, *cap_hi, *cap_start, *cap_item, *cap_used;
    uint64_t *cap_options;       /* caps x words_per_set */
    int32_t level, phase;
    long long nodes, updates, solutions;
    Found found; /* solutions of the current batch */
} Bsx;

static void bsx_free_arrays(Bsx *s)
{
    void *arrays[] = {s->item_options, s->item_nonzero_start, s->item_nonzero_index,
                      s->item_nonzero_bits, s->conflicts, s->option_primary, s->option_start,
                      s->option_item, s->option_rows, s->live, s->live_index, s->live_bits,
                      s->live_words, s->candidate_index, s->candidate_bits, s->candidate_words,
                      s->candidate_next, s->covered, s->counts, s->choice, s->found.data,
                      s->cap_lo, s->cap_hi, s->cap_start, s->cap_item, s->cap_used, s->cap_options};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        PyMem_RawFree(arrays[k]);
}

static inline int bit_count(uint64_t x)
{
    return __builtin_popcountll(x);
}

static inline int has_bit(const uint64_t *set, int32_t k)
{
    return (int)(set[k / 64] >> (k % 64) & 1);
}

/* Every array whose size is known before the bits are set. 0, or -1 with MemoryError. */
static int allocate(Bsx *s, int32_t items, Py_ssize_t all_items, uint64_t **containing)
{
    size_t w = (size_t)s->words_per_set, iw = (size_t)s->words_per_item_set;
    size_t levels = (size_t)s->levels, primary = (size_t)(s->primary > 0 ? s->primary : 1);
    size_t options = (size_t)(s->options > 0 ? s->options : 1);
    *containing = PyMem_RawCalloc((size_t)(items > 0 ? items : 1) * w, 8);
    s->item_options = PyMem_RawCalloc(primary * w, 8);
    s->item_nonzero_start = PyMem_RawCalloc(primary + 1, 4);
    s->conflicts = PyMem_RawCalloc(options * w, 8);
    s->option_primary = PyMem_RawCalloc(options * iw, 8);
    s->option_start = PyMem_RawCalloc(options + 1, 4);
    s->option_item = PyMem_RawCalloc((size_t)(all_items > 0 ? all_items : 1), 4);
    s->live = PyMem_RawCalloc(levels * w, 8);
    s->live_index = PyMem_RawCalloc(levels * w, 4);
    s->live_bits = PyMem_RawCalloc(levels * w, 8);
    s->live_words = PyMem_RawCalloc(levels, 4);
    s->candidate_index = PyMem_RawCalloc(levels * w, 4);
    s->candidate_bits = PyMem_RawCalloc(levels * w, 8);
    s->candidate_words = PyMem_RawCalloc(levels, 4);
    s->candidate_next = PyMem_RawCalloc(levels, 4);
    s->covered = PyMem_RawCalloc(levels * iw, 8);
    s->counts = PyMem_RawCalloc(levels * (size_t)s->counts_per_level, 4);
    s->choice = PyMem_RawCalloc(levels, 4);
    if (!*containing || !s->item_options || !s->item_nonzero_start || !s->conflicts ||
        !s->option_primary || !s->option_start || !s->option_item || !s->live || !s->live_index ||
        !s->live_bits || !s->live_words || !s->candidate_index || !s->candidate_bits ||
        !s->candidate_words || !s->candidate_next || !s->covered || !s->counts || !s->choice) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Which options contain each item; which can ever be chosen (those with a primary item: the
 * live set at the root); for those, their conflicts and their primary items. */
static void index_options(Bsx *s, const int32_t *start, const int32_t *all, uint64_t *containing)
{
    const size_t w = (size_t)s->words_per_set, iw = (size_t)s->words_per_item_set;
    const int32_t primary = s->primary;
    for (int32_t k = 0; k < s->options; k++) {
        uint64_t bit = UINT64_C(1) << (k % 64);
        int chosen_ever = 0;
        for (int32_t t = start[k]; t < start[k + 1]; t++) {
            containing[(size_t)all[t] * w + (size_t)(k / 64)] |= bit;
            if (all[t] < primary)
                chosen_ever = 1;
        }
        if (chosen_ever)
            s->live[k / 64] |= bit;
    }
    int32_t n = 0;
    for (int32_t k = 0; k < s->options; k++) {
        s->option_start[k] = n;
        if (!has_bit(s->live, k))
            continue;
        uint64_t *row = s->conflicts + (size_t)k * w;
        for (int32_t t = start[k]; t < start[k + 1]; t++) {
            const uint64_t *with = containing + (size_t)all[t] * w;
            for (size_t i = 0; i < w; i++)
                row[i] |= with[i];
            if (all[t] < primary) {
                s->option_item[n++] = all[t];
                s->option_primary[(size_t)k * iw + (size_t)(all[t] / 64)] |= UINT64_C(1) << (all[t] % 64);
            }
        }
    }
    s->option_start[s->options] = n;
}

/* Each primary item's live options, in full and as its packed nonzero words. 0, or -1 with
 * MemoryError. */
static int index_items(Bsx *s, const uint64_t *containing)
{
    const size_t w = (size_t)s->words_per_set;
    int32_t words = 0;
    for (int32_t j = 0; j < s->primary; j++)
        for (size_t i = 0; i < w; i++) {
            uint64_t v = containing[(size_t)j * w + i] & s->live[i];
            s->item_options[(size_t)j * w + i] = v;
            words += v != 0;
        }
    s->item_nonzero_index = PyMem_RawCalloc((size_t)words + 1, 4);
    s->item_nonzero_bits = PyMem_RawCalloc((size_t)words + 1, 8);
    if (!s->item_nonzero_index || !s->item_nonzero_bits) {
        PyErr_NoMemory();
        return -1;
    }
    words = 0;
    for (int32_t j = 0; j < s->primary; j++) {
        s->item_nonzero_start[j] = words;
        for (int32_t i = 0; i < s->words_per_set; i++) {
            uint64_t v = s->item_options[(size_t)j * w + (size_t)i];
            if (v) {
                s->item_nonzero_index[words] = i;
                s->item_nonzero_bits[words++] = v;
            }
        }
    }
    s->item_nonzero_start[s->primary] = words;
    return 0;
}

/* The words best_item() reads by popcount at the root (with live_words nonzero words live),
 * stopping early as it does. */
static double root_reads(const Bsx *s, int32_t live_words)
{
    const size_t w = (size_t)s->words_per_set;
    double reads = 0;
    int32_t least = INT32_MAX;
    for (int32_t j = 0; j < s->primary && least > 0; j++) {
        int32_t first = s->item_nonzero_start[j], end = s->item_nonzero_start[j + 1], c = 0;
        if (end - first <= live_words) {
            for (int32_t t = first; t < end && c < least; t++, reads++)
                c += bit_count(s->live[s->item_nonzero_index[t]] & s->item_nonzero_bits[t]);
        } else {
            for (size_t k = 0; k < w && c < least; k++) {
                if (s->live[k] == 0)
                    continue;
                c += bit_count(s->live[k] & s->item_options[(size_t)j * w + k]);
                reads++;
            }
        }
        if (c < least)
            least = c;
    }
    return reads;
}

/* Which way of finding the branching item costs fewer word operations at the root: by counts,
 * each node lowers a count for every primary item of every option it kills (on average, the
 * live options a live option conflicts with, times its primary items); by popcount, each node
 * reads, for each primary item, the fewer of its nonzero words and the live set's. The early
 * stop makes the popcounts cheaper than that bound, hence the factor 0.6, from timing both ways:
 * popcount won on the pentomino boxes (reads / decrements 0.40-0.46) and the Soma cube (0.18),
 * counts on 12 and 13 queens (0.67) and on Sudoku (10). Up to 11 queens the two ways time within
 * 3% of each other.
 * That bound alone cannot tell 12 queens from a 15-piece cube (0.64), where popcount takes 14%
 * less time: there most items have many more options than the fewest, and the early stop reads
 * a few words of each. So the root's search by popcount is also run as search does, counting the
 * words it reads: under 0.3 of the decrements (0.01-0.22 on the pentomino boxes and the
 * polycube puzzles, 0.67 on 12 and 13 queens, where every item has as many options, and 3.4 on
 * Sudoku) takes popcount too. docs/performance.md ("Fourth pass") has the timings. */
static int choose_popcount(const Bsx *s)
{
    const size_t w = (size_t)s->words_per_set;
    int32_t live_words = 0, live_options = 0;
    for (size_t k = 0; k < w; k++) {
        live_words += s->live[k] != 0;
        live_options += bit_count(s->live[k]);
    }
    if (live_options == 0 || s->primary == 0)
        return 0;
    double decrements = 0, reads = 0;
    for (int32_t o = 0; o < s->options; o++) {
        if (!has_bit(s->live, o))
            continue;
        long killed = 0;
        for (size_t k = 0; k < w; k++)
            killed += bit_count(s->conflicts[(size_t)o * w + k] & s->live[k]);
        decrements += (double)killed * (s->option_start[o + 1] - s->option_start[o]);
    }
    decrements /= live_options;
    for (int32_t j = 0; j < s->primary; j++) {
        int32_t words = s->item_nonzero_start[j + 1] - s->item_nonzero_start[j];
        reads += words < live_words ? words : live_words;
    }
    return 10 * reads < 6 * decrements || 10 * root_reads(s, live_words) < 3 * decrements;
}

/* Options of a few primary items each (a queen's row and column, a Sudoku cell's four
 * constraints), when counting: store them in rows of equal length, so that killing one is a
 * fixed run of decrements with no loop test per item. 0, or -1 with MemoryError. */
static int pad_option_rows(Bsx *s)
{
    int32_t most = 0;
    for (int32_t k = 0; k < s->options; k++)
        if (s->option_start[k + 1] - s->option_start[k] > most)
            most = s->option_start[k + 1] - s->option_start[k];
    if (s->by_popcount || most < 1 || most > 8)
        return 0;
    s->option_rows = PyMem_RawMalloc((size_t)(s->options > 0 ? s->options : 1) * (size_t)most * 4);
    if (s->option_rows == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->row_length = most;
    for (int32_t k = 0; k < s->options; k++)
        for (int32_t t = 0; t < most; t++) {
            int32_t at = s->option_start[k] + t;
            s->option_rows[(size_t)k * most + t] = at < s->option_start[k + 1] ? s->option_item[at] : s->primary;
        }
    return 0;
}

/* The root level: each item's count of live options, and the live set packed. */
static void set_root(Bsx *s)
{
    const size_t w = (size_t)s->words_per_set;
    for (int32_t j = 0; j < s->primary; j++) {
        int32_t c = 0;
        for (size_t i = 0; i < w; i++)
            c += bit_count(s->item_options[(size_t)j * w + i]);
        s->counts[j] = c;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < s->words_per_set; i++)
        if (s->live[i]) {
            s->live_index[m] = i;
            s->live_bits[m++] = s->live[i];
        }
    s->live_words[0] = m;
}

/* Build every bitset for `options` options given as lists of item indices (CSR: option k has
 * items all[start[k] .. start[k+1]-1], each below `items`; those below `primary` are primary),
 * finding branching items by `mode` (MODE_AUTO: the cheaper way at the root). The lists are
 * checked by the caller. 0, or -1 with MemoryError (the arrays allocated so far stay in s, for
 * the deallocator). */
static int bsx_build(Bsx *s, int32_t primary, int32_t items, int32_t options, const int32_t *start,
                     const int32_t *all, Py_ssize_t all_items, int mode)
{
    s->options = options;
    s->primary = primary;
    s->words_per_set = options > 0 ? (options + 63) / 64 : 1;
    s->words_per_item_set = primary > 0 ? (primary + 63) / 64 : 1;
    s->levels = primary + 1;
    s->counts_per_level = primary + 1;
    uint64_t *containing = NULL; /* items x words_per_set: the options containing each item */
    int ok = allocate(s, items, all_items, &containing) == 0;
    if (ok) {
        index_options(s, start, all, containing);
        ok = index_items(s, containing) == 0;
    }
    PyMem_RawFree(containing);
    if (ok) {
        s->by_popcount = mode == MODE_AUTO ? choose_popcount(s) : mode;
        ok = pad_option_rows(s) == 0;
    }
    if (ok)
        set_root(s);
    return ok ? 0 : -1;
}

/* The capacity items' option rows, from each option's list, and their uses per level (none at
 * the root). Only options that can ever be chosen are in the rows. 0, or -1 with MemoryError. */
static int build_caps(Bsx *s, int32_t caps)
{
    const size_t w = (size_t)s->words_per_set;
    s->caps = caps;
    s->cap_options = PyMem_RawCalloc((size_t)(caps > 0 ? caps : 1) * w, 8);
    s->cap_used = PyMem_RawCalloc((size_t)s->levels * (size_t)(caps > 0 ? caps : 1), 4);
    if (!s->cap_options || !s->cap_used) {
        PyErr_NoMemory();
        return -1;
    }
    for (int32_t k = 0; k < s->options; k++)
        if (has_bit(s->live, k))
            for (int32_t e = s->cap_start[k]; e < s->cap_start[k + 1]; e++)
                s->cap_options[(size_t)s->cap_item[e] * w + (size_t)(k / 64)] |= UINT64_C(1) << (k % 64);
    return 0;
}

#endif
