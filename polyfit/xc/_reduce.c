/* Option reduction before the search: the C twin of polyfit/xc/reduce.py (same rule, same
 * result). An option is removed when choosing it would leave some needed item (a primary item
 * that must be covered at least once) without a single option compatible with it; the pass is
 * repeated until nothing more goes. See reduce.py for the rule and why it never changes a count.
 *
 * reduce(n_items, starts, items, exclusive, needed, alive) -> rounds
 *   starts: int32 buffer, n_options + 1 offsets into items; items: int32 buffer of item indices;
 *   exclusive, needed: one byte per item; alive: writable byte per option (1 = kept), updated.
 *
 * pack(options) -> (starts, items)
 *   A list of options (tuples of item indices, each from 0 to 2**31 - 1) as the two int32
 *   buffers reduce takes (bytes, in this machine's byte order).
 *
 * unpack(starts, items) -> list of tuples
 *   The inverse of pack: option k is the tuple of items[starts[k]:starts[k + 1]]. The tuples
 *   share one int object per item index, as options made from a list of items do.
 *
 * take(starts, items, chosen) -> (starts, items)
 *   The options at the indices ``chosen`` (a sequence of ints), in that order, packed.
 *
 * These are the C side of polyfit.xc.problem.PackedOptions, whose Python code is their twin;
 * every buffer is checked (offsets from 0, rising, inside items; items not negative) before
 * it is read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    Py_buffer view;
    int held;
} Buffer;

static int get(PyObject *obj, Buffer *b, int writable, Py_ssize_t itemsize, const char *what)
{
    if (PyObject_GetBuffer(obj, &b->view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0)
        return -1;
    b->held = 1;
    if (b->view.len % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "%s: buffer length is not a multiple of %zd", what, itemsize);
        return -1;
    }
    return 0;
}

static void release(Buffer *b)
{
    if (b->held)
        PyBuffer_Release(&b->view);
    b->held = 0;
}

/* Are starts (n_options + 1 offsets) and items a valid packing: offsets from 0, never
 * falling, the last at most the number of entries, and every item from 0 to limit - 1?
 * Else a ValueError. */
static int check_packed(const char *what, const int32_t *starts, Py_ssize_t n_options, const int32_t *items,
                        Py_ssize_t n_entries, uint32_t limit)
{
    if (n_options < 0 || starts[0] != 0) {
        PyErr_Format(PyExc_ValueError, "%s: option offsets must start at 0", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n_options; k++) {
        if (starts[k] > starts[k + 1] || starts[k + 1] > n_entries) {
            PyErr_Format(PyExc_ValueError, "%s: option offsets out of range", what);
            return -1;
        }
    }
    int bad = 0;
    for (Py_ssize_t e = 0; e < n_entries; e++)  /* one pass with no branch, which compilers vectorise */
        bad |= (uint32_t)items[e] >= limit;  /* a negative item is 2**31 or more */
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s: item index out of range", what);
        return -1;
    }
    return 0;
}

