/* The search for the first separation of a set of pieces: the C twin of
 * polyfit/motion/search.py, move for move (see that module for what counts as a move and in
 * which order moves are tried). Python registers the shapes and reads the answer; C keeps the
 * pair-limit cache and runs the breadth-first search.
 *
 * Coordinates are three (Python pads fewer with zeros); a set of pieces is a bit mask, so a
 * search takes at most 64 pieces. A context slides pieces one unit along axes (cubes, squares:
 * C works out the pair limits) or along up to four step vectors whose pair limits a Python
 * function gives (prisms: polyfit/motion/prisms.py); either way C keeps them cached. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FREE 32000
#define REMOVE 30000
#define REMOVAL 10000
#define MAX_PIECES 64
#define MAX_DIRS 4        /* directions of motion (each with its opposite) */

enum { FOUND = 0, STUCK = 1, UNKNOWN = 2 };

/* -- shapes and pair limits ------------------------------------------------------------------ */

typedef struct {
    int size[3];          /* the box from the origin: every cell has 0 <= c[i] < size[i] */
    unsigned char *filled;
} Shape;

typedef struct {
    int32_t key[5];       /* first shape, second shape, offset (3) */
    int32_t limit[MAX_DIRS];
    int used;
} LimitEntry;

typedef struct {
    PyObject_HEAD
    int axes[3];          /* the axis of each direction, when C works out the pair limits */
    int naxes;            /* the directions of motion */
    int32_t step[MAX_DIRS][3];  /* each direction's step */
    PyObject *limits_of;  /* or NULL: limits_of(first, second, offset) -> the pair limits */
    Shape *shapes;
    Py_ssize_t nshapes, capshapes;
    LimitEntry *table;
    size_t tsize, tused;   /* tsize a power of two */
} Context;

static int filled(const Shape *s, int a, int b, int c) {
    if (a < 0 || b < 0 || c < 0 || a >= s->size[0] || b >= s->size[1] || c >= s->size[2]) return 0;
    return s->filled[((size_t)a * s->size[1] + b) * s->size[2] + c];
}

static uint32_t mix(uint32_t h, uint32_t v) {
    h ^= v;
    h *= 16777619u;
    h ^= h >> 15;
    return h;
}

static uint32_t limit_hash(const int32_t *key) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < 5; i++) h = mix(h, (uint32_t)key[i]);
    return h;
}

/* How far shape s1 slides along each axis (positive) before it touches s2, whose origin is
 * `offset` from s1's: along each line across the axis, the fewest empty cells between a cell
 * of s1 and a cell of s2 ahead of it. */
static void compute_limits(const Context *ctx, const Shape *s1, const Shape *s2, const int32_t *offset, int32_t *out) {
    for (int k = 0; k < ctx->naxes; k++) {
        int ax = ctx->axes[k];
        int p = (ax + 1) % 3, q = (ax + 2) % 3;
        int plo = offset[p] > 0 ? offset[p] : 0, phi = s1->size[p] < offset[p] + s2->size[p] ? s1->size[p] : offset[p] + s2->size[p];
        int qlo = offset[q] > 0 ? offset[q] : 0, qhi = s1->size[q] < offset[q] + s2->size[q] ? s1->size[q] : offset[q] + s2->size[q];
        int tlo = 0, thi = s1->size[ax] > offset[ax] + s2->size[ax] ? s1->size[ax] : offset[ax] + s2->size[ax];
        int32_t best = FREE;
        for (int u = plo; u < phi; u++)
            for (int v = qlo; v < qhi; v++) {
                int32_t gap = FREE;
                int c1[3], c2[3];
                c1[p] = u; c1[q] = v;
                c2[p] = u - offset[p]; c2[q] = v - offset[q];
                for (int t = tlo; t < thi; t++) {
                    c1[ax] = t;
                    c2[ax] = t - offset[ax];
                    if (filled(s1, c1[0], c1[1], c1[2])) gap = 0;
                    else if (filled(s2, c2[0], c2[1], c2[2])) { if (gap < best) best = gap; }
                    else if (gap < FREE) gap++;
                }
            }
        out[k] = best;
    }
}

/* The pair limits from the context's Python function (the search may run without the GIL: it
 * is taken for the call). 0, or -1 with an exception set. */
static int asked_limits(Context *ctx, int32_t s1, int32_t s2, const int32_t *offset, int32_t *out) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int result = -1;
    PyObject *answer = PyObject_CallFunction(ctx->limits_of, "ii(iii)", s1, s2, offset[0], offset[1], offset[2]);
    PyObject *fast = answer ? PySequence_Fast(answer, "pair limits") : NULL;
    if (fast && PySequence_Fast_GET_SIZE(fast) != ctx->naxes)
        PyErr_Format(PyExc_ValueError, "pair limits: expected %d numbers", ctx->naxes);
    else if (fast) {
        result = 0;
        for (int k = 0; k < ctx->naxes && result == 0; k++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
            if (v == -1 && PyErr_Occurred()) result = -1;
            else if (v < 0 || v > FREE) {
                PyErr_Format(PyExc_ValueError, "a pair limit of %ld is out of range", v);
                result = -1;
            } else out[k] = (int32_t)v;
        }
    }
    Py_XDECREF(fast);
    Py_XDECREF(answer);
    PyGILState_Release(gil);
    return result;
}

