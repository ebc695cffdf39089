/* The driver: one assembly taken apart part by part, as BurrTools plans it: the C twin of
 * polyfit/motion/driver.py, call for call (included by _motion.c, after the search).
 *
 * Each part is searched to its first separation (run_separate); then the part that stayed and
 * the part removed are taken apart in turn, each from the offsets its pieces had just before.
 * A part is done when it is one piece or its pieces are all of one group (rule 1 of
 * polyfit/motion/groups.py); a part that is stuck otherwise is handed to Python's ``stuck``
 * (rule 2, the dealer), and when that refuses, the whole assembly is stuck. The level text is
 * written as the parts are done; the tree of paths is built only when asked for. */

typedef struct {
    char *data;
    size_t len, cap;
} Text;

static int text_add(Text *t, const char *s, size_t k) {
    if (t->len + k + 1 > t->cap) {
        size_t ncap = t->cap ? t->cap : 32;
        while (ncap < t->len + k + 1) ncap *= 2;
        char *nd = realloc(t->data, ncap);
        if (!nd) return -1;
        t->data = nd;
        t->cap = ncap;
    }
    memcpy(t->data + t->len, s, k);
    t->len += k;
    t->data[t->len] = 0;
    return 0;
}

typedef struct {
    Context *ctx;
    int n;
    const int32_t *shapes, *bases, *weights, *group;  /* the whole assembly; group: see one_group */
    long long states, max_states, max_bytes, total;
    int moves;            /* build the tree of paths */
    PyObject *stuck;      /* rule 2: called with a stuck part's pieces; Py_None: always refuses */
    Text level;
} Driver;

enum { PART_ERROR = -1, PART_STUCK = 0, PART_DONE = 1, PART_CAPPED = 2 };

/* Rule 1: every piece's part in exactly one group (group[p] its number; -1 when the part is in
 * none or in several), the same for all, and that number not 0. */
static int one_group(const Driver *d, int m, const int *members) {
    int32_t seen = 0;
    for (int k = 0; k < m; k++) {
        int32_t g = d->group[members[k]];
        if (g < 0) return 0;
        if (seen == 0) seen = g;
        else if (seen != g) return 0;
    }
    return seen != 0;
}

