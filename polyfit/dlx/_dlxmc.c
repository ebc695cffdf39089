/*
 * polyfit.dlx._dlxmc: Knuth's Algorithms M and C (dancing links with multiplicities and
 * colours), the search loop in C.
 *
 * The line-by-line twin of polyfit/dlx/python_mc.py, which explains the method: bounds lo..hi
 * on primary items (options covering an item chosen as a set, through "tweaking"), colours on
 * secondary items ("purifying"). Same layout as _dlxc.c plus three arrays: color per node,
 * bound and slack per item. As in _dlxc.c, cover() records the nodes it removes on a trail and
 * uncover() replays it backwards; purifying and tweaking walk their lists both ways. Resumable
 * in batches, GIL released, signals checked periodically. For the tests, sanity() checks every
 * link between batches (_sanity.h).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_batch.h"
#include "_sanity.h"

#define CHECK_EVERY 4096 /* nodes between signal checks */

enum { ENTER, RETURN, DONE };

typedef struct {
    PyObject_HEAD
    int32_t primary, items;
    int32_t *llink, *rlink;           /* item headers 0..N+1 */
    int32_t *top, *ulink, *dlink;     /* nodes */
    int32_t *color;                   /* per node; -1 once purified; headers: purified colour */
    int32_t *bound, *slack;           /* per item header */
    int32_t *spacer_option;           /* spacer number -> option index */
    int32_t *item_at, *tried_at, *tweak_base; /* per level */
    int32_t *tweaks;                  /* the stack of tweaked option nodes */
    int32_t *trail;                   /* nodes removed by cover(), in order; -i for header i */
    int32_t trail_len;
    int32_t *options;                 /* scratch: the options of a solution */
    int32_t level, ntweaks, phase;
    long long nodes, updates, solutions;
    Found found;
    Py_ssize_t size, spacers;         /* for sanity(): lengths of top (and ulink...), spacer_option */
} Search;

static void Search_dealloc(Search *s)
{
    int32_t *arrays[] = {s->llink, s->rlink, s->top, s->ulink, s->dlink, s->color, s->bound,
                         s->slack, s->spacer_option, s->item_at, s->tried_at, s->tweak_base,
                         s->tweaks, s->trail, s->options, s->found.data};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        PyMem_RawFree(arrays[k]);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds)
{
    int primary;
    PyObject *ll, *rl, *tp, *ul, *dl, *so, *co, *bo, *sl;
    static char *names[] = {"primary", "llink", "rlink", "top", "ulink", "dlink",
                            "spacer_option", "color", "bound", "slack", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOOOOOOOO", names, &primary, &ll, &rl, &tp,
                                     &ul, &dl, &so, &co, &bo, &sl))
        return -1;
    if (s->llink != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Search objects cannot be re-initialised");
        return -1;
    }
    Py_ssize_t nl, nr, nt, nu, nd, ns, nc, nb, nk;
    if (!(s->llink = copy_buffer(ll, &nl)) || !(s->rlink = copy_buffer(rl, &nr)) ||
        !(s->top = copy_buffer(tp, &nt)) || !(s->ulink = copy_buffer(ul, &nu)) ||
        !(s->dlink = copy_buffer(dl, &nd)) || !(s->spacer_option = copy_buffer(so, &ns)) ||
        !(s->color = copy_buffer(co, &nc)) || !(s->bound = copy_buffer(bo, &nb)) ||
        !(s->slack = copy_buffer(sl, &nk)))
        return -1;
    if (nl != nr || nt != nu || nt != nd || nt != nc || nb != nl || nk != nl || primary < 0 ||
        primary + 2 > nl || nl > nt) {
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
    /* Each level adds an option covering its item (at most bound of them) or drops an item. */
    long long levels = primary + 1;
    for (int32_t k = 1; k <= primary; k++) {
        if (s->bound[k] < 1 || s->slack[k] < 0 || s->slack[k] > s->bound[k]) {
            PyErr_SetString(PyExc_ValueError, "inconsistent item bounds");
            return -1;
        }
        levels += s->bound[k];
    }
    if (levels > INT32_MAX / 4) {
        PyErr_SetString(PyExc_ValueError, "item bounds too large");
        return -1;
    }
    size_t per_level = sizeof(int32_t) * (size_t)levels;
    s->item_at = PyMem_RawMalloc(per_level);
    s->tried_at = PyMem_RawMalloc(per_level);
    s->tweak_base = PyMem_RawMalloc(per_level);
    s->options = PyMem_RawMalloc(per_level);
    s->tweaks = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(nt + 1));
    /* Each node and each header is out of its list at most once at a time. */
    s->trail = PyMem_RawMalloc(sizeof(int32_t) * (size_t)(nt + nl));
    if (!s->item_at || !s->tried_at || !s->tweak_base || !s->options || !s->tweaks || !s->trail) {
        PyErr_NoMemory();
        return -1;
    }
    s->level = 0;
    s->ntweaks = 0;
    s->trail_len = 0;
    s->phase = ENTER;
    return 0;
}