static int grow_limits(Context *ctx) {
    size_t nsize = ctx->tsize ? ctx->tsize * 2 : 1024;
    LimitEntry *nt = calloc(nsize, sizeof(LimitEntry));
    if (!nt) return -1;
    for (size_t i = 0; i < ctx->tsize; i++)
        if (ctx->table[i].used) {
            size_t h = limit_hash(ctx->table[i].key) & (nsize - 1);
            while (nt[h].used) h = (h + 1) & (nsize - 1);
            nt[h] = ctx->table[i];
        }
    free(ctx->table);
    ctx->table = nt;
    ctx->tsize = nsize;
    return 0;
}

static const int32_t *pair_limits(Context *ctx, int32_t s1, int32_t s2, const int32_t *offset) {
    int32_t key[5] = {s1, s2, offset[0], offset[1], offset[2]};
    if (ctx->tused * 2 >= ctx->tsize && grow_limits(ctx) < 0) return NULL;
    size_t h = limit_hash(key) & (ctx->tsize - 1);
    while (ctx->table[h].used) {
        if (!memcmp(ctx->table[h].key, key, sizeof key)) return ctx->table[h].limit;
        h = (h + 1) & (ctx->tsize - 1);
    }
    LimitEntry *e = &ctx->table[h];
    if (ctx->limits_of) {
        if (asked_limits(ctx, s1, s2, offset, e->limit) < 0) return NULL;
    } else {
        compute_limits(ctx, &ctx->shapes[s1], &ctx->shapes[s2], offset, e->limit);
    }
    memcpy(e->key, key, sizeof key);
    e->used = 1;
    ctx->tused++;
    return e->limit;
}

/* -- nodes ------------------------------------------------------------------------------------ */

typedef struct {
    int32_t parent;       /* index in the arena, -1 for the start */
    int32_t depth;
    int32_t amount;
    int32_t direction;
    uint64_t moved, removed;
    uint32_t hash;
    int32_t pos[];        /* 3 per piece */
} Node;

typedef struct {
    char *data;
    size_t stride, count, cap;
} Arena;

static Node *at(const Arena *a, size_t i) { return (Node *)(a->data + i * a->stride); }

static Node *push(Arena *a) {
    if (a->count == a->cap) {
        size_t ncap = a->cap ? a->cap * 2 : 16;
        char *nd = realloc(a->data, ncap * a->stride);
        if (!nd) return NULL;
        a->data = nd;
        a->cap = ncap;
    }
    return at(a, a->count++);
}

typedef struct {
    Context *ctx;
    int n;
    uint64_t full;
    const int32_t *shapes, *bases, *weights;
    Arena nodes;          /* every state kept: breadth first, so each depth is a run of indices */
    Arena scratch;        /* the moves of the state being expanded */
    int32_t *table;       /* open addressing over node indices, -1 empty */
    size_t tsize, tused;
    int32_t *limits;      /* [axis][i][j] */
    int root_ready;       /* the root's limits are in `limits` already (the driver's sub-parts) */
    long long states, max_states, max_bytes;
} Search;

static uint32_t node_hash(const Search *s, const Node *nd) {
    uint32_t h = 2166136261u;
    for (int i = 1; i < s->n; i++)
        for (int c = 0; c < 3; c++) h = mix(h, (uint32_t)(nd->pos[3 * i + c] - nd->pos[c]));
    return h ? h : 1;
}

static int same_state(const Search *s, const Node *a, const Node *b) {
    if (a->hash != b->hash) return 0;
    for (int i = 1; i < s->n; i++)
        for (int c = 0; c < 3; c++)
            if (a->pos[3 * i + c] - a->pos[c] != b->pos[3 * i + c] - b->pos[c]) return 0;
    return 1;
}

static int grow_table(Search *s) {
    size_t nsize = s->tsize * 2;
    int32_t *nt = malloc(nsize * sizeof(int32_t));
    if (!nt) return -1;
    memset(nt, 0xff, nsize * sizeof(int32_t));
    for (size_t i = 0; i < s->tsize; i++)
        if (s->table[i] >= 0) {
            size_t h = at(&s->nodes, s->table[i])->hash & (nsize - 1);
            while (nt[h] >= 0) h = (h + 1) & (nsize - 1);
            nt[h] = s->table[i];
        }
    free(s->table);
    s->table = nt;
    s->tsize = nsize;
    return 0;
}

/* The slot of the state `nd` (met at `depth`) in the table: the slot holding it when it was
 * met at a depth from `depth` - 2 on (*seen set: the last, this or the next front), else the
 * slot to put it in (an older copy is forgotten, as the Python twin's fronts forget it). */
static size_t find_slot(const Search *s, const Node *nd, int32_t depth, int *seen) {
    size_t h = nd->hash & (s->tsize - 1);
    *seen = 0;
    while (s->table[h] >= 0) {
        const Node *other = at(&s->nodes, s->table[h]);
        if (same_state(s, other, nd)) {
            *seen = other->depth >= depth - 2;
            return h;
        }
        h = (h + 1) & (s->tsize - 1);
    }
    return h;
}