static PyObject *members_tuple(int m, const int *members) {
    PyObject *t = PyTuple_New(m);
    if (!t) return NULL;
    for (int k = 0; k < m; k++) {
        PyObject *v = PyLong_FromLong(members[k]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

static int drive_sub(Driver *d, int m, const int *members, const int32_t *start, int32_t *limits, int *multi,
                     PyObject **tree);

/* The pair limits of the pieces `kept` (local numbers, `m_kept` of them) among the `m` of a
 * search, from its table `limits` ([axis][i][j]): a sub-part starts where its part separated,
 * so its root's limits are these. NULL when out of memory (no exception set). */
static int32_t *kept_limits(const int32_t *limits, int axes, int m, const int *kept, int m_kept) {
    int32_t *out = malloc(sizeof(int32_t) * (size_t)axes * m_kept * m_kept + 1);
    if (!out) return NULL;
    for (int a = 0; a < axes; a++)
        for (int x = 0; x < m_kept; x++)
            for (int y = 0; y < m_kept; y++)
                out[(a * m_kept + x) * m_kept + y] = limits[(a * m + kept[x]) * m + kept[y]];
    return out;
}

/* Take apart the part of `m` pieces `members` (their numbers in the assembly) from the offsets
 * `start` (3 a piece); `limits`: the pair limits there when known (else NULL). PART_DONE: its level text appended to d->level, *multi set when it or a
 * part of it needs more than one move, *tree (when d->moves) a new reference to
 * (members, path, tree of the part that stayed or None, tree of the part removed or None). */
static int drive_part(Driver *d, int m, const int *members, const int32_t *start, const int32_t *limits, int *multi,
                      PyObject **tree) {
    int32_t sh[MAX_PIECES], ba[3 * MAX_PIECES], we[MAX_PIECES];
    for (int k = 0; k < m; k++) {
        int p = members[k];
        sh[k] = d->shapes[p];
        we[k] = d->weights[p];
        for (int c = 0; c < 3; c++) ba[3 * k + c] = d->bases[3 * p + c];
    }
    long long left_states = d->max_states - d->states;
    if (left_states < 1) left_states = 1;
    Search s;
    Outcome out;
    if (start_search(d->ctx, &s, m, sh, ba, we, start, left_states, d->max_bytes) < 0) {
        PyErr_NoMemory();
        return PART_ERROR;
    }
    if (limits) {
        memcpy(s.limits, limits, sizeof(int32_t) * d->ctx->naxes * m * m);
        s.root_ready = 1;
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = run_separate(&s, &out) < 0;
    Py_END_ALLOW_THREADS
    if (failed) { search_free(&s); no_memory(); return PART_ERROR; }
    d->states += s.states;
    if (out.status != FOUND) {
        search_free(&s);
        return out.status == UNKNOWN ? PART_CAPPED : PART_STUCK;
    }
    const Node *last = at(&s.scratch, out.last);
    int steps = last->depth;
    uint64_t removed = last->removed;
    int stayed[MAX_PIECES], gone[MAX_PIECES], ns = 0, ng = 0, stayed_k[MAX_PIECES], gone_k[MAX_PIECES];
    int32_t stayed_at[3 * MAX_PIECES], gone_at[3 * MAX_PIECES];
    for (int k = 0; k < m; k++) {
        int32_t *into;
        if (removed >> k & 1) { into = gone_at + 3 * ng; gone_k[ng] = k; gone[ng++] = members[k]; }
        else { into = stayed_at + 3 * ns; stayed_k[ns] = k; stayed[ns++] = members[k]; }
        memcpy(into, last->pos + 3 * k, 3 * sizeof(int32_t));   /* the separating state keeps the offsets before */
    }
    /* the search's table holds the limits of the state the removal left from (the last expanded) */
    int32_t *stayed_limits = kept_limits(s.limits, d->ctx->naxes, m, stayed_k, ns);
    int32_t *gone_limits = kept_limits(s.limits, d->ctx->naxes, m, gone_k, ng);
    PyObject *path = NULL;
    if (!stayed_limits || !gone_limits) PyErr_NoMemory();
    else if (d->moves) path = path_of(&s, out.last);
    search_free(&s);
    if (!stayed_limits || !gone_limits || (d->moves && !path)) {
        free(stayed_limits);
        free(gone_limits);
        return PART_ERROR;
    }

    char number[24];
    int written = snprintf(number, sizeof number, "%d", steps);
    if (text_add(&d->level, number, (size_t)written) < 0) {
        Py_XDECREF(path);
        free(stayed_limits);
        free(gone_limits);
        PyErr_NoMemory();
        return PART_ERROR;
    }
    d->total += steps;
    int multi_stayed, multi_gone;
    PyObject *tree_stayed = NULL, *tree_gone = NULL;
    int r = drive_sub(d, ns, stayed, stayed_at, stayed_limits, &multi_stayed, &tree_stayed);
    if (r == PART_DONE) {
        r = drive_sub(d, ng, gone, gone_at, gone_limits, &multi_gone, &tree_gone);
        if (r != PART_DONE) Py_CLEAR(tree_stayed);
    }
    free(stayed_limits);
    free(gone_limits);
    if (r != PART_DONE) { Py_XDECREF(path); return r; }
    *multi = steps > 1 || multi_stayed || multi_gone;
    if (d->moves) {
        PyObject *pieces = members_tuple(m, members);
        *tree = pieces ? Py_BuildValue("(NNNN)", pieces, path, tree_stayed ? tree_stayed : Py_NewRef(Py_None),
                                       tree_gone ? tree_gone : Py_NewRef(Py_None)) : NULL;
        if (!*tree) {
            if (!pieces) { Py_DECREF(path); Py_XDECREF(tree_stayed); Py_XDECREF(tree_gone); }
            return PART_ERROR;
        }
    }
    return PART_DONE;
}

/* A part left by a separation: done as it is (one piece, rule 1), taken apart, or, when stuck,
 * dealt out by rule 2 (done when that accepts it). Its level text, dotted, is kept only when it
 * needs more than one move; a stuck part's text and moves are dropped. */
static int drive_sub(Driver *d, int m, const int *members, const int32_t *start, int32_t *limits, int *multi,
                     PyObject **tree) {
    *multi = 0;
    *tree = NULL;
    if (m == 1 || one_group(d, m, members)) return PART_DONE;
    size_t mark = d->level.len;
    long long total = d->total;
    if (text_add(&d->level, ".", 1) < 0) { PyErr_NoMemory(); return PART_ERROR; }
    int r = drive_part(d, m, members, start, limits, multi, tree);
    if (r == PART_DONE) {
        if (!*multi) d->level.len = mark;
        d->level.data[d->level.len] = 0;
        return PART_DONE;
    }
    if (r != PART_STUCK) return r;
    d->level.len = mark;
    d->level.data[mark] = 0;
    d->total = total;
    if (d->stuck == Py_None) return PART_STUCK;
    PyObject *pieces = members_tuple(m, members);
    if (!pieces) return PART_ERROR;
    PyObject *answer = PyObject_CallOneArg(d->stuck, pieces);
    Py_DECREF(pieces);
    if (!answer) return PART_ERROR;
    int dealt = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    if (dealt < 0) return PART_ERROR;
    return dealt ? PART_DONE : PART_STUCK;
}

/* The assembly taken apart (shapes checked): take_apart's answer, or with ``brief`` level_of's. */
static PyObject *drive(Context *self, int n, const int32_t *sh, const int32_t *ba, const int32_t *we,
                       const int32_t *gr, long long max_states, long long max_bytes, int moves, PyObject *stuck,
                       int brief) {
    int members[MAX_PIECES];
    int32_t start[3 * MAX_PIECES];
    for (int i = 0; i < n; i++) members[i] = i;
    memset(start, 0, sizeof start);
    Driver d = {self, n, sh, ba, we, gr, 0, max_states, max_bytes, 0, moves, stuck, {NULL, 0, 0}};
    int multi;
    PyObject *tree = NULL;
    int r = drive_part(&d, n, members, start, NULL, &multi, &tree);
    PyObject *result = NULL;
    if (r == PART_DONE && brief)
        result = Py_BuildValue("(iLs#)", FOUND, d.states, d.level.data, (Py_ssize_t)d.level.len);
    else if (r == PART_DONE)
        result = Py_BuildValue("(iLs#LN)", FOUND, d.states, d.level.data, (Py_ssize_t)d.level.len, d.total,
                               tree ? tree : Py_NewRef(Py_None));
    else if (r != PART_ERROR && brief)
        result = Py_BuildValue("(iLO)", r == PART_CAPPED ? UNKNOWN : STUCK, d.states, Py_None);
    else if (r != PART_ERROR)
        result = Py_BuildValue("(iLOiO)", r == PART_CAPPED ? UNKNOWN : STUCK, d.states, Py_None, 0, Py_None);
    free(d.level.data);
    return result;
}

static PyObject *Context_take_apart(Context *self, PyObject *args) {
    PyObject *shapes, *bases, *weights, *group, *stuck;
    long long max_states, max_bytes;
    int moves;
    if (!PyArg_ParseTuple(args, "OOOOLLpO", &shapes, &bases, &weights, &group, &max_states, &max_bytes, &moves, &stuck))
        return NULL;
    if (stuck != Py_None && !PyCallable_Check(stuck)) {
        PyErr_SetString(PyExc_TypeError, "stuck must be callable or None");
        return NULL;
    }
    Py_ssize_t n = PySequence_Length(shapes);
    if (n < 0) return NULL;
    if (n < 2 || n > MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "an assembly takes 2 to %d pieces, not %zd", MAX_PIECES, n);
        return NULL;
    }
    int32_t sh[MAX_PIECES], ba[3 * MAX_PIECES], we[MAX_PIECES], gr[MAX_PIECES];
    if (read_ints(shapes, sh, n, "shapes") < 0 || read_ints(bases, ba, 3 * n, "bases") < 0 ||
        read_ints(weights, we, n, "weights") < 0 || read_ints(group, gr, n, "group") < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (sh[i] < 0 || sh[i] >= self->nshapes) {
            PyErr_SetString(PyExc_ValueError, "unknown shape number");
            return NULL;
        }
    }
    return drive(self, (int)n, sh, ba, we, gr, max_states, max_bytes, moves, stuck, 0);
}

/* level_of(placements, place, shapes, bases, weights, max_states, max_bytes) -> (status, states, level)
 * What a count wants of take_apart: the assembly of these placements (indices into int32
 * buffers with, per placement, its place in BurrTools' order, its shape number, its base (3
 * numbers) and its weight), ordered by place (ties kept in the given order), taken apart with
 * no groups and no moves; level None unless it comes apart. The twin of
 * polyfit/motion/driver.py's level_of. */
static PyObject *Context_level_of(Context *self, PyObject *args) {
    PyObject *placements, *objs[4];
    long long max_states, max_bytes;
    if (!PyArg_ParseTuple(args, "O!OOOOLL", &PyTuple_Type, &placements, &objs[0], &objs[1], &objs[2], &objs[3],
                          &max_states, &max_bytes))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(placements);
    if (n < 2 || n > MAX_PIECES) {
        PyErr_Format(PyExc_ValueError, "an assembly takes 2 to %d pieces, not %zd", MAX_PIECES, n);
        return NULL;
    }
    Py_buffer views[4];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 4; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_SIMPLE) < 0)
            goto done;
    Py_ssize_t count = views[0].len / 4;
    if (views[0].len % 4 || views[1].len != views[0].len || views[2].len != 3 * views[0].len ||
        views[3].len != views[0].len) {
        PyErr_SetString(PyExc_ValueError, "level_of: place, shapes and weights need one int32 per placement, bases three");
        goto done;
    }
    const int32_t *place = views[0].buf, *shapes = views[1].buf, *bases = views[2].buf, *weights = views[3].buf;
    int32_t order[MAX_PIECES], sh[MAX_PIECES], ba[3 * MAX_PIECES], we[MAX_PIECES], gr[MAX_PIECES];
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(placements, i));
        if (v == -1 && PyErr_Occurred()) goto done;
        if (v < 0 || v >= count) {
            PyErr_Format(PyExc_IndexError, "placement %ld is not below %zd", v, count);
            goto done;
        }
        int32_t x = (int32_t)v;
        Py_ssize_t j = i;  /* insertion by place: stable, as Python's sort */
        while (j > 0 && place[order[j - 1]] > place[x]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t x = order[i];
        sh[i] = shapes[x];
        if (sh[i] < 0 || sh[i] >= self->nshapes) {
            PyErr_SetString(PyExc_ValueError, "unknown shape number");
            goto done;
        }
        memcpy(ba + 3 * i, bases + 3 * (Py_ssize_t)x, 3 * sizeof(int32_t));
        we[i] = weights[x];
        gr[i] = -1;
    }
    result = drive(self, (int)n, sh, ba, we, gr, max_states, max_bytes, 0, Py_None, 1);
done:
    while (got > 0)
        PyBuffer_Release(&views[--got]);
    return result;
}
