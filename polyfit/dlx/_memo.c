/*
 * polyfit.dlx._memo: count exact covers by remembering subproblems, in C.
 *
 * Twin of polyfit/dlx/memo.py (read its docstring for the method): the same prepared problem,
 * the same states, the same choice of branching item, the same counts and node counts.
 *
 * A state is the bitset of free items (exact items first, then optional ones) and, per
 * multiplicity item, how often it has been covered (32 bits each). The key of a state is those
 * words; the cache is an open-addressing table of slots
 *
 *     key[KW] | count (128 bits, two words) | cost
 *
 * where cost is the number of states expanded to find the count (0 marks an empty slot). A key
 * lives in one of WINDOW consecutive slots from its hash. The table doubles while it is more
 * than half full and doubling stays within the memory cap; past the cap a new entry replaces
 * the cheapest one of its window (the one that took the least work to find). A count dropped
 * that way is found again if needed: never a wrong count.
 *
 * Counts are unsigned 128-bit integers; an addition that overflows stops the count with an
 * OverflowError (the Python twin counts with Python integers). Ctrl-C is checked every
 * CHECK_EVERY expansions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

#define WINDOW 8
#define CHECK_EVERY 16384
#define FIRST_SLOTS 4096

typedef unsigned __int128 u128;

typedef struct {
    PyObject_HEAD
    int32_t bits, exact, words, mult, key_words, slot_words;
    int32_t options;
    int32_t *bit_start, *bit_options;     /* CSR: the options with each bit */
    int32_t *opt_start, *opt_word;        /* CSR: each option's nonzero words ... */
    uint64_t *opt_mask;                   /* ... and their bits */
    int32_t *mult_start, *mult_item, *mult_amount; /* CSR: each option's multiplicity items */
    uint32_t *lo, *hi;
    uint64_t *free_stack;                 /* per level: the free bits */
    uint32_t *used_stack;                 /* per level: the multiplicity counts */
    int32_t *choice_stack;                /* per level: the valid options of the branching item */
    uint64_t *key_stack;                  /* per level: the key of its state */
    int32_t longest;                      /* the most options any bit has */
    uint64_t *table;
    uint64_t slots, entries, cap_slots;
    long long nodes, hits, evictions, next_check;
    long long node_limit;                 /* stop past this many states expanded (0: never) */
    int failed;                           /* 1 overflow, 2 Python error (Ctrl-C, memory), 3 limit */
} Memo;

static void Memo_free_arrays(Memo *s)
{
    PyMem_Free(s->bit_start); PyMem_Free(s->bit_options);
    PyMem_Free(s->opt_start); PyMem_Free(s->opt_word); PyMem_Free(s->opt_mask);
    PyMem_Free(s->mult_start); PyMem_Free(s->mult_item); PyMem_Free(s->mult_amount);
    PyMem_Free(s->lo); PyMem_Free(s->hi);
    PyMem_Free(s->free_stack); PyMem_Free(s->used_stack); PyMem_Free(s->choice_stack);
    PyMem_Free(s->key_stack);
    PyMem_Free(s->table);
    s->bit_start = s->bit_options = s->opt_start = s->opt_word = NULL;
    s->mult_start = s->mult_item = s->mult_amount = s->choice_stack = NULL;
    s->opt_mask = s->free_stack = s->table = s->key_stack = NULL;
    s->lo = s->hi = s->used_stack = NULL;
}