static int record(Search *s)
{
    int32_t *top = s->top, count = 0;
    for (int32_t k = 0; k < s->level; k++) {
        int32_t p = s->tried_at[k];
        if (p <= s->items)
            continue; /* a null branch adds no option */
        while (top[p] > 0)
            p++;
        s->options[count++] = s->spacer_option[-top[p]];
    }
    return found_append(&s->found, s->options, count);
}

/* Take the other nodes of p's option out of their lists (skipping purified ones). With `record`
 * (a constant where it is inlined), each node removed goes on the trail at t; returns the
 * trail's new length. */
static inline __attribute__((always_inline)) int32_t hide_recording(Search *s, int32_t p, int32_t t, const int record)
{
    int32_t *restrict top = s->top, *restrict ulink = s->ulink, *restrict dlink = s->dlink;
    const int32_t *restrict color = s->color;
    int32_t *restrict trail = s->trail;
    for (int32_t q = p + 1; q != p;) {
        int32_t x = top[q];
        if (x <= 0) {
            q = ulink[q];
        } else {
            if (color[q] >= 0) {
                int32_t u = ulink[q], d = dlink[q];
                dlink[u] = d;
                ulink[d] = u;
                top[x]--;
                s->updates++;
                if (record)
                    trail[t++] = q;
            }
            q++;
        }
    }
    return t;
}

static inline void hide(Search *s, int32_t p)
{
    hide_recording(s, p, 0, 0);
}

static inline void unhide(Search *s, int32_t p)
{
    int32_t *restrict top = s->top, *restrict ulink = s->ulink, *restrict dlink = s->dlink;
    int32_t *restrict color = s->color;
    for (int32_t q = p - 1; q != p;) {
        int32_t x = top[q];
        if (x <= 0) {
            q = dlink[q];
        } else {
            if (color[q] >= 0) {
                int32_t u = ulink[q], d = dlink[q];
                dlink[u] = q;
                ulink[d] = q;
                top[x]++;
            }
            q--;
        }
    }
}

static inline void unlink_item(Search *s, int32_t i)
{
    int32_t l = s->llink[i], r = s->rlink[i];
    s->rlink[l] = r;
    s->llink[r] = l;
}

static inline void relink_item(Search *s, int32_t i)
{
    int32_t l = s->llink[i], r = s->rlink[i];
    s->rlink[l] = i;
    s->llink[r] = i;
}

/* Hide every option of item i's list, as hide() does, recording each node removed; then take
 * i out of the item list. */
static void cover(Search *s, int32_t i)
{
    int32_t t = s->trail_len;
    for (int32_t p = s->dlink[i]; p != i; p = s->dlink[p])
        t = hide_recording(s, p, t, 1);
    unlink_item(s, i);
    s->trail[t++] = -i;
    s->trail_len = t;
}

/* Undo the latest cover(), which covered i: back into the item list, then each node back
 * between the neighbours it still points to, last removed first. */
static void uncover(Search *s, int32_t i)
{
    int32_t *restrict top = s->top, *restrict ulink = s->ulink, *restrict dlink = s->dlink;
    const int32_t *restrict trail = s->trail;
    int32_t t = s->trail_len - 1; /* trail[t] is -i */
    relink_item(s, i);
    while (t > 0 && trail[t - 1] > 0) {
        int32_t q = trail[--t];
        dlink[ulink[q]] = q;
        ulink[dlink[q]] = q;
        top[top[q]]++;
    }
    s->trail_len = t;
}

static void purify(Search *s, int32_t p)
{
    int32_t c = s->color[p], i = s->top[p];
    s->color[i] = c;
    for (int32_t q = s->dlink[i]; q != i; q = s->dlink[q]) {
        if (s->color[q] == c)
            s->color[q] = -1;
        else
            hide(s, q);
    }
}

static void unpurify(Search *s, int32_t p)
{
    int32_t i = s->top[p], c = s->color[i];
    for (int32_t q = s->ulink[i]; q != i; q = s->ulink[q]) {
        if (s->color[q] < 0)
            s->color[q] = c;
        else
            unhide(s, q);
    }
}

/* Settle the items of p's option other than p's own: it has been chosen. */
static void commit(Search *s, int32_t p)
{
    int32_t *top = s->top;
    for (int32_t q = p + 1; q != p;) {
        int32_t j = top[q];
        if (j <= 0) {
            q = s->ulink[q];
            continue;
        }
        if (j <= s->primary) {
            if (--s->bound[j] == 0)
                cover(s, j);
        } else if (s->color[q] == 0) {
            cover(s, j);
        } else if (s->color[q] > 0) {
            purify(s, q);
        }
        q++;
    }
}