/* -- moves ------------------------------------------------------------------------------------ */

static int fill_limits(Search *s, const Node *nd) {
    int n = s->n, A = s->ctx->naxes;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            int32_t offset[3];
            for (int c = 0; c < 3; c++)
                offset[c] = (s->bases[3 * j + c] + nd->pos[3 * j + c]) - (s->bases[3 * i + c] + nd->pos[3 * i + c]);
            const int32_t *v = pair_limits(s->ctx, s->shapes[i], s->shapes[j], offset);
            if (!v) return -1;
            for (int k = 0; k < A; k++) s->limits[(k * n + i) * n + j] = v[k];
        }
    return 0;
}

/* The set a push of `piece` by `step` along `direction` drags along; 0 when more than `most`. */
static uint64_t dragged(const Search *s, int piece, int direction, int32_t step, int most) {
    int n = s->n;
    const int32_t *rows = s->limits + (size_t)(direction >> 1) * n * n;
    int negative = direction & 1;
    uint64_t moving = (uint64_t)1 << piece;
    int count = 1, todo[MAX_PIECES], top = 0;
    todo[top++] = piece;
    while (top) {
        int i = todo[--top];
        for (int j = 0; j < n; j++) {
            if (moving >> j & 1) continue;
            int32_t room = negative ? rows[j * n + i] : rows[i * n + j];
            if (step > room) {
                if (++count > most) return 0;
                moving |= (uint64_t)1 << j;
                todo[top++] = j;
            }
        }
    }
    return moving;
}

/* A move from `from` into the scratch arena (turned round when the moving set is heavier). */
static Node *child(Search *s, const Node *from, int32_t from_index, uint64_t moving, int direction, int32_t amount) {
    int32_t heavy_moving = 0, heavy_standing = 0;
    for (int i = 0; i < s->n; i++) {
        int32_t w = s->weights[i];
        if (moving >> i & 1) { if (w > heavy_moving) heavy_moving = w; }
        else if (w > heavy_standing) heavy_standing = w;
    }
    if (heavy_standing < heavy_moving) {
        moving ^= s->full;
        direction ^= 1;
    }
    Node *nd = push(&s->scratch);
    if (!nd) return NULL;
    nd->parent = from_index;
    nd->depth = from->depth + 1;
    nd->amount = amount;
    nd->direction = direction;
    nd->moved = moving;
    memcpy(nd->pos, from->pos, sizeof(int32_t) * 3 * s->n);
    if (amount >= REMOVAL) {
        nd->removed = moving;
        nd->hash = 0;
        return nd;
    }
    nd->removed = 0;
    const int32_t *step = s->ctx->step[direction >> 1];
    int32_t delta = direction & 1 ? -amount : amount;
    for (int i = 0; i < s->n; i++)
        if (moving >> i & 1)
            for (int c = 0; c < 3; c++) nd->pos[3 * i + c] += delta * step[c];
    nd->hash = node_hash(s, nd);
    return nd;
}

/* -- breadth first ----------------------------------------------------------------------------- */

typedef struct {
    int status;
    int32_t last;         /* FOUND: the scratch index of the separating state */
} Outcome;

/* What the caps count a kept state as costing, here and in the Python twin alike. */
static long long state_cost(int n) { return 80 + 24LL * n; }

/* Take the move in scratch slot `k` if its state is new; 1 when taken, 0 when not, 2 when
 * taking it reached a cap, -1 on no memory. */
static int offer(Search *s, size_t k, int32_t depth) {
    Node *nd = at(&s->scratch, k);
    int seen;
    if ((s->tused + 1) * 2 > s->tsize && grow_table(s) < 0) return -1;
    size_t slot = find_slot(s, nd, depth, &seen);
    if (seen) return 0;
    Node *kept = push(&s->nodes);
    if (!kept) return -1;
    nd = at(&s->scratch, k);
    memcpy(kept, nd, s->nodes.stride);
    if (s->table[slot] < 0) s->tused++;
    s->table[slot] = (int32_t)(s->nodes.count - 1);
    s->states++;
    if (s->states > s->max_states || s->states * state_cost(s->n) > s->max_bytes) return 2;
    return 1;
}

