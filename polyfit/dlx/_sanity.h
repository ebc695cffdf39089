/*
 * Knuth's sanity() for the dancing-links modules (_dlxc.c, _dlxmc.c): every link checked, for
 * the tests. The line-by-line twin of polyfit/dlx/sanity.py, which says what is checked and
 * why; the messages are the same, so the tests can compare them.
 */
#ifndef POLYFIT_SANITY_H
#define POLYFIT_SANITY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#include <stdint.h>

typedef struct {
    int32_t primary, items;
    Py_ssize_t size, spacers; /* nodes (the length of top, ulink, dlink); entries of spacer_option */
    const int32_t *llink, *rlink, *top, *ulink, *dlink;
    PyObject *problems;       /* a list of str */
    int failed;               /* memory ran out while reporting */
} Sanity;

static void report(Sanity *c, const char *format, ...)
{
    if (c->failed)
        return;
    va_list args;
    va_start(args, format);
    PyObject *message = PyUnicode_FromFormatV(format, args);
    va_end(args);
    if (message == NULL || PyList_Append(c->problems, message) < 0)
        c->failed = 1;
    Py_XDECREF(message);
}

static void check_list(Sanity *c, int32_t i)
{
    const int32_t *top = c->top, *ulink = c->ulink, *dlink = c->dlink;
    int32_t qq = i, pp = dlink[i];
    Py_ssize_t k = 0;
    for (;;) {
        if (pp < 0 || pp >= c->size) {
            report(c, "list of item %d: dlink[%d] is %d, out of range", (int)i, (int)qq, (int)pp);
            return;
        }
        if (ulink[pp] != qq)
            report(c, "list of item %d: ulink[%d] is %d, expected %d", (int)i, (int)pp, (int)ulink[pp], (int)qq);
        if (pp == i)
            break;
        if (top[pp] != i)
            report(c, "list of item %d: top[%d] is %d", (int)i, (int)pp, (int)top[pp]);
        k++;
        if (k > c->size) {
            report(c, "list of item %d does not come back to its header", (int)i);
            return;
        }
        qq = pp;
        pp = dlink[pp];
    }
    if (top[i] != k)
        report(c, "item %d: length field %d, but %zd nodes in its list", (int)i, (int)top[i], k);
}

static void check_ring(Sanity *c, int32_t root, int32_t first, int32_t last)
{
    const int32_t *llink = c->llink, *rlink = c->rlink;
    int32_t q = root, p = rlink[root];
    for (int32_t steps = 0; steps < c->items + 2; steps++) {
        if (p < 0 || p >= c->items + 2) {
            report(c, "item ring: rlink[%d] is %d, out of range", (int)q, (int)p);
            return;
        }
        if (llink[p] != q)
            report(c, "item ring: llink[%d] is %d, expected %d", (int)p, (int)llink[p], (int)q);
        if (p == root)
            return;
        if (first <= p && p <= last)
            check_list(c, p);
        else
            report(c, "item %d is in the ring of root %d", (int)p, (int)root);
        q = p;
        p = rlink[p];
    }
    report(c, "the ring of root %d does not come back to it", (int)root);
}

static void check_spacers(Sanity *c)
{
    const int32_t *top = c->top, *ulink = c->ulink, *dlink = c->dlink;
    Py_ssize_t p = c->items + 1, number = 0; /* spacer 0 */
    if (top[p] != 0)
        report(c, "spacer 0 at node %zd: top is %d, expected 0", p, (int)top[p]);
    for (;;) {
        Py_ssize_t q = p + 1;
        while (q < c->size && top[q] > 0) {
            if (top[q] > c->items)
                report(c, "node %zd: top is %d, not an item", q, (int)top[q]);
            q++;
        }
        if (q == c->size) {
            if (q - 1 > p)
                report(c, "nodes %zd to %zd have no spacer after them", p + 1, q - 1);
            else if (dlink[p] != 0)
                report(c, "spacer at node %zd: dlink is %d, expected 0", p, (int)dlink[p]);
            break;
        }
        number++;
        if (q == p + 1)
            report(c, "spacer at node %zd: an empty option before it", q);
        if (top[q] != -number)
            report(c, "spacer %zd at node %zd: top is %d, expected %zd", number, q, (int)top[q], -number);
        if (dlink[p] != q - 1)
            report(c, "spacer at node %zd: dlink is %d, expected %zd", p, (int)dlink[p], q - 1);
        if (ulink[q] != p + 1)
            report(c, "spacer at node %zd: ulink is %d, expected %zd", q, (int)ulink[q], p + 1);
        p = q;
    }
    if (c->spacers != number + 1)
        report(c, "%zd spacers after options, but %zd option indices", number, c->spacers - 1);
}

/* What is wrong with the links, as a list of messages (empty when all is well); NULL with an
 * exception when memory ran out. Needs the GIL, between batches of the search. */
static PyObject *links_sanity(int32_t primary, int32_t items, Py_ssize_t size, Py_ssize_t spacers,
                              const int32_t *llink, const int32_t *rlink, const int32_t *top,
                              const int32_t *ulink, const int32_t *dlink)
{
    Sanity c = {primary, items, size, spacers, llink, rlink, top, ulink, dlink, PyList_New(0), 0};
    if (c.problems == NULL)
        return NULL;
    if (size < items + 2) {
        report(&c, "%zd nodes, fewer than the %d item headers and the first spacer", size, (int)items + 1);
        return c.failed ? NULL : c.problems;
    }
    check_ring(&c, 0, 1, primary);
    check_ring(&c, items + 1, primary + 1, items);
    check_spacers(&c);
    if (c.failed) {
        Py_DECREF(c.problems);
        return NULL;
    }
    return c.problems;
}

/* At construction: refuse links that are not a valid fresh layout, so that no array handed in
 * from Python can make the search read or write outside them. 0 when sound; -1 with a
 * ValueError naming the first problem otherwise. */
static int refuse_bad_links(int32_t primary, int32_t items, Py_ssize_t size, Py_ssize_t spacers,
                            const int32_t *llink, const int32_t *rlink, const int32_t *top,
                            const int32_t *ulink, const int32_t *dlink)
{
    PyObject *problems = links_sanity(primary, items, size, spacers, llink, rlink, top, ulink, dlink);
    if (problems == NULL)
        return -1;
    if (PyList_GET_SIZE(problems) > 0) {
        PyErr_Format(PyExc_ValueError, "inconsistent dancing-links arrays: %U", PyList_GET_ITEM(problems, 0));
        Py_DECREF(problems);
        return -1;
    }
    Py_DECREF(problems);
    return 0;
}

#endif