static PyObject *reduce_options(PyObject *self, PyObject *args)
{
    Py_ssize_t n_items;
    PyObject *starts_obj, *items_obj, *exclusive_obj, *needed_obj, *alive_obj;
    Buffer sb = {0}, ib = {0}, eb = {0}, nb = {0}, ab = {0};
    uint64_t *S = NULL, *clash = NULL, *made = NULL;
    const uint64_t **rows = NULL;
    Py_ssize_t *nz_start = NULL, *mine = NULL;
    int32_t *nz = NULL, *size = NULL;
    long rounds = 0;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "nOOOOO", &n_items, &starts_obj, &items_obj, &exclusive_obj,
                          &needed_obj, &alive_obj))
        return NULL;
    if (get(starts_obj, &sb, 0, 4, "starts") < 0 || get(items_obj, &ib, 0, 4, "items") < 0
        || get(exclusive_obj, &eb, 0, 1, "exclusive") < 0 || get(needed_obj, &nb, 0, 1, "needed") < 0
        || get(alive_obj, &ab, 1, 1, "alive") < 0)
        goto done;

    const int32_t *starts = sb.view.buf, *items = ib.view.buf;
    const unsigned char *exclusive = eb.view.buf, *needed = nb.view.buf;
    unsigned char *alive = ab.view.buf;
    Py_ssize_t n_options = ab.view.len, n_entries = ib.view.len / 4;

    if (n_items < 0 || n_items > INT32_MAX || sb.view.len / 4 != n_options + 1
        || eb.view.len != n_items || nb.view.len != n_items || n_entries > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "reduce: buffer sizes do not agree");
        goto done;
    }
    if (check_packed("reduce", starts, n_options, items, n_entries, (uint32_t)n_items) < 0)
        goto done;

    /* S[j]: the live options of item j, a bitset of W words; nz[j]: the words of S[j] that
     * were ever nonzero (a superset of the nonzero ones as options die). The option under
     * test is the check-th: clash[w] is word w of its clash set when made[w] == check; rows
     * are the rows of S of its exclusive items. */
    Py_ssize_t W = (n_options + 63) / 64, longest = 0;
    for (Py_ssize_t k = 0; k < n_options; k++)
        if (starts[k + 1] - starts[k] > longest)
            longest = starts[k + 1] - starts[k];
    uint64_t check = 0;
    S = calloc((size_t)n_items * (size_t)W + 1, sizeof *S);
    clash = calloc((size_t)W + 1, sizeof *clash);
    made = calloc((size_t)W + 1, sizeof *made);
    rows = malloc(((size_t)longest + 1) * sizeof *rows);
    nz_start = calloc((size_t)n_items + 1, sizeof *nz_start);
    nz = malloc(((size_t)n_entries + 1) * sizeof *nz);
    size = calloc((size_t)n_items + 1, sizeof *size);
    mine = malloc(((size_t)n_items + 1) * sizeof *mine);
    if (!S || !clash || !made || !rows || !nz_start || !nz || !size || !mine) {
        PyErr_NoMemory();
        goto done;
    }

    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < n_options; k++)
        if (alive[k])
            for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
                S[(size_t)items[e] * W + k / 64] |= (uint64_t)1 << (k % 64);
                size[items[e]]++;
            }
    Py_ssize_t n_nz = 0;
    for (Py_ssize_t j = 0; j < n_items; j++) {
        nz_start[j] = n_nz;
        const uint64_t *row = S + (size_t)j * W;
        for (Py_ssize_t w = 0; w < W; w++)
            if (row[w])
                nz[n_nz++] = (int32_t)w;
    }
    nz_start[n_items] = n_nz;
    for (Py_ssize_t i = 0; i < n_items; i++)
        mine[i] = -1;
    int hopeless = 0;
    for (Py_ssize_t i = 0; i < n_items; i++)
        if (needed[i] && size[i] == 0)
            hopeless = 1;

    int changed = 1;
    int32_t last = -1;  /* the item that starved the option that went last */
    while (changed) {
        changed = 0;
        rounds++;
        for (Py_ssize_t k = 0; k < n_options; k++) {
            if (!alive[k])
                continue;
            int dead = hopeless;
            if (!dead) {
                check++;
                Py_ssize_t n_rows = 0;
                for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
                    int32_t i = items[e];
                    mine[i] = k;
                    if (exclusive[i])
                        rows[n_rows++] = S + (size_t)i * W;
                }
                /* Option k dies if some needed item outside it has only options that clash
                 * with it. First the item that starved the last option to go (the options of
                 * a piece often go for the same item), then each needed item in turn. */
                for (Py_ssize_t t = -1; t < n_items && !dead; t++) {
                    Py_ssize_t j = t < 0 ? last : t;
                    if (j < 0 || (t >= 0 && j == last) || !needed[j] || mine[j] == k)
                        continue;
                    const uint64_t *row = S + (size_t)j * W;
                    int starved = 1;
                    for (Py_ssize_t q = nz_start[j]; q < nz_start[j + 1] && starved; q++) {
                        Py_ssize_t w = nz[q];
                        uint64_t live = row[w];
                        if (live == 0)
                            continue;
                        if (made[w] != check) {
                            /* word w of the clash set: the live options sharing an exclusive
                             * item with option k (made once per option, when first needed) */
                            uint64_t c = 0;
                            for (Py_ssize_t r = 0; r < n_rows; r++)
                                c |= rows[r][w];
                            clash[w] = c;
                            made[w] = check;
                        }
                        starved = (live & ~clash[w]) == 0;
                    }
                    if (starved) {
                        dead = 1;
                        last = (int32_t)j;
                    }
                }
            }
            if (dead) {
                alive[k] = 0;
                changed = 1;
                for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
                    int32_t i = items[e];
                    S[(size_t)i * W + k / 64] &= ~((uint64_t)1 << (k % 64));
                    if (--size[i] == 0 && needed[i])
                        hopeless = 1;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLong(rounds);

done:
    free(S);
    free(clash);
    free(made);
    free(rows);
    free(nz_start);
    free(nz);
    free(size);
    free(mine);
    release(&sb);
    release(&ib);
    release(&eb);
    release(&nb);
    release(&ab);
    return result;
}

static PyObject *pack(PyObject *self, PyObject *args)
{
    PyObject *options;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &options))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(options), total = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *option = PyList_GET_ITEM(options, k);
        if (!PyTuple_Check(option)) {
            PyErr_SetString(PyExc_TypeError, "pack: every option must be a tuple");
            return NULL;
        }
        total += PyTuple_GET_SIZE(option);
    }
    if (total > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "pack: too many items in all");
        return NULL;
    }
    PyObject *starts = PyBytes_FromStringAndSize(NULL, (n + 1) * 4);
    PyObject *items = PyBytes_FromStringAndSize(NULL, total * 4);
    if (starts == NULL || items == NULL)
        goto fail;
    int32_t *s = (int32_t *)PyBytes_AS_STRING(starts), *it = (int32_t *)PyBytes_AS_STRING(items);
    Py_ssize_t e = 0;
    s[0] = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *option = PyList_GET_ITEM(options, k);
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(option); j++) {
            long value = PyLong_AsLong(PyTuple_GET_ITEM(option, j));
            if (value == -1 && PyErr_Occurred())
                goto fail;
            if (value < 0 || value > INT32_MAX) {
                PyErr_SetString(PyExc_ValueError, "pack: an item index is out of range");
                goto fail;
            }
            it[e++] = (int32_t)value;
        }
        s[k + 1] = (int32_t)e;
    }
    return Py_BuildValue("(NN)", starts, items);
