/*
 * polyfit.dlx._dlxc: the search loop of Knuth's Algorithm X with dancing links, in C.
 *
 * The line-by-line twin of polyfit/dlx/python.py: Python builds the int32 arrays (layout in
 * polyfit/dlx/__init__.py), this module only runs the search over copies of them and hands
 * back option indices. The search is resumable: next_batch(k) runs until k more solutions are
 * found or the search ends, so solutions stream to Python in batches. The GIL is released while
 * searching and re-taken every few thousand nodes to honour Ctrl-C.
 *
 * Covering is Knuth's: walk the item's list and take every other node of its options out of
 * their lists. Uncovering puts the same nodes back through the links they kept -- the dance --
 * but instead of walking the lists again it replays a trail: cover() records each node it
 * removes (and each item header, as -item), and undo() restores them last first. Same nodes,
 * same order, same tree, and 10-20% less time on the pentomino boxes than walking back.
 *
 * For the tests, sanity() checks every link between batches (_sanity.h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_batch.h"
#include "_sanity.h"

#define CHECK_EVERY 4096 /* nodes between signal checks */

enum { FORWARD, BACKUP, ADVANCE, DONE };

typedef struct {
    PyObject_HEAD
    int32_t *llink, *rlink;           /* item headers 0..N+1 */
    int32_t *top, *ulink, *dlink;     /* nodes */
    int32_t *spacer_option;           /* spacer number -> option index */
    int32_t *choice;                  /* the choice stack, at most N1 + 1 deep */
    int32_t *trail;                   /* removed nodes in order of removal; -i for header i */
    int32_t trail_len;
    int32_t *marks;                   /* per level: trail length before and after covering its item */
    int32_t *options;                 /* scratch: the options of a solution */
    int32_t level, item, phase;
    long long nodes, updates, solutions;
    Found found; /* solutions of the current batch */
    int32_t primary, items;           /* for sanity() */
    Py_ssize_t size, spacers;         /* lengths of top (and ulink, dlink) and spacer_option */
} Search;

static void Search_dealloc(Search *s)
{
    PyMem_RawFree(s->llink);
    PyMem_RawFree(s->rlink);
    PyMem_RawFree(s->top);
    PyMem_RawFree(s->ulink);
    PyMem_RawFree(s->dlink);
    PyMem_RawFree(s->spacer_option);
    PyMem_RawFree(s->choice);
    PyMem_RawFree(s->trail);
    PyMem_RawFree(s->marks);
    PyMem_RawFree(s->options);
    PyMem_RawFree(s->found.data);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds)
{
    int primary;
    PyObject *ll, *rl, *tp, *ul, *dl, *so;
    static char *names[] = {"primary", "llink", "rlink", "top", "ulink", "dlink", "spacer_option", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOOOO", names, &primary, &ll, &rl, &tp, &ul, &dl, &so))
        return -1;
    if (s->llink != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Search objects cannot be re-initialised");
        return -1;
    }
    Py_ssize_t nl, nr, nt, nu, nd, ns;
    if (!(s->llink = copy_buffer(ll, &nl)) || !(s->rlink = copy_buffer(rl, &nr)) ||
        !(s->top = copy_buffer(tp, &nt)) || !(s->ulink = copy_buffer(ul, &nu)) ||
        !(s->dlink = copy_buffer(dl, &nd)) || !(s->spacer_option = copy_buffer(so, &ns)))
        return -1;
    if (nl != nr || nt != nu || nt != nd || primary < 0 || primary + 2 > nl || nl > nt) {
        PyErr_SetString(PyExc_ValueError, "inconsistent dancing-links arrays");
        return -1;
    }
    s->primary = primary;
    s->items = (int32_t)nl - 2;
    s->size = nt;
    s->spacers = ns;
    if (refuse_bad_links(s->primary, s->items, s->size, s->spacers, s->llink, s->rlink, s->top,
                         s->ulink, s->dlink) < 0)
        return -1;
    s->choice = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(primary + 1));
    s->options = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(primary + 1));
    /* Each node and each header is out of its list at most once at a time. */
    s->trail = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(nt + nl));
    s->marks = PyMem_RawMalloc(sizeof(int32_t) * 2 * (size_t)(primary + 1));
    if (s->choice == NULL || s->options == NULL || s->trail == NULL || s->marks == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    s->level = 0;
    s->trail_len = 0;
    s->item = -1;
    s->phase = FORWARD;
    return 0;
}

/* Record the current solution: the option of each level's chosen node. */
static int record(Search *s)
{
    int32_t *top = s->top;
    for (int32_t k = 0; k < s->level; k++) {
        int32_t p = s->choice[k];
        while (top[p] > 0)
            p++;
        s->options[k] = s->spacer_option[-top[p]];
    }
    return found_append(&s->found, s->options, s->level);
}

/* Take item i out of the item list and its options out of every other list, recording each
 * removal on the trail. */