static int expand(Search *s, int32_t index, Outcome *out) {
    int n = s->n, directions = 2 * s->ctx->naxes;
    Node *from = at(&s->nodes, index);
    s->scratch.count = 0;
    if (!(index == 0 && s->root_ready) && fill_limits(s, from) < 0) return -1;
    for (int pass = 0; pass < 2; pass++) {
        int most = pass == 0 ? 1 : n / 2;
        for (int d = 0; d < directions; d++)
            for (int p = 0; p < n; p++) {
                uint64_t moving = dragged(s, p, d, REMOVE, most);
                if (moving) {
                    if (!child(s, at(&s->nodes, index), index, moving, d, REMOVE)) return -1;
                    out->status = FOUND;
                    out->last = (int32_t)(s->scratch.count - 1);
                    return 1;
                }
            }
    }
    int32_t depth = from->depth + 1;
    for (int d = 0; d < directions; d++) {
        size_t first = s->scratch.count;   /* this direction's moves: scratch[first ...] */
        for (int p = 0; p < n; p++) {
            for (int32_t step = 1;; step++) {
                uint64_t moving = dragged(s, p, d, step, n / 2);
                if (!moving) break;
                Node *nd = child(s, at(&s->nodes, index), index, moving, d, step);
                if (!nd) return -1;
                size_t k = s->scratch.count - 1, known = 0;
                for (size_t e = first; e < k && !known; e++) known = same_state(s, at(&s->scratch, e), nd);
                if (known) { s->scratch.count--; continue; }
                int r = offer(s, k, depth);
                if (r < 0) return -1;
                if (r == 2) { out->status = UNKNOWN; return 1; }
                size_t end = k;   /* the moves found before this one */
                for (size_t e = end; e-- > first;) {
                    Node *a = at(&s->scratch, k), *b = at(&s->scratch, e);
                    if (a->amount != b->amount) continue;
                    uint64_t ma = a->direction == d ? a->moved : a->moved ^ s->full;
                    uint64_t mb = b->direction == d ? b->moved : b->moved ^ s->full;
                    uint64_t both = ma | mb;
                    if (both == 0 || both == s->full || both == ma || both == mb) continue;
                    Node *m = child(s, at(&s->nodes, index), index, both, d, a->amount);
                    if (!m) return -1;
                    size_t mk = s->scratch.count - 1;
                    known = 0;
                    for (size_t f = first; f < mk && !known; f++) known = same_state(s, at(&s->scratch, f), m);
                    if (known) { s->scratch.count--; continue; }
                    r = offer(s, mk, depth);
                    if (r < 0) return -1;
                    if (r == 2) { out->status = UNKNOWN; return 1; }
                }
            }
        }
    }
    return 0;
}

static void search_free(Search *s) {
    free(s->nodes.data);
    free(s->scratch.data);
    free(s->table);
    free(s->limits);
}

/* -- Python ----------------------------------------------------------------------------------- */

/* A search that failed: out of memory, unless the pair limits' Python function raised. */
static PyObject *no_memory(void) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
}

static int read_ints(PyObject *seq, int32_t *out, Py_ssize_t want, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd numbers", what, want);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < want; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < -1000000 || v > 1000000) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int32_t)v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *Context_add_shape(Context *self, PyObject *cells) {
    PyObject *fast = PySequence_Fast(cells, "cells");
    if (!fast) return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
    if (m < 1) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "a shape needs cells"); return NULL; }
    int32_t *c = malloc(sizeof(int32_t) * 3 * m);
    if (!c) { Py_DECREF(fast); return PyErr_NoMemory(); }
    int size[3] = {0, 0, 0};
    for (Py_ssize_t i = 0; i < m; i++) {
        if (read_ints(PySequence_Fast_GET_ITEM(fast, i), c + 3 * i, 3, "cell") < 0) { free(c); Py_DECREF(fast); return NULL; }
        for (int k = 0; k < 3; k++) {
            if (c[3 * i + k] < 0 || c[3 * i + k] > 4096) {
                free(c); Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "shape cells must lie from 0 to 4096");
                return NULL;
            }
            if (c[3 * i + k] + 1 > size[k]) size[k] = c[3 * i + k] + 1;
        }
    }
    Py_DECREF(fast);
    if (self->nshapes == self->capshapes) {
        Py_ssize_t ncap = self->capshapes ? self->capshapes * 2 : 16;
        Shape *ns = realloc(self->shapes, ncap * sizeof(Shape));
        if (!ns) { free(c); return PyErr_NoMemory(); }
        self->shapes = ns;
        self->capshapes = ncap;
    }
    Shape *s = &self->shapes[self->nshapes];
    memcpy(s->size, size, sizeof size);
    s->filled = calloc((size_t)size[0] * size[1] * size[2], 1);
    if (!s->filled) { free(c); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < m; i++)
        s->filled[((size_t)c[3 * i] * size[1] + c[3 * i + 1]) * size[2] + c[3 * i + 2]] = 1;
    free(c);
    return PyLong_FromSsize_t(self->nshapes++);
}

/* A state's piece positions as a tuple (x, y, z of each piece in turn); NULL with an exception set. */
static PyObject *positions(const Search *s, const Node *nd) {
    PyObject *pos = PyTuple_New(3 * s->n);
    if (!pos) return NULL;
    for (int i = 0; i < 3 * s->n; i++) {
        PyObject *v = PyLong_FromLong(nd->pos[i]);
        if (!v) { Py_DECREF(pos); return NULL; }
        PyTuple_SET_ITEM(pos, i, v);
    }
    return pos;
}

/* Append one step (positions, the pieces it moves, direction, amount) to ``path``; takes the
   reference to ``pos``. 0, or -1 with an exception set. */
static int append_step(PyObject *path, PyObject *pos, unsigned long long moving, int direction, int amount) {
    PyObject *item = Py_BuildValue("(NKii)", pos, moving, direction, amount);
    if (!item) return -1;
    int failed = PyList_Append(path, item);
    Py_DECREF(item);
    return failed;
}