fail:
    Py_XDECREF(starts);
    Py_XDECREF(items);
    return NULL;
}

/* The two buffers of packed options, checked; n_options is one less than the offsets. */
static int get_packed(const char *what, PyObject *starts_obj, PyObject *items_obj, Buffer *sb, Buffer *ib,
                      Py_ssize_t *n_options)
{
    if (get(starts_obj, sb, 0, 4, "starts") < 0 || get(items_obj, ib, 0, 4, "items") < 0)
        return -1;
    *n_options = sb->view.len / 4 - 1;
    if (*n_options < 0 || ib->view.len / 4 > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "%s: starts needs one offset more than there are options", what);
        return -1;
    }
    return check_packed(what, sb->view.buf, *n_options, ib->view.buf, ib->view.len / 4, (uint32_t)INT32_MAX + 1);
}

/* Item indices below this share int objects in unpack (larger ones, which no real problem
 * has, are made one by one). */
#define SHARED_INTS 1048576

static PyObject *unpack(PyObject *self, PyObject *args)
{
    PyObject *starts_obj, *items_obj, *result = NULL;
    Buffer sb = {0}, ib = {0};
    PyObject **ints = NULL;
    Py_ssize_t n_options, n_shared = 0;
    if (!PyArg_ParseTuple(args, "OO", &starts_obj, &items_obj))
        return NULL;
    if (get_packed("unpack", starts_obj, items_obj, &sb, &ib, &n_options) < 0)
        goto done;
    const int32_t *starts = sb.view.buf, *items = ib.view.buf;
    Py_ssize_t used = starts[n_options];
    for (Py_ssize_t e = 0; e < used; e++)
        if (items[e] >= n_shared)
            n_shared = (Py_ssize_t)items[e] + 1;
    if (n_shared > SHARED_INTS)
        n_shared = SHARED_INTS;
    ints = calloc((size_t)n_shared + 1, sizeof *ints);
    result = PyList_New(n_options);
    if (ints == NULL || result == NULL) {
        if (ints == NULL)
            PyErr_NoMemory();
        Py_CLEAR(result);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_options; k++) {
        PyObject *option = PyTuple_New(starts[k + 1] - starts[k]);
        if (option == NULL)
            goto fail;
        PyList_SET_ITEM(result, k, option);
        for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
            int32_t i = items[e];
            PyObject *value;
            if (i < n_shared) {
                if (ints[i] == NULL && (ints[i] = PyLong_FromLong(i)) == NULL)
                    goto fail;
                value = ints[i];
                Py_INCREF(value);
            } else if ((value = PyLong_FromLong(i)) == NULL) {
                goto fail;
            }
            PyTuple_SET_ITEM(option, e - starts[k], value);
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    if (ints != NULL)
        for (Py_ssize_t i = 0; i < n_shared; i++)
            Py_XDECREF(ints[i]);
    free(ints);
    release(&sb);
    release(&ib);
    return result;
}

static PyObject *take(PyObject *self, PyObject *args)
{
    PyObject *starts_obj, *items_obj, *chosen_obj, *chosen = NULL, *result = NULL;
    PyObject *new_starts = NULL, *new_items = NULL;
    Buffer sb = {0}, ib = {0};
    Py_ssize_t n_options;
    if (!PyArg_ParseTuple(args, "OOO", &starts_obj, &items_obj, &chosen_obj))
        return NULL;
    if (get_packed("take", starts_obj, items_obj, &sb, &ib, &n_options) < 0)
        goto done;
    chosen = PySequence_Fast(chosen_obj, "take: chosen must be a sequence of option indices");
    if (chosen == NULL)
        goto done;
    const int32_t *starts = sb.view.buf, *items = ib.view.buf;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(chosen), total = 0;
    for (Py_ssize_t c = 0; c < n; c++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(chosen, c));
        if (k == -1 && PyErr_Occurred())
            goto done;
        if (k < 0 || k >= n_options) {
            PyErr_Format(PyExc_IndexError, "take: option %zd out of range (%zd options)", k, n_options);
            goto done;
        }
        total += starts[k + 1] - starts[k];
    }
    if (total > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "take: too many items in all");
        goto done;
    }
    new_starts = PyBytes_FromStringAndSize(NULL, (n + 1) * 4);
    new_items = PyBytes_FromStringAndSize(NULL, total * 4);
    if (new_starts == NULL || new_items == NULL)
        goto done;
    int32_t *s = (int32_t *)PyBytes_AS_STRING(new_starts), *it = (int32_t *)PyBytes_AS_STRING(new_items);
    s[0] = 0;
    for (Py_ssize_t c = 0; c < n; c++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(chosen, c));
        int32_t length = starts[k + 1] - starts[k];
        memcpy(it + s[c], items + starts[k], (size_t)length * sizeof *it);
        s[c + 1] = s[c] + length;
    }
    result = Py_BuildValue("(OO)", new_starts, new_items);
done:
    Py_XDECREF(new_starts);
    Py_XDECREF(new_items);
    Py_XDECREF(chosen);
    release(&sb);
    release(&ib);
    return result;
}

static PyMethodDef methods[] = {
    {"reduce", reduce_options, METH_VARARGS,
     "reduce(n_items, starts, items, exclusive, needed, alive) -> rounds: remove options that "
     "leave a needed item without a compatible option, to a fixed point."},
    {"pack", pack, METH_VARARGS, "pack(options) -> (starts, items): a list of tuples of items as int32 buffers."},
    {"unpack", unpack, METH_VARARGS, "unpack(starts, items) -> list: packed options as tuples (the inverse of pack)."},
    {"take", take, METH_VARARGS, "take(starts, items, chosen) -> (starts, items): the options chosen, in that order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_reduce", NULL, -1, methods};

PyMODINIT_FUNC PyInit__reduce(void) { return PyModule_Create(&module); }