static void Memo_dealloc(Memo *s)
{
    Memo_free_arrays(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* A list of Python ints as a new int32 array of its length (NULL and an exception on error). */
static int32_t *int_array(PyObject *list, Py_ssize_t *length)
{
    PyObject *seq = PySequence_Fast(list, "expected a list of integers");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int32_t *out = PyMem_Calloc(n + 1, sizeof(int32_t));
    if (out == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(seq);
            return NULL;
        }
        if (v < INT32_MIN || v > INT32_MAX) {
            PyErr_SetString(PyExc_ValueError, "integer out of range");
            PyMem_Free(out);
            Py_DECREF(seq);
            return NULL;
        }
        out[k] = (int32_t)v;
    }
    *length = n;
    Py_DECREF(seq);
    return out;
}

/* Counter(bits, exact, lo, hi, opt_start, opt_bits, mult_start, mult_items, mult_amounts,
 * memory): option k has the bits opt_bits[opt_start[k]:opt_start[k+1]] and the multiplicity
 * items mult_items[...] with amounts mult_amounts[...] (same CSR with mult_start). */
static int Memo_init(Memo *s, PyObject *args, PyObject *kwds)
{
    int bits, exact;
    long long memory;
    PyObject *lo_list, *hi_list, *os_list, *ob_list, *ms_list, *mi_list, *ma_list;
    if (!PyArg_ParseTuple(args, "iiOOOOOOOL", &bits, &exact, &lo_list, &hi_list, &os_list, &ob_list,
                          &ms_list, &mi_list, &ma_list, &memory))
        return -1;
    Memo_free_arrays(s);
    if (bits < 0 || exact < 0 || exact > bits) {
        PyErr_SetString(PyExc_ValueError, "bad item counts");
        return -1;
    }
    Py_ssize_t nlo, nhi, nos, nob, nms, nmi, nma;
    int32_t *lo = int_array(lo_list, &nlo), *hi = int_array(hi_list, &nhi);
    int32_t *opt_start = int_array(os_list, &nos), *opt_bits = int_array(ob_list, &nob);
    int32_t *mult_start = int_array(ms_list, &nms), *mult_item = int_array(mi_list, &nmi);
    int32_t *mult_amount = int_array(ma_list, &nma);
    s->mult_start = mult_start;
    s->mult_item = mult_item;
    s->mult_amount = mult_amount;
    s->lo = (uint32_t *)lo;
    s->hi = (uint32_t *)hi;
    s->opt_start = opt_start;
    if (!lo || !hi || !opt_start || !opt_bits || !mult_start || !mult_item || !mult_amount) {
        PyMem_Free(opt_bits);
        return -1;
    }
    if (nlo != nhi || nos < 1 || nms != nos || nmi != nma || opt_start[0] != 0 || mult_start[0] != 0 ||
        opt_start[nos - 1] != nob || mult_start[nms - 1] != nmi) {
        PyMem_Free(opt_bits);
        PyErr_SetString(PyExc_ValueError, "inconsistent option lists");
        return -1;
    }
    s->bits = bits;
    s->exact = exact;
    s->mult = (int32_t)nlo;
    s->options = (int32_t)(nos - 1);
    s->words = (bits + 63) / 64;
    if (s->words == 0)
        s->words = 1;
    s->key_words = s->words + (s->mult + 1) / 2;
    s->slot_words = s->key_words + 3;
    for (Py_ssize_t k = 0; k < nlo; k++) {
        if (lo[k] < 0 || hi[k] < 0) {
            PyMem_Free(opt_bits);
            PyErr_SetString(PyExc_ValueError, "negative bound");
            return -1;
        }
    }
    for (Py_ssize_t k = 0; k < nob; k++)
        if (opt_bits[k] < 0 || opt_bits[k] >= bits) {
            PyMem_Free(opt_bits);
            PyErr_SetString(PyExc_ValueError, "bit out of range");
            return -1;
        }
    for (Py_ssize_t k = 0; k < nmi; k++)
        if (mult_item[k] < 0 || mult_item[k] >= s->mult || mult_amount[k] < 1) {
            PyMem_Free(opt_bits);
            PyErr_SetString(PyExc_ValueError, "multiplicity item out of range");
            return -1;
        }
    /* Each option's bits as (word, mask) pairs, one per word it touches. */
    s->opt_word = PyMem_Calloc(nob + 1, sizeof(int32_t));
    s->opt_mask = PyMem_Calloc(nob + 1, sizeof(uint64_t));
    s->bit_start = PyMem_Calloc(bits + 2, sizeof(int32_t));
    s->bit_options = PyMem_Calloc(nob + 1, sizeof(int32_t));
    if (!s->opt_word || !s->opt_mask || !s->bit_start || !s->bit_options) {
        PyMem_Free(opt_bits);
        PyErr_NoMemory();
        return -1;
    }
    int32_t *starts = PyMem_Calloc(nos, sizeof(int32_t));
    if (!starts) {
        PyMem_Free(opt_bits);
        PyErr_NoMemory();
        return -1;
    }
    int32_t pairs = 0;
    for (int32_t o = 0; o < s->options; o++) {
        starts[o] = pairs;
        for (int32_t k = opt_start[o]; k < opt_start[o + 1]; k++) {
            int32_t b = opt_bits[k], w = b / 64;
            int32_t t = starts[o];
            while (t < pairs && s->opt_word[t] != w)
                t++;
            if (t == pairs) {
                s->opt_word[pairs] = w;
                s->opt_mask[pairs] = 0;
                pairs++;
            }
            s->opt_mask[t] |= (uint64_t)1 << (b % 64);
            s->bit_start[b + 1]++;
        }
    }
    starts[s->options] = pairs;
    for (int32_t b = 0; b < bits; b++)
        s->bit_start[b + 1] += s->bit_start[b];
    int32_t *fill = PyMem_Calloc(bits + 1, sizeof(int32_t));
    if (!fill) {
        PyMem_Free(starts);
        PyMem_Free(opt_bits);
        PyErr_NoMemory();
        return -1;
    }
    for (int32_t o = 0; o < s->options; o++)
        for (int32_t k = opt_start[o]; k < opt_start[o + 1]; k++) {
            int32_t b = opt_bits[k];
            s->bit_options[s->bit_start[b] + fill[b]++] = o;
        }
    PyMem_Free(fill);
    PyMem_Free(opt_bits);
    memcpy(opt_start, starts, nos * sizeof(int32_t));
    PyMem_Free(starts);
    /* Stacks: every level frees at least one bit, so there are at most bits + 1 levels. */
    size_t levels = (size_t)bits + 2;
    s->free_stack = PyMem_Calloc(levels * s->words, sizeof(uint64_t));
    s->used_stack = PyMem_Calloc(levels * (s->mult + 1), sizeof(uint32_t));
    s->longest = 0;
    for (int32_t b = 0; b < bits; b++)
        if (s->bit_start[b + 1] - s->bit_start[b] > s->longest)
            s->longest = s->bit_start[b + 1] - s->bit_start[b];
    s->choice_stack = PyMem_Calloc(levels * ((size_t)s->longest + 1), sizeof(int32_t));
    s->key_stack = PyMem_Calloc(levels * (size_t)s->key_words, sizeof(uint64_t));
    if (!s->free_stack || !s->used_stack || !s->choice_stack || !s->key_stack) {
        PyErr_NoMemory();
        return -1;
    }
    uint64_t slot_bytes = 8 * (uint64_t)s->slot_words;
    uint64_t cap = memory > 0 ? (uint64_t)memory / slot_bytes : 0;
    uint64_t cap_slots = 2 * WINDOW; /* the least table, whatever the cap */
    while (cap_slots * 2 <= cap)
        cap_slots *= 2;
    s->cap_slots = cap_slots;
    s->slots = cap_slots < FIRST_SLOTS ? cap_slots : FIRST_SLOTS;
    s->table = PyMem_Calloc(s->slots * s->slot_words, sizeof(uint64_t));
    if (!s->table) {
        PyErr_NoMemory();
        return -1;
    }
    s->entries = 0;
    s->nodes = s->hits = s->evictions = 0;
    return 0;
}

static inline uint64_t hash_key(const uint64_t *key, int32_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int32_t k = 0; k < n; k++) {
        h ^= key[k] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    return h;
}

static inline uint64_t *slot_at(Memo *s, uint64_t i) { return s->table + i * s->slot_words; }

static int lookup(Memo *s, const uint64_t *key, u128 *value)
{
    uint64_t mask = s->slots - 1, h = hash_key(key, s->key_words);
    for (int k = 0; k < WINDOW; k++) {
        uint64_t *slot = slot_at(s, (h + k) & mask);
        uint64_t cost = slot[s->key_words + 2];
        if (cost && memcmp(slot, key, 8 * s->key_words) == 0) {
            *value = ((u128)slot[s->key_words + 1] << 64) | slot[s->key_words];
            return 1;
        }
    }
    return 0;
}

/* Put an entry in its window: in an empty slot, else over the cheapest one (if the table may
 * not grow). Returns 1 if it went in without replacing anything. */
static int place(Memo *s, const uint64_t *key, u128 value, uint64_t cost, int may_replace)
{
    uint64_t mask = s->slots - 1, h = hash_key(key, s->key_words);
    uint64_t *cheapest = NULL;
    for (int k = 0; k < WINDOW; k++) {
        uint64_t *slot = slot_at(s, (h + k) & mask);
        uint64_t c = slot[s->key_words + 2];
        if (c == 0) {
            cheapest = slot;
            break;
        }
        if (cheapest == NULL || c < cheapest[s->key_words + 2])
            cheapest = slot;
    }
    int empty = cheapest[s->key_words + 2] == 0;
    if (!empty && !may_replace)
        return 0;
    memcpy(cheapest, key, 8 * s->key_words);
    cheapest[s->key_words] = (uint64_t)value;
    cheapest[s->key_words + 1] = (uint64_t)(value >> 64);
    cheapest[s->key_words + 2] = cost ? cost : 1;
    return empty ? 1 : 2;
}

static void grow(Memo *s)
{
    uint64_t old_slots = s->slots;
    uint64_t *old = s->table;
    uint64_t *bigger = PyMem_Calloc(old_slots * 2 * s->slot_words, sizeof(uint64_t));
    if (bigger == NULL) {
        s->cap_slots = old_slots; /* no more memory: stay this size */
        return;
    }
    s->table = bigger;
    s->slots = old_slots * 2;
    s->entries = 0;
    for (uint64_t i = 0; i < old_slots; i++) {
        uint64_t *slot = old + i * s->slot_words;
        uint64_t cost = slot[s->key_words + 2];
        if (!cost)
            continue;
        u128 value = ((u128)slot[s->key_words + 1] << 64) | slot[s->key_words];
        if (place(s, slot, value, cost, 0) == 1)
            s->entries++;
        else
            s->evictions++;
    }
    PyMem_Free(old);
}

static void store(Memo *s, const uint64_t *key, u128 value, uint64_t cost)
{
    if (2 * (s->entries + 1) > s->slots && s->slots < s->cap_slots)
        grow(s);
    for (;;) {
        /* Replace an entry only when the table may not grow (a full window grows it). */
        int placed = place(s, key, value, cost, s->slots >= s->cap_slots);
        if (placed == 1) {
            s->entries++;
            return;
        }
        if (placed == 2) {
            s->evictions++;
            return;
        }
        grow(s);
    }
}

/* The state of level lv as a key (free words, then the counts packed two per word). */
static void make_key(Memo *s, int32_t lv, uint64_t *key)
{
    memcpy(key, s->free_stack + (size_t)lv * s->words, 8 * s->words);
    const uint32_t *used = s->used_stack + (size_t)lv * (s->mult + 1);
    for (int32_t m = 0; m < s->mult; m += 2) {
        uint64_t w = used[m];
        if (m + 1 < s->mult)
            w |= (uint64_t)used[m + 1] << 32;
        key[s->words + m / 2] = w;
    }
}

static inline int valid(Memo *s, int32_t o, const uint64_t *free, const uint32_t *used)
{
    for (int32_t t = s->opt_start[o]; t < s->opt_start[o + 1]; t++) {
        uint64_t m = s->opt_mask[t];
        if ((free[s->opt_word[t]] & m) != m)
            return 0;
    }
    for (int32_t t = s->mult_start[o]; t < s->mult_start[o + 1]; t++)
        if (used[s->mult_item[t]] + (uint32_t)s->mult_amount[t] > s->hi[s->mult_item[t]])
            return 0;
    return 1;
}

/* The valid options of bit b into out; their number. */
static inline int32_t valid_options(Memo *s, int32_t b, const uint64_t *free, const uint32_t *used, int32_t *out)
{
    int32_t n = 0;
    for (int32_t k = s->bit_start[b]; k < s->bit_start[b + 1]; k++) {
        int32_t o = s->bit_options[k];
        if (valid(s, o, free, used))
            out[n++] = o;
    }
    return n;
}

/* The branches of the state at level lv: the options in choices (their number returned in
 * *count), and *closed the optional bit whose closing is a branch too (-1 if none); with no
 * branch, the return value is the leaf's count (1 for a solution, 0 for a dead end). */
static int branches(Memo *s, int32_t lv, int32_t *choices, int32_t *count, int32_t *closed)
{
    const uint64_t *free = s->free_stack + (size_t)lv * s->words;
    const uint32_t *used = s->used_stack + (size_t)lv * (s->mult + 1);
    int32_t best = -1, best_n = 0;
    *closed = -1;
    /* Exact items first: the one with the fewest valid options, the lowest on ties. */
    for (int32_t w = 0; w * 64 < s->exact; w++) {
        uint64_t x = free[w];
        int32_t top = s->exact - w * 64;
        if (top < 64)
            x &= ((uint64_t)1 << top) - 1;
        while (x) {
            int32_t b = w * 64 + __builtin_ctzll(x);
            x &= x - 1;
            int32_t n = 0;
            for (int32_t k = s->bit_start[b]; k < s->bit_start[b + 1]; k++) {
                if (valid(s, s->bit_options[k], free, used)) {
                    n++;
                    if (best >= 0 && n >= best_n)
                        break;
                }
            }
            if (best < 0 || n < best_n) {
                best = b;
                best_n = n;
                if (n <= 1)
                    goto exact_found;
            }
        }
    }
    if (best >= 0) {
    exact_found:
        *count = valid_options(s, best, free, used, choices);
        return 0;
    }
    /* Then the optional items with valid options: the one with the fewest. */
    for (int32_t w = s->exact / 64; w < s->words; w++) {
        uint64_t x = free[w];
        if (w == s->exact / 64 && s->exact % 64)
            x &= ~(((uint64_t)1 << (s->exact % 64)) - 1);
        while (x) {
            int32_t b = w * 64 + __builtin_ctzll(x);
            x &= x - 1;
            int32_t n = 0;
            for (int32_t k = s->bit_start[b]; k < s->bit_start[b + 1]; k++) {
                if (valid(s, s->bit_options[k], free, used)) {
                    n++;
                    if (best >= 0 && n >= best_n)
                        break;
                }
            }
            if (n > 0 && (best < 0 || n < best_n)) {
                best = b;
                best_n = n;
                if (n == 1)
                    goto optional_found;
            }
        }
    }
    if (best >= 0) {
    optional_found:
        *count = valid_options(s, best, free, used, choices);
        *closed = best;
        return 0;
    }
    *count = 0;
    for (int32_t m = 0; m < s->mult; m++)
        if (used[m] < s->lo[m])
            return 0;
    return 1;
}

/* Level lv + 1 := level lv after taking option o (or closing bit -1 - o when o < 0). */
static void descend(Memo *s, int32_t lv, int32_t o)
{
    uint64_t *free = s->free_stack + (size_t)(lv + 1) * s->words;
    uint32_t *used = s->used_stack + (size_t)(lv + 1) * (s->mult + 1);
    memcpy(free, s->free_stack + (size_t)lv * s->words, 8 * s->words);
    memcpy(used, s->used_stack + (size_t)lv * (s->mult + 1), 4 * (s->mult + 1));
    if (o < 0) {
        int32_t b = -1 - o;
        free[b / 64] &= ~((uint64_t)1 << (b % 64));
        return;
    }
    for (int32_t t = s->opt_start[o]; t < s->opt_start[o + 1]; t++)
        free[s->opt_word[t]] &= ~s->opt_mask[t];
    for (int32_t t = s->mult_start[o]; t < s->mult_start[o + 1]; t++)
        used[s->mult_item[t]] += (uint32_t)s->mult_amount[t];
}

/* The count of the state at level lv. On failure, s->failed is set and 0 returned. */
static u128 count_at(Memo *s, int32_t lv)
{
    uint64_t *key = s->key_stack + (size_t)lv * s->key_words;
    make_key(s, lv, key);
    u128 total;
    if (lookup(s, key, &total)) {
        s->hits++;
        return total;
    }
    long long before = ++s->nodes;
    if (s->node_limit > 0 && s->nodes > s->node_limit) {
        s->failed = 3;
        return 0;
    }
    if (s->nodes >= s->next_check) {
        s->next_check = s->nodes + CHECK_EVERY;
        if (PyErr_CheckSignals() < 0) {
            s->failed = 2;
            return 0;
        }
    }
    int32_t *choices = s->choice_stack + (size_t)lv * ((size_t)s->longest + 1);
    int32_t n, closed;
    total = branches(s, lv, choices, &n, &closed);
    if (closed >= 0) {
        descend(s, lv, -1 - closed);
        total = count_at(s, lv + 1);
        if (s->failed)
            return 0;
    }
    for (int32_t k = 0; k < n && !s->failed; k++) {
        descend(s, lv, choices[k]);
        u128 below = count_at(s, lv + 1);
        u128 sum = total + below;
        if (sum < total) {
            s->failed = 1;
            return 0;
        }
        total = sum;
    }
    if (s->failed)
        return 0;
    store(s, key, total, (uint64_t)(s->nodes - before + 1));
    return total;
}

static PyObject *u128_to_long(u128 v)
{
    PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *shifted = high && shift ? PyNumber_Lshift(high, shift) : NULL;
    PyObject *result = shifted && low ? PyNumber_Or(shifted, low) : NULL;
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    return result;
}

static PyObject *count_level(Memo *s, int32_t lv)
{
    s->failed = 0;
    s->next_check = s->nodes + CHECK_EVERY;
    u128 total = count_at(s, lv);
    if (s->failed == 1) {
        PyErr_SetString(PyExc_OverflowError, "the count exceeds 2**128");
        return NULL;
    }
    if (s->failed == 2)
        return NULL;
    if (s->failed == 3) {
        PyErr_SetString(PyExc_TimeoutError, "the node limit was reached");
        return NULL;
    }
    return u128_to_long(total);
}

/* The state at level 0 after taking the options `taken` and closing the bits `closed`. */
static int set_root(Memo *s, PyObject *taken, PyObject *closed)
{
    uint64_t *free = s->free_stack;
    uint32_t *used = s->used_stack;
    memset(free, 0, 8 * s->words);
    memset(used, 0, 4 * (s->mult + 1));
    for (int32_t b = 0; b < s->bits; b++)
        free[b / 64] |= (uint64_t)1 << (b % 64);
    Py_ssize_t n;
    if (taken != NULL) {
        int32_t *list = int_array(taken, &n);
        if (list == NULL)
            return -1;
        for (Py_ssize_t k = 0; k < n; k++) {
            int32_t o = list[k];
            if (o < 0 || o >= s->options) {
                PyMem_Free(list);
                PyErr_SetString(PyExc_ValueError, "option out of range");
                return -1;
            }
            for (int32_t t = s->opt_start[o]; t < s->opt_start[o + 1]; t++)
                free[s->opt_word[t]] &= ~s->opt_mask[t];
            for (int32_t t = s->mult_start[o]; t < s->mult_start[o + 1]; t++)
                used[s->mult_item[t]] += (uint32_t)s->mult_amount[t];
        }
        PyMem_Free(list);
    }
    if (closed != NULL) {
        int32_t *list = int_array(closed, &n);
        if (list == NULL)
            return -1;
        for (Py_ssize_t k = 0; k < n; k++) {
            int32_t b = list[k];
            if (b < 0 || b >= s->bits) {
                PyMem_Free(list);
                PyErr_SetString(PyExc_ValueError, "bit out of range");
                return -1;
            }
            free[b / 64] &= ~((uint64_t)1 << (b % 64));
        }
        PyMem_Free(list);
    }
    return 0;
}

static PyObject *Memo_count(Memo *s, PyObject *noargs)
{
    if (set_root(s, NULL, NULL) < 0)
        return NULL;
    return count_level(s, 0);
}

/* weighted(taken, closed) -> (leaf, [(choice, count), ...]): the branches of that state with
 * the number of solutions below each; a choice is an option, or -1 - bit for closing a bit. */
static PyObject *Memo_weighted(Memo *s, PyObject *args)
{
    PyObject *taken, *closed;
    if (!PyArg_ParseTuple(args, "OO", &taken, &closed))
        return NULL;
    if (set_root(s, taken, closed) < 0)
        return NULL;
    int32_t n, bit;
    int32_t *choices = PyMem_Calloc((size_t)s->longest + 1, sizeof(int32_t));
    if (choices == NULL)
        return PyErr_NoMemory();
    int leaf = branches(s, 0, choices, &n, &bit);
    PyObject *list = PyList_New(0);
    for (int32_t k = -1; k < n && list != NULL; k++) {
        int32_t choice = k < 0 ? (bit >= 0 ? -1 - bit : 0) : choices[k];
        if (k < 0 && bit < 0)
            continue;
        descend(s, 0, choice);
        PyObject *below = count_level(s, 1);
        PyObject *pair = below ? Py_BuildValue("(iN)", choice, below) : NULL;
        if (pair == NULL || PyList_Append(list, pair) < 0) {
            Py_XDECREF(pair);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(pair);
    }
    PyMem_Free(choices);
    if (list == NULL)
        return NULL;
    return Py_BuildValue("(iN)", leaf, list);
}

static PyObject *Memo_entries(Memo *s, void *closure) { return PyLong_FromUnsignedLongLong(s->entries); }
static PyObject *Memo_memory(Memo *s, void *closure)
{
    return PyLong_FromUnsignedLongLong(s->slots * 8 * (uint64_t)s->slot_words);
}

static PyMemberDef Memo_members[] = {
    {"nodes", T_LONGLONG, offsetof(Memo, nodes), READONLY, "states expanded"},
    {"hits", T_LONGLONG, offsetof(Memo, hits), READONLY, "counts found in the cache"},
    {"evictions", T_LONGLONG, offsetof(Memo, evictions), READONLY, "entries dropped when the cache was full"},
    {"node_limit", T_LONGLONG, offsetof(Memo, node_limit), 0, "count() raises TimeoutError past this many states expanded (0: no limit)"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Memo_getset[] = {
    {"entries", (getter)Memo_entries, NULL, "states in the cache", NULL},
    {"memory", (getter)Memo_memory, NULL, "bytes of the cache table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Memo_methods[] = {
    {"count", (PyCFunction)Memo_count, METH_NOARGS, "The number of solutions."},
    {"weighted", (PyCFunction)Memo_weighted, METH_VARARGS, "The branches of a state with their counts."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject MemoType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "polyfit.dlx._memo.Counter",
    .tp_basicsize = sizeof(Memo),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Counts exact covers with a cache of subproblem counts.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Memo_init,
    .tp_dealloc = (destructor)Memo_dealloc,
    .tp_methods = Memo_methods,
    .tp_members = Memo_members,
    .tp_getset = Memo_getset,
};

static struct PyModuleDef memo_module = {
    PyModuleDef_HEAD_INIT, "_memo", "Memoizing exact cover counter in C.", -1, NULL,
};

PyMODINIT_FUNC PyInit__memo(void)
{
    if (PyType_Ready(&MemoType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&memo_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&MemoType);
    if (PyModule_AddObject(m, "Counter", (PyObject *)&MemoType) < 0) {
        Py_DECREF(&MemoType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
