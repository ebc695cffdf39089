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
 * choose_popcount() (in _bsx_build.h) estimates both costs at the root and takes the cheaper.
 *
 * Python hands over the options as lists of items; _bsx_build.h holds the state and builds the
 * bitsets from them (it describes every array), and this file runs the search over them.
 * Like _dlxc, the search is resumable in batches, releases the GIL and checks for Ctrl-C. On
 * x86 the search is compiled twice, with and without the POPCNT instruction, and the processor
 * picks; each of those is compiled once for each way of finding the branching item, so that
 * neither tests the way at every item.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <structmember.h>
#include <string.h>

#include "_batch.h"
#include "_bsx_build.h"

#define CHECK_EVERY 16384

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define POPCNT_CLONE 1
#endif

enum { FORWARD, NEXT, DONE };

static void Bsx_dealloc(Bsx *s)
{
    bsx_free_arrays(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* Search(primary, items, opt_start, opt_items, mode=-1, cap_lo=None, cap_hi=None, cap_start=None,
 * cap_items=None): the options as lists of item indices (CSR: option k has items
 * opt_items[opt_start[k] .. opt_start[k+1]-1]; items below `primary` are primary). mode: -1 to
 * choose, 0 by counts, 1 by popcount (the tests run both). The capacity items (see
 * _bsx_build.h), when given: their bounds, and each option's (CSR, indices into cap_lo). The
 * lists are checked here and the bitsets built by bsx_build() and build_caps(). */
static int Bsx_init(Bsx *s, PyObject *args, PyObject *kwds)
{
    int primary, items, mode = MODE_AUTO;
    PyObject *start_obj, *items_obj, *lo_obj = Py_None, *hi_obj = Py_None, *cs_obj = Py_None, *ci_obj = Py_None;
    static char *names[] = {"primary", "items", "opt_start", "opt_items", "mode", "cap_lo", "cap_hi",
                            "cap_start", "cap_items", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiOO|iOOOO", names, &primary, &items, &start_obj,
                                     &items_obj, &mode, &lo_obj, &hi_obj, &cs_obj, &ci_obj))
        return -1;
    if (s->item_options != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cannot re-initialise");
        return -1;
    }
    if (mode < MODE_AUTO || mode > MODE_POPCOUNT) {
        PyErr_SetString(PyExc_ValueError, "mode must be -1 (choose), 0 (counts) or 1 (popcount)");
        return -1;
    }
    int with_caps = lo_obj != Py_None;
    if (with_caps != (hi_obj != Py_None) || with_caps != (cs_obj != Py_None) || with_caps != (ci_obj != Py_None)) {
        PyErr_SetString(PyExc_ValueError, "cap_lo, cap_hi, cap_start and cap_items go together");
        return -1;
    }
    Py_ssize_t nstart, nall;
    int32_t *start = copy_buffer(start_obj, &nstart);
    int32_t *all = start ? copy_buffer(items_obj, &nall) : NULL;
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
    if (ok)
        ok = bsx_build(s, primary, items, options, start, all, nall, mode) == 0;
    if (ok && with_caps) {
        Py_ssize_t nlo, nhi, ncs, nci;
        s->cap_lo = copy_buffer(lo_obj, &nlo);
        s->cap_hi = s->cap_lo ? copy_buffer(hi_obj, &nhi) : NULL;
        s->cap_start = s->cap_hi ? copy_buffer(cs_obj, &ncs) : NULL;
        s->cap_item = s->cap_start ? copy_buffer(ci_obj, &nci) : NULL;
        ok = s->cap_item != NULL;
        if (ok && (nlo != nhi || nlo > INT32_MAX || ncs != (Py_ssize_t)options + 1 || s->cap_start[0] != 0
                   || s->cap_start[options] != nci)) {
            PyErr_SetString(PyExc_ValueError, "inconsistent capacity lists");
            ok = 0;
        }
        for (int32_t c = 0; ok && c < (int32_t)nlo; c++)
            if (s->cap_lo[c] < 0 || s->cap_hi[c] < 1 || s->cap_lo[c] > s->cap_hi[c]) {
                PyErr_SetString(PyExc_ValueError, "capacity bounds need 0 <= lo <= hi, hi >= 1");
                ok = 0;
            }
        for (int32_t k = 0; ok && k < options; k++)
            if (s->cap_start[k] > s->cap_start[k + 1]) {
                PyErr_SetString(PyExc_ValueError, "inconsistent capacity lists");
                ok = 0;
            }
        for (Py_ssize_t t = 0; ok && t < nci; t++)
            if (s->cap_item[t] < 0 || s->cap_item[t] >= nlo) {
                PyErr_SetString(PyExc_ValueError, "bad capacity item index");
                ok = 0;
            }
        if (ok)
            ok = build_caps(s, (int32_t)nlo) == 0;
    }
    if (ok) {
        s->level = 0;
        s->phase = FORWARD;
    }
    PyMem_RawFree(start);
    PyMem_RawFree(all);
    return ok ? 0 : -1;
}

/* Is the cover at level lv a solution: has every capacity item reached its low bound? */
static inline int caps_met(const Bsx *s, int32_t lv)
{
    const int32_t *used = s->cap_used + (size_t)lv * s->caps;
    for (int32_t c = 0; c < s->caps; c++)
        if (used[c] < s->cap_lo[c])
            return 0;
    return 1;
}

/* Kill the options of `row` in level lv's live set (packed, full by popcount, counts by counts),
 * after choose() has made it. Returns the options killed. */
static long long kill_row(Bsx *s, int32_t lv, const uint64_t *row)
{
    const int32_t words = s->words_per_set;
    int32_t *index = s->live_index + (size_t)lv * words;
    uint64_t *bits = s->live_bits + (size_t)lv * words;
    uint64_t *live = s->live + (size_t)lv * words;
    int32_t *counts = s->counts + (size_t)lv * s->counts_per_level;
    long long killed = 0;
    int32_t m = 0;
    for (int32_t t = 0; t < s->live_words[lv]; t++) {
        uint64_t x = bits[t], dead = x & row[index[t]];
        if (dead) {
            killed += bit_count(dead);
            x &= ~dead;
            if (s->by_popcount) {
                live[index[t]] = x;
            } else {
                while (dead) {
                    int32_t k = index[t] * 64 + __builtin_ctzll(dead);
                    dead &= dead - 1;
                    for (int32_t e = s->option_start[k]; e < s->option_start[k + 1]; e++)
                        counts[s->option_item[e]]--;
                }
            }
        }
        index[m] = index[t];
        bits[m] = x;
        m += x != 0;
    }
    s->live_words[lv] = m;
    return killed;
}

static int record(Bsx *s)
{
    return found_append(&s->found, s->choice, s->level);
}

/* The uncovered primary item with the fewest live options (leftmost on ties), or -1 when every
 * primary item is covered: by the counts of the level, or by popcount over the live words. */
static inline __attribute__((always_inline)) int32_t best_item(const Bsx *s, int32_t lv, const int by_popcount)
{
    const uint64_t *covered = s->covered + (size_t)lv * s->words_per_item_set;
    const int32_t *counts = s->counts + (size_t)lv * s->counts_per_level;
    const uint64_t *live = s->live + (size_t)lv * s->words_per_set;
    const int32_t *live_index = s->live_index + (size_t)lv * s->words_per_set;
    const uint64_t *live_bits = s->live_bits + (size_t)lv * s->words_per_set;
    const int32_t live_words = s->live_words[lv];
    int32_t best = -1, least = INT32_MAX;
    for (int32_t word = 0; word < s->words_per_item_set; word++) {
        int32_t left = s->primary - word * 64; /* primary items in this word and after */
        if (left <= 0)
            break;
        uint64_t open = ~covered[word];
        if (left < 64)
            open &= (UINT64_C(1) << left) - 1;
        while (open) {
            int32_t j = word * 64 + __builtin_ctzll(open);
            open &= open - 1;
            int32_t c = 0;
            if (!by_popcount) {
                c = counts[j];
            } else {
                /* Count through the item's words or the live words, whichever are fewer,
                 * and stop once the count cannot beat the best. */
                int32_t first = s->item_nonzero_start[j], end = s->item_nonzero_start[j + 1];
                if (end - first <= live_words) {
                    for (int32_t t = first; t < end && c < least; t++)
                        c += bit_count(live[s->item_nonzero_index[t]] & s->item_nonzero_bits[t]);
                } else {
                    const uint64_t *item_options = s->item_options + (size_t)j * s->words_per_set;
                    for (int32_t t = 0; t < live_words && c < least; t++)
                        c += bit_count(live_bits[t] & item_options[live_index[t]]);
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
static inline __attribute__((always_inline)) long long choose(Bsx *s, int32_t lv, int32_t o, const int by_popcount)
{
    const int32_t words = s->words_per_set, per_level = s->counts_per_level, row_length = s->row_length;
    const uint64_t *restrict conflicts = s->conflicts + (size_t)o * words;
    const int32_t *restrict live_index = s->live_index + (size_t)lv * words;
    const uint64_t *restrict live_bits = s->live_bits + (size_t)lv * words;
    int32_t *restrict child_index = s->live_index + (size_t)(lv + 1) * words;
    uint64_t *restrict child_bits = s->live_bits + (size_t)(lv + 1) * words;
    const int32_t live_words = s->live_words[lv];
    long long killed = 0;
    int32_t m = 0;
    if (by_popcount) {
        const uint64_t *restrict live = s->live + (size_t)lv * words;
        uint64_t *restrict child = s->live + (size_t)(lv + 1) * words;
        for (int32_t i = 0; i < words; i++)
            child[i] = live[i] & ~conflicts[i];
        for (int32_t t = 0; t < live_words; t++) {
            uint64_t x = live_bits[t], c = conflicts[live_index[t]];
            killed += bit_count(x & c);
            child_index[m] = live_index[t]; /* kept when nonzero: no branch */
            child_bits[m] = x & ~c;
            m += (x & ~c) != 0;
        }
    } else {
        int32_t *restrict counts = s->counts + (size_t)(lv + 1) * per_level;
        const int32_t *restrict option_start = s->option_start, *restrict option_item = s->option_item;
        const int32_t *restrict option_rows = s->option_rows;
        memcpy(counts, s->counts + (size_t)lv * per_level, (size_t)per_level * 4);
        for (int32_t t = 0; t < live_words; t++) {
            uint64_t x = live_bits[t], c = conflicts[live_index[t]];
            uint64_t dead = x & c;
            child_index[m] = live_index[t];
            child_bits[m] = x & ~c;
            m += (x & ~c) != 0;
            while (dead) {
                int32_t k = live_index[t] * 64 + __builtin_ctzll(dead);
                dead &= dead - 1;
                killed++;
                if (row_length) {
                    const int32_t *row = option_rows + (size_t)k * row_length;
                    switch (row_length) { /* each case falls through: row_length decrements */
                    case 8: counts[row[7]]--; /* fall through */
                    case 7: counts[row[6]]--; /* fall through */
                    case 6: counts[row[5]]--; /* fall through */
                    case 5: counts[row[4]]--; /* fall through */
                    case 4: counts[row[3]]--; /* fall through */
                    case 3: counts[row[2]]--; /* fall through */
                    case 2: counts[row[1]]--; /* fall through */
                    default: counts[row[0]]--;
                    }
                } else {
                    const int32_t *item = option_item + option_start[k], *end = option_item + option_start[k + 1];
                    while (item < end)
                        counts[*item++]--;
                }
            }
        }
    }
    s->live_words[lv + 1] = m;
    const uint64_t *covered = s->covered + (size_t)lv * s->words_per_item_set;
    uint64_t *child_covered = s->covered + (size_t)(lv + 1) * s->words_per_item_set;
    const uint64_t *chosen_items = s->option_primary + (size_t)o * s->words_per_item_set;
    for (int32_t i = 0; i < s->words_per_item_set; i++)
        child_covered[i] = covered[i] | chosen_items[i];
    if (s->caps) {
        const int32_t *used = s->cap_used + (size_t)lv * s->caps;
        int32_t *child_used = s->cap_used + (size_t)(lv + 1) * s->caps;
        memcpy(child_used, used, (size_t)s->caps * 4);
        for (int32_t e = s->cap_start[o]; e < s->cap_start[o + 1]; e++) {
            int32_t c = s->cap_item[e];
            if (++child_used[c] == s->cap_hi[c])
                killed += kill_row(s, lv + 1, s->cap_options + (size_t)c * words);
        }
    }
    return killed;
}

static inline __attribute__((always_inline)) int search(Bsx *s, long long wanted, PyThreadState **save,
                                                        const int by_popcount)
{
    const int32_t words = s->words_per_set;
    long long found = 0, next_check = s->nodes + CHECK_EVERY;
    int32_t lv = s->level;

    if (s->phase == DONE)
        return 0;
    if (s->phase == NEXT)
        goto next;

forward: {
    int32_t i = best_item(s, lv, by_popcount);
    if (i < 0 && s->caps && !caps_met(s, lv)) {
        lv--; /* every primary item covered, but some capacity item too few times */
        if (lv < 0)
            goto done;
        goto next;
    }
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
    const uint64_t *item_options = s->item_options + (size_t)i * words;
    const int32_t *live_index = s->live_index + (size_t)lv * words;
    const uint64_t *live_bits = s->live_bits + (size_t)lv * words;
    int32_t *candidate_index = s->candidate_index + (size_t)lv * words;
    uint64_t *candidate_bits = s->candidate_bits + (size_t)lv * words;
    int32_t m = 0;
    for (int32_t t = 0; t < s->live_words[lv]; t++) {
        uint64_t x = live_bits[t] & item_options[live_index[t]];
        candidate_index[m] = live_index[t];
        candidate_bits[m] = x;
        m += x != 0;
    }
    s->candidate_words[lv] = m;
    s->candidate_next[lv] = 0;
}

next: {
    int32_t t = s->candidate_next[lv];
    if (t >= s->candidate_words[lv]) {
        lv--;
        if (lv < 0)
            goto done;
        goto next;
    }
    uint64_t *bits = s->candidate_bits + (size_t)lv * words + t;
    int32_t o = s->candidate_index[(size_t)lv * words + t] * 64 + __builtin_ctzll(*bits);
    *bits &= *bits - 1;
    if (*bits == 0)
        s->candidate_next[lv] = t + 1;
    s->nodes++;
    s->choice[lv] = o;
    s->updates += choose(s, lv, o, by_popcount);
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
    return s->by_popcount ? search(s, wanted, save, 1) : search(s, wanted, save, 0);
}
#endif

static int run_portable(Bsx *s, long long wanted, PyThreadState **save)
{
    return s->by_popcount ? search(s, wanted, save, 1) : search(s, wanted, save, 0);
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

SEARCH_MODULE(_bsx, Bsx, s->choice != NULL, Bsx_members, NO_MORE_METHODS, "A resumable bitset exact cover search over prebuilt bit arrays.", "Bitset exact cover search in C.")