static PyObject *path_of(Search *s, int32_t last) {
    /* the separating state is in scratch; its ancestors in the arena */
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    const Node *nd = at(&s->scratch, last);
    for (;;) {
        PyObject *pos = positions(s, nd);
        if (!pos) { Py_DECREF(path); return NULL; }
        if (append_step(path, pos, (unsigned long long)nd->removed, nd->parent < 0 ? -1 : nd->direction,
                        nd->parent < 0 ? 0 : nd->amount) < 0) { Py_DECREF(path); return NULL; }
        if (nd->parent < 0) break;
        nd = at(&s->nodes, nd->parent);
    }
    if (PyList_Reverse(path) < 0) { Py_DECREF(path); return NULL; }
    return path;
}

/* The start of a search of one part of `n` pieces from their numbers (shapes, bases, weights,
   start offsets; the arrays must outlive the search): ``s`` set up with its root state (node 0,
   not yet in the table). 0, or -1 when out of memory (no exception set). */
static int start_search(Context *self, Search *s, int n, const int32_t *sh, const int32_t *ba, const int32_t *we,
                        const int32_t *st, long long max_states, long long max_bytes) {
    memset(s, 0, sizeof *s);
    s->ctx = self;
    s->n = n;
    s->full = n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    s->max_states = max_states;
    s->max_bytes = max_bytes;
    s->shapes = sh; s->bases = ba; s->weights = we;
    /* whole multiples of 8 bytes, so that every node in an arena is aligned for its uint64_t */
    s->nodes.stride = s->scratch.stride = (sizeof(Node) + sizeof(int32_t) * 3 * n + 7) & ~(size_t)7;
    s->tsize = 64;   /* grows as states come: most parts separate at once */
    s->table = malloc(s->tsize * sizeof(int32_t));
    s->limits = malloc(sizeof(int32_t) * MAX_DIRS * n * n);
    Node *root = s->table && s->limits ? push(&s->nodes) : NULL;
    if (!root) { search_free(s); return -1; }
    memset(s->table, 0xff, s->tsize * sizeof(int32_t));
    root->parent = -1; root->depth = 0; root->amount = 0; root->direction = -1;
    root->moved = root->removed = 0;
    memcpy(root->pos, st, sizeof(int32_t) * 3 * n);
    root->hash = node_hash(s, root);
    return 0;
}

/* The start of a search of one part, from Python's arguments (the pieces' shapes, bases,
   weights and start offsets): ``s`` set up with its root state (node 0, not yet in the table).
   Returns the buffer of those numbers, which the caller frees after the search; NULL with an
   exception set. */
static int32_t *begin_search(Context *self, Search *s, PyObject *shapes, PyObject *bases, PyObject *weights,
                             PyObject *start, long long max_states, long long max_bytes, Py_ssize_t *count) {
    Py_ssize_t n = PySequence_Length(shapes);
    if (n < 0) return NULL;
    if (n < 2 || n > MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "a search takes 2 to %d pieces, not %zd", MAX_PIECES, n);
        return NULL;
    }
    int32_t *ints = malloc(sizeof(int32_t) * (n + 3 * n + n + 3 * n));
    if (!ints) { PyErr_NoMemory(); return NULL; }
    int32_t *sh = ints, *ba = sh + n, *we = ba + 3 * n, *st = we + n;
    if (read_ints(shapes, sh, n, "shapes") < 0 || read_ints(bases, ba, 3 * n, "bases") < 0 ||
        read_ints(weights, we, n, "weights") < 0 || read_ints(start, st, 3 * n, "start") < 0) {
        free(ints);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (sh[i] < 0 || sh[i] >= self->nshapes) {
            free(ints);
            PyErr_SetString(PyExc_ValueError, "unknown shape number");
            return NULL;
        }
    if (start_search(self, s, (int)n, sh, ba, we, st, max_states, max_bytes) < 0) {
        free(ints);
        PyErr_NoMemory();
        return NULL;
    }
    *count = n;
    return ints;
}

/* The breadth-first search for the first separation from the root of ``s``: ``out`` says how
   it ended. 0, or -1 when out of memory (no exception set). */
static int run_separate(Search *s, Outcome *out) {
    Node *root = at(&s->nodes, 0);
    int seen;
    s->table[find_slot(s, root, 0, &seen)] = 0;
    s->tused = 1;
    s->states = 1;
    out->status = STUCK;
    out->last = -1;
    size_t level = 0, level_end = 1;
    while (level < level_end && out->status == STUCK) {
        for (size_t i = level; i < level_end; i++) {
            int r = expand(s, (int32_t)i, out);
            if (r < 0) return -1;
            if (r > 0) break;
        }
        level = level_end;
        level_end = s->nodes.count;
    }
    return 0;
}