static inline void cover(Search *s, int32_t i)
{
    int32_t *restrict top = s->top, *restrict ulink = s->ulink, *restrict dlink = s->dlink;
    int32_t *restrict trail = s->trail;
    int32_t t = s->trail_len;
    for (int32_t p = dlink[i]; p != i; p = dlink[p]) {
        for (int32_t q = p + 1; q != p;) {
            int32_t x = top[q];
            if (x <= 0) {
                q = ulink[q];
            } else {
                int32_t u = ulink[q], d = dlink[q];
                dlink[u] = d;
                ulink[d] = u;
                top[x]--;
                trail[t++] = q;
                q++;
            }
        }
    }
    s->updates += t - s->trail_len;
    int32_t l = s->llink[i], r = s->rlink[i];
    s->rlink[l] = r;
    s->llink[r] = l;
    trail[t++] = -i;
    s->trail_len = t;
}

/* Undo every cover since the trail was `mark` long: each node goes back between the
 * neighbours it still points to, last removed first. */
static inline void undo(Search *s, int32_t mark)
{
    int32_t *restrict top = s->top, *restrict ulink = s->ulink, *restrict dlink = s->dlink;
    const int32_t *restrict trail = s->trail;
    for (int32_t t = s->trail_len; t > mark;) {
        int32_t q = trail[--t];
        if (q > 0) {
            dlink[ulink[q]] = q;
            ulink[dlink[q]] = q;
            top[top[q]]++;
        } else {
            int32_t l = s->llink[-q], r = s->rlink[-q];
            s->rlink[l] = -q;
            s->llink[r] = -q;
        }
    }
    s->trail_len = mark;
}

/* Run until `wanted` solutions are recorded or the search ends. Returns 0, or -1 when a signal
 * handler raised (GIL held) or memory ran out. Called with the GIL released (*save). */
static int run(Search *s, long long wanted, PyThreadState **save)
{
    int32_t *top = s->top, *ulink = s->ulink, *dlink = s->dlink, *rlink = s->rlink;
    int32_t *choice = s->choice;
    int32_t i = s->item;
    long long found = 0, next_check = s->nodes + CHECK_EVERY;

    switch (s->phase) {
    case FORWARD: goto forward;
    case BACKUP: goto backup;
    case ADVANCE: goto advance;
    default: return 0;
    }

forward:
    if (rlink[0] == 0) {
        if (record(s) < 0) {
            s->phase = DONE;
            return out_of_memory(save);
        }
        s->solutions++;
        if (++found >= wanted) {
            s->phase = BACKUP;
            s->item = i;
            return 0;
        }
        goto backup;
    }
    {
        i = rlink[0];
        int32_t best = top[i];
        for (int32_t k = rlink[i]; k != 0 && best; k = rlink[k]) {
            if (top[k] < best) {
                best = top[k];
                i = k;
            }
        }
    }
    s->marks[2 * s->level] = s->trail_len;
    cover(s, i);
    s->marks[2 * s->level + 1] = s->trail_len;
    choice[s->level++] = dlink[i];

advance: {
    int32_t p = choice[s->level - 1];
    if (p != i) {
        s->nodes++;
        for (int32_t q = p + 1; q != p;) {
            int32_t j = top[q];
            if (j <= 0) {
                q = ulink[q];
            } else {
                cover(s, j);
                q++;
            }
        }
        if (s->nodes >= next_check) {
            next_check = s->nodes + CHECK_EVERY;
            if (signals_pending(save) < 0) {
                s->phase = FORWARD;
                s->item = i;
                return -1;
            }
        }
        goto forward;
    }
    undo(s, s->marks[2 * (s->level - 1)]); /* uncover i */
    s->level--;
}

backup:
    if (s->level == 0) {
        s->phase = DONE;
        return 0;
    }
    {
        /* Uncover the other items of the option tried at this level, then try the next. */
        int32_t p = choice[s->level - 1];
        undo(s, s->marks[2 * (s->level - 1) + 1]);
        i = top[p];
        choice[s->level - 1] = dlink[p];
    }
    goto advance;
}

/* For the tests: Knuth's sanity() on the links as they are between batches (see _sanity.h). */
static PyObject *Search_sanity(Search *s, PyObject *unused)
{
    (void)unused;
    if (s->choice == NULL) {
        PyErr_SetString(PyExc_ValueError, "sanity() needs an initialised search");
        return NULL;
    }
    return links_sanity(s->primary, s->items, s->size, s->spacers, s->llink, s->rlink, s->top,
                        s->ulink, s->dlink);
}

#define SANITY_METHOD                                                                              \
    {"sanity", (PyCFunction)Search_sanity, METH_NOARGS,                                            \
     "sanity() -> list of str: what is wrong with the links (empty when all is well); for tests."},

SEARCH_MODULE(_dlxc, Search, s->choice != NULL, NULL, SANITY_METHOD, "A resumable dancing-links search over prebuilt int32 arrays.", "Dancing links search loop in C.")