static void uncommit(Search *s, int32_t p)
{
    int32_t *top = s->top;
    for (int32_t q = p - 1; q != p;) {
        int32_t j = top[q];
        if (j <= 0) {
            q = s->dlink[q];
            continue;
        }
        if (j <= s->primary) {
            if (s->bound[j] == 0)
                uncover(s, j);
            s->bound[j]++;
        } else if (s->color[q] == 0) {
            uncover(s, j);
        } else if (s->color[q] > 0) {
            unpurify(s, q);
        }
        q--;
    }
}

/* The active primary item with fewest branches; *branches gets that number. */
static int32_t choose(Search *s, int32_t *branches)
{
    int32_t best_item = -1, best = 0;
    for (int32_t k = s->rlink[0]; k != 0; k = s->rlink[k]) {
        int32_t needed = s->bound[k] - s->slack[k];
        int32_t b = s->top[k] + 1 - (needed > 0 ? needed : 0);
        if (best_item < 0 || b < best) {
            best_item = k;
            best = b;
            if (b <= 0)
                break;
        }
    }
    *branches = best;
    return best_item;
}

/* Restore item i as it was before this level branched on it, and leave the level. */
static void finish_level(Search *s, int32_t i)
{
    if (s->bound[i] == 0) {
        uncover(s, i);
    } else {
        int32_t base = s->tweak_base[s->level - 1];
        while (s->ntweaks > base) {
            int32_t x = s->tweaks[--s->ntweaks];
            int32_t d = s->dlink[x];
            s->dlink[i] = x;
            s->ulink[d] = x;
            s->top[i]++;
            unhide(s, x);
        }
    }
    s->bound[i]++;
    s->level--;
}

/* Run until `wanted` solutions are recorded or the search ends; as in _dlxc.c. */
static int run(Search *s, long long wanted, PyThreadState **save)
{
    long long found = 0, next_check = s->nodes + CHECK_EVERY;
    int32_t i, x;

    if (s->phase == DONE)
        return 0;
    if (s->phase == RETURN)
        goto back;

enter:
    if (s->rlink[0] == 0) {
        if (record(s) < 0) {
            s->phase = DONE;
            return out_of_memory(save);
        }
        s->solutions++;
        if (++found >= wanted) {
            s->phase = RETURN;
            return 0;
        }
        goto back;
    }
    {
        int32_t branches;
        i = choose(s, &branches);
        if (branches <= 0)
            goto back;
    }
    if (--s->bound[i] == 0)
        cover(s, i);
    s->item_at[s->level] = i;
    s->tried_at[s->level] = s->dlink[i];
    s->tweak_base[s->level] = s->ntweaks;
    s->level++;
    goto try;

back: /* back from the level above: undo this level's branch and take the next */
    if (s->level == 0) {
        s->phase = DONE;
        return 0;
    }
    i = s->item_at[s->level - 1];
    x = s->tried_at[s->level - 1];
    if (x == i) { /* the null branch was the last */
        if (s->bound[i] > 0)
            relink_item(s, i);
        finish_level(s, i);
        goto back;
    }
    uncommit(s, x);
    s->tried_at[s->level - 1] = s->dlink[x];

try:
    i = s->item_at[s->level - 1];
    x = s->tried_at[s->level - 1];
    if (x == i) {
        if (s->bound[i] + 1 - s->slack[i] > 0) { /* i still needs options: no null branch */
            finish_level(s, i);
            goto back;
        }
        if (s->bound[i] > 0)
            unlink_item(s, i);
    } else {
        if (s->bound[i] > 0) { /* tweak x: off every list, i's included, for this level */
            hide(s, x);
            int32_t d = s->dlink[x];
            s->dlink[i] = d;
            s->ulink[d] = i;
            s->top[i]--;
            s->tweaks[s->ntweaks++] = x;
            if (s->top[i] < s->bound[i] - s->slack[i]) { /* too few left for what i needs */
                finish_level(s, i);
                goto back;
            }
        }
        commit(s, x);
    }
    s->nodes++;
    if (s->nodes >= next_check) {
        next_check = s->nodes + CHECK_EVERY;
        if (signals_pending(save) < 0) {
            s->phase = ENTER;
            return -1;
        }
    }
    goto enter;
}

/* For the tests: Knuth's sanity() on the links as they are between batches (see _sanity.h). */
static PyObject *Search_sanity(Search *s, PyObject *unused)
{
    (void)unused;
    if (s->item_at == NULL) {
        PyErr_SetString(PyExc_ValueError, "sanity() needs an initialised search");
        return NULL;
    }
    return links_sanity(s->primary, s->items, s->size, s->spacers, s->llink, s->rlink, s->top,
                        s->ulink, s->dlink);
}

#define SANITY_METHOD                                                                              \
    {"sanity", (PyCFunction)Search_sanity, METH_NOARGS,                                            \
     "sanity() -> list of str: what is wrong with the links (empty when all is well); for tests."},

SEARCH_MODULE(_dlxmc, Search, s->item_at != NULL, NULL, SANITY_METHOD, "A resumable dancing-links search with multiplicities and colours.", "Dancing links with multiplicities and colours, in C.")