static PyObject *Context_separate(Context *self, PyObject *args) {
    PyObject *shapes, *bases, *weights, *start;
    long long max_states, max_bytes;
    if (!PyArg_ParseTuple(args, "OOOOLL", &shapes, &bases, &weights, &start, &max_states, &max_bytes)) return NULL;
    Search s;
    Py_ssize_t n;
    int32_t *ints = begin_search(self, &s, shapes, bases, weights, start, max_states, max_bytes, &n);
    if (!ints) return NULL;
    Outcome out;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = run_separate(&s, &out) < 0;
    Py_END_ALLOW_THREADS
    if (failed) { search_free(&s); free(ints); return no_memory(); }
    PyObject *result;
    if (out.status == FOUND) {
        PyObject *path = path_of(&s, out.last);
        result = path ? Py_BuildValue("(iLN)", FOUND, s.states, path) : NULL;
    } else {
        result = Py_BuildValue("(iLO)", out.status, s.states, Py_None);
    }
    search_free(&s);
    free(ints);
    return result;
}

/* -- the exact ruler: the C twin of polyfit/motion/exact.py, move for move ---------------------- */

/* The slot of the state `nd` in the table of every state met, *seen set when it is there. */
static size_t find_state(const Search *s, const Node *nd, int *seen) {
    size_t h = nd->hash & (s->tsize - 1);
    *seen = 0;
    while (s->table[h] >= 0) {
        if (same_state(s, at(&s->nodes, s->table[h]), nd)) { *seen = 1; return h; }
        h = (h + 1) & (s->tsize - 1);
    }
    return h;
}

typedef struct {
    int n;
    uint64_t full;
    uint64_t closure[MAX_PIECES], above[MAX_PIECES];
    int top;
    int stack_i[2 * MAX_PIECES + 2];
    uint64_t stack_in[2 * MAX_PIECES + 2], stack_out[2 * MAX_PIECES + 2];
} ClosedSets;

/* The sets closed under "i in, rows[i][j] < below: j in", listed as exact.py's closed_sets does. */
static void closed_start(ClosedSets *c, const Search *s, const int32_t *rows, int32_t below) {
    int n = s->n;
    uint64_t blocked[MAX_PIECES];
    c->n = n;
    c->full = s->full;
    for (int i = 0; i < n; i++) {
        blocked[i] = 0;
        for (int j = 0; j < n; j++)
            if (j != i && rows[i * n + j] < below) blocked[i] |= (uint64_t)1 << j;
    }
    for (int i = 0; i < n; i++) {
        uint64_t seen = (uint64_t)1 << i;
        int todo[MAX_PIECES], t = 0;
        todo[t++] = i;
        while (t) {
            int j = todo[--t];
            uint64_t fresh = blocked[j] & ~seen;
            seen |= fresh;
            for (int k = 0; k < n; k++)
                if (fresh >> k & 1) todo[t++] = k;
        }
        c->closure[i] = seen;
    }
    for (int i = 0; i < n; i++) {
        c->above[i] = 0;
        for (int j = 0; j < n; j++)
            if (c->closure[j] >> i & 1) c->above[i] |= (uint64_t)1 << j;
    }
    c->top = 0;
    c->stack_i[0] = 0; c->stack_in[0] = 0; c->stack_out[0] = 0;
    c->top = 1;
}

/* The next closed set but the empty and the full one; 0 when there are no more. */
static uint64_t closed_next(ClosedSets *c) {
    while (c->top) {
        c->top--;
        int i = c->stack_i[c->top];
        uint64_t inside = c->stack_in[c->top], outside = c->stack_out[c->top];
        while (i < c->n && ((inside >> i & 1) || (outside >> i & 1))) i++;
        if (i == c->n) {
            if (inside && inside != c->full) return inside;
            continue;
        }
        uint64_t out = outside | c->above[i];
        if (!(out & inside)) {
            c->stack_i[c->top] = i + 1; c->stack_in[c->top] = inside; c->stack_out[c->top] = out; c->top++;
        }
        uint64_t into = inside | c->closure[i];
        if (!(into & outside)) {
            c->stack_i[c->top] = i + 1; c->stack_in[c->top] = into; c->stack_out[c->top] = outside; c->top++;
        }
    }
    return 0;
}

/* The side shown moving (exact.py's shown): the heavier side (by its heaviest piece) stays
 * put; of equal weights the larger; of equal sizes the one with the first piece. */
static void shown(const Search *s, uint64_t *moving, int *direction) {
    int32_t heavy_moving = 0, heavy_rest = 0;
    int size_moving = 0, size_rest = 0;
    for (int i = 0; i < s->n; i++) {
        int32_t w = s->weights[i];
        if (*moving >> i & 1) { size_moving++; if (w > heavy_moving) heavy_moving = w; }
        else { size_rest++; if (w > heavy_rest) heavy_rest = w; }
    }
    int keep;
    if (heavy_moving != heavy_rest) keep = heavy_moving < heavy_rest;
    else if (size_moving != size_rest) keep = size_moving < size_rest;
    else keep = !(*moving & 1);
    if (!keep) { *moving ^= s->full; *direction ^= 1; }
}

typedef struct {
    int32_t node;
    int direction;
    uint64_t moving;
} Removal;

typedef struct {
    Removal *items;
    size_t count, cap;
} Removals;

static int removals_of(Search *s, int32_t index, Removals *out) {
    int n = s->n;
    if (fill_limits(s, at(&s->nodes, index)) < 0) return -1;
    size_t first = out->count;
    for (int k = 0; k < s->ctx->naxes; k++) {
        ClosedSets c;
        closed_start(&c, s, s->limits + (size_t)k * n * n, FREE);
        uint64_t moving;
        while ((moving = closed_next(&c))) {
            uint64_t part = moving & 1 ? moving ^ s->full : moving;
            int known = 0;
            for (size_t e = first; e < out->count && !known; e++) {
                uint64_t other = out->items[e].moving;
                known = (other & 1 ? other ^ s->full : other) == part;
            }
            if (known) continue;
            if (out->count == out->cap) {
                size_t ncap = out->cap ? out->cap * 2 : 64;
                Removal *ni = realloc(out->items, ncap * sizeof(Removal));
                if (!ni) return -1;
                out->items = ni;
                out->cap = ncap;
            }
            int direction = 2 * k;
            shown(s, &moving, &direction);
            out->items[out->count].node = index;
            out->items[out->count].direction = direction;
            out->items[out->count].moving = moving;
            out->count++;
        }
    }
    return 0;
}

/* Every move from state `index`, each new state kept; 0, 2 at a cap, -1 on no memory. */
static int exact_expand(Search *s, int32_t index) {
    int n = s->n;
    if (fill_limits(s, at(&s->nodes, index)) < 0) return -1;
    for (int k = 0; k < s->ctx->naxes; k++) {
        const int32_t *rows = s->limits + (size_t)k * n * n;
        int coordinate = s->ctx->axes[k];
        ClosedSets c;
        closed_start(&c, s, rows, 1);
        uint64_t set;
        while ((set = closed_next(&c))) {
            int32_t most = FREE;
            for (int i = 0; i < n; i++)
                if (set >> i & 1)
                    for (int j = 0; j < n; j++)
                        if (!(set >> j & 1) && rows[i * n + j] < most) most = rows[i * n + j];
            if (most >= FREE) continue;  /* a removal, not a move */
            for (int32_t amount = 1; amount <= most; amount++) {
                uint64_t moving = set;
                int direction = 2 * k;
                shown(s, &moving, &direction);
                if ((s->tused + 1) * 2 > s->tsize && grow_table(s) < 0) return -1;
                Node *nd = push(&s->nodes);
                if (!nd) return -1;
                const Node *from = at(&s->nodes, index);
                nd->parent = index;
                nd->depth = from->depth + 1;
                nd->amount = amount;
                nd->direction = direction;
                nd->moved = moving;
                nd->removed = 0;
                memcpy(nd->pos, from->pos, sizeof(int32_t) * 3 * n);
                int32_t delta = direction & 1 ? -amount : amount;
                for (int i = 0; i < n; i++)
                    if (moving >> i & 1) nd->pos[3 * i + coordinate] += delta;
                nd->hash = node_hash(s, nd);
                int seen;
                size_t slot = find_state(s, nd, &seen);
                if (seen) { s->nodes.count--; continue; }
                s->table[slot] = (int32_t)(s->nodes.count - 1);
                s->tused++;
                s->states++;
                if (s->states > s->max_states || s->states * state_cost(n) > s->max_bytes) return 2;
            }
        }
    }
    return 0;
}

static PyObject *exact_path(Search *s, const Removal *r) {
    PyObject *path = PyList_New(0);
    if (!path) return NULL;
    const Node *nd = at(&s->nodes, r->node);
    for (int last = 1;; last = 0) {
        PyObject *pos = positions(s, nd);
        if (!pos) { Py_DECREF(path); return NULL; }
        if (last) {
            Py_INCREF(pos);
            if (append_step(path, pos, (unsigned long long)r->moving, r->direction, REMOVE) < 0) {
                Py_DECREF(pos); Py_DECREF(path); return NULL;
            }
        }
        if (append_step(path, pos, 0ULL, nd->parent < 0 ? -1 : nd->direction, nd->parent < 0 ? 0 : nd->amount) < 0) {
            Py_DECREF(path); return NULL;
        }
        if (nd->parent < 0) break;
        nd = at(&s->nodes, nd->parent);
    }
    if (PyList_Reverse(path) < 0) { Py_DECREF(path); return NULL; }
    return path;
}

static PyObject *Context_exact(Context *self, PyObject *args) {
    PyObject *shapes, *bases, *weights, *start;
    long long max_states, max_bytes;
    int min_level;
    if (!PyArg_ParseTuple(args, "OOOOiLL", &shapes, &bases, &weights, &start, &min_level, &max_states, &max_bytes)) return NULL;
    if (self->limits_of) {
        PyErr_SetString(PyExc_ValueError, "the exact ruler slides pieces along axes only");
        return NULL;
    }
    Search s;
    Py_ssize_t n;
    int32_t *ints = begin_search(self, &s, shapes, bases, weights, start, max_states, max_bytes, &n);
    if (!ints) return NULL;
    Node *root = at(&s.nodes, 0);
    int seen;
    s.table[find_state(&s, root, &seen)] = 0;
    s.tused = 1;
    s.states = 1;

    Removals found = {NULL, 0, 0};
    int status = STUCK, failed = 0, level = 1;
    Py_BEGIN_ALLOW_THREADS
    size_t layer = 0, layer_end = 1;
    while (layer < layer_end) {
        if (level >= min_level) {
            for (size_t i = layer; i < layer_end && !failed; i++)
                if (removals_of(&s, (int32_t)i, &found) < 0) failed = 1;
            if (failed) break;
            if (found.count) { status = FOUND; break; }
        }
        for (size_t i = layer; i < layer_end; i++) {
            int r = exact_expand(&s, (int32_t)i);
            if (r < 0) { failed = 1; break; }
            if (r == 2) { status = UNKNOWN; break; }
        }
        if (failed || status == UNKNOWN) break;
        layer = layer_end;
        layer_end = s.nodes.count;
        level++;
    }
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (failed) {
        no_memory();
    } else if (status == FOUND) {
        PyObject *paths = PyList_New(0);
        for (size_t e = 0; paths && e < found.count; e++) {
            PyObject *path = exact_path(&s, &found.items[e]);
            if (!path || PyList_Append(paths, path) < 0) { Py_XDECREF(path); Py_CLEAR(paths); break; }
            Py_DECREF(path);
        }
        result = paths ? Py_BuildValue("(iLiN)", FOUND, s.states, level, paths) : NULL;
    } else {
        result = Py_BuildValue("(iLi[])", status, s.states, status == STUCK ? level - 2 : 0);
    }
    free(found.items);
    search_free(&s);
    free(ints);
    return result;
}

#include "_driver.h"

/* Context(axes): each direction one unit along an axis; Context(steps, limits_of): each
 * direction a step (3 numbers), limits_of(first, second, offset) giving the pair limits. */
static int Context_init(Context *self, PyObject *args, PyObject *kwds) {
    PyObject *axes, *limits_of = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &axes, &limits_of)) return -1;
    Py_ssize_t m = PySequence_Length(axes);
    if (m < 0) return -1;
    if (limits_of == NULL) {
        if (m < 1 || m > 3) { PyErr_SetString(PyExc_ValueError, "1 to 3 axes"); return -1; }
        int32_t a[3];
        if (read_ints(axes, a, m, "axes") < 0) return -1;
        for (Py_ssize_t i = 0; i < m; i++) {
            if (a[i] < 0 || a[i] > 2) { PyErr_SetString(PyExc_ValueError, "an axis is 0, 1 or 2"); return -1; }
            self->axes[i] = a[i];
            memset(self->step[i], 0, sizeof self->step[i]);
            self->step[i][a[i]] = 1;
        }
    } else {
        if (!PyCallable_Check(limits_of)) { PyErr_SetString(PyExc_TypeError, "limits_of must be callable"); return -1; }
        if (m < 1 || m > MAX_DIRS) { PyErr_Format(PyExc_ValueError, "1 to %d steps", MAX_DIRS); return -1; }
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *step = PySequence_GetItem(axes, i);
            if (!step) return -1;
            int r = read_ints(step, self->step[i], 3, "step");
            Py_DECREF(step);
            if (r < 0) return -1;
        }
        Py_XSETREF(self->limits_of, Py_NewRef(limits_of));
    }
    self->naxes = (int)m;
    return 0;
}

static void Context_dealloc(Context *self) {
    Py_CLEAR(self->limits_of);
    for (Py_ssize_t i = 0; i < self->nshapes; i++) free(self->shapes[i].filled);
    free(self->shapes);
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Context_cache_size(Context *self, PyObject *unused) {
    return PyLong_FromSize_t(self->tused);
}

static PyMethodDef Context_methods[] = {
    {"add_shape", (PyCFunction)Context_add_shape, METH_O, "add_shape(cells) -> shape number"},
    {"separate", (PyCFunction)Context_separate, METH_VARARGS,
     "separate(shapes, bases, weights, start, max_states, max_bytes) -> (status, states, path)"},
    {"exact", (PyCFunction)Context_exact, METH_VARARGS,
     "exact(shapes, bases, weights, start, min_level, max_states, max_bytes) -> (status, states, level, paths)"},
    {"take_apart", (PyCFunction)Context_take_apart, METH_VARARGS,
     "take_apart(shapes, bases, weights, group, max_states, max_bytes, moves, stuck) -> (status, states, level, total, tree)"},
    {"level_of", (PyCFunction)Context_level_of, METH_VARARGS,
     "level_of(placements, place, shapes, bases, weights, max_states, max_bytes) -> (status, states, level)"},
    {"cache_size", (PyCFunction)Context_cache_size, METH_NOARGS, "pair limits cached"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ContextType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "polyfit.motion._motion.Context",
    .tp_basicsize = sizeof(Context),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Context_init,
    .tp_dealloc = (destructor)Context_dealloc,
    .tp_methods = Context_methods,
    .tp_doc = "The shapes of one puzzle and their pair limits; separate() searches.",
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_motion", "The C twin of polyfit.motion.search.", -1, NULL,
};

PyMODINIT_FUNC PyInit__motion(void) {
    if (PyType_Ready(&ContextType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&ContextType);
    if (PyModule_AddObject(m, "Context", (PyObject *)&ContextType) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
