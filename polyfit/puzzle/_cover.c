/* The exact cover's per-placement loop in C: the twin of the Python loop in
 * polyfit/puzzle/cover.py (_CellItems), which gives the same options either way.
 *
 * options(table, shapes, runs, corners, low, strides) -> (starts, items)
 *   The options of placements, a run of placements of one shape at a time, packed as
 *   polyfit.xc.problem.PackedOptions holds them: option k is items[starts[k]:starts[k + 1]],
 *   both int32 buffers (bytes). runs is an int32 buffer of triples (first, shape, count):
 *   count placements of shapes[shape] (the numbers of its cells at corner 0 in the box of
 *   ``strides``, an int32 buffer) whose first item is ``first`` (the piece's); corners holds
 *   each placement's corner (a tuple of coordinates), whose number is its coordinates less
 *   ``low``, times the strides, added up. A placement's option is (first, table[base +
 *   offsets[0]], table[base + offsets[1]], ...), base its corner's number and offsets its
 *   shape's. ``table`` is an int32 buffer, the item of each cell of the box by its number, and
 *   -1 where the box has no cell. An entry off the table, or -1, is a ValueError: a placement
 *   off the board is a bug upstream. No Python object is made per option.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static int int32_view(PyObject *obj, Py_buffer *view, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
        return -1;
    if (view->len % 4 != 0) {
        PyErr_Format(PyExc_ValueError, "options: %s is not an int32 buffer", what);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

static PyObject *options(PyObject *self, PyObject *args)
{
    PyObject *shapes, *corners, *low_obj, *strides_obj;
    Py_buffer tv = {0}, rv = {0}, ov = {0};
    if (!PyArg_ParseTuple(args, "y*O!y*O!O!O!", &tv, &PyTuple_Type, &shapes, &rv, &PyList_Type, &corners, &PyTuple_Type,
                          &low_obj, &PyTuple_Type, &strides_obj))
        return NULL;
    PyObject *result = NULL, *starts_obj = NULL, *items_obj = NULL;
    const int32_t *runs = (const int32_t *)rv.buf, *table = (const int32_t *)tv.buf;
    Py_ssize_t n_runs = rv.len / 12, axes = PyTuple_GET_SIZE(strides_obj), n_cells = tv.len / 4;
    Py_ssize_t low[8], strides[8];
    if (tv.len % 4 != 0 || rv.len % 12 != 0 || axes < 1 || axes > 8 || PyTuple_GET_SIZE(low_obj) != axes) {
        PyErr_SetString(PyExc_ValueError, "options: the table is int32, runs are int32 triples, and low and strides "
                                          "one int per axis");
        goto done;
    }
    for (Py_ssize_t i = 0; i < axes; i++) {
        low[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(low_obj, i));
        strides[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides_obj, i));
        if (PyErr_Occurred())
            goto done;
    }
    /* The placements and the entries in all: a run of count placements of a shape of n cells
     * makes count options of 1 + n items. */
    Py_ssize_t total = 0, entries = 0;
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        if (runs[3 * r + 1] < 0 || runs[3 * r + 1] >= PyTuple_GET_SIZE(shapes) || runs[3 * r + 2] < 0) {
            PyErr_SetString(PyExc_ValueError, "options: a run's shape or count is out of range");
            goto done;
        }
        if (int32_view(PyTuple_GET_ITEM(shapes, runs[3 * r + 1]), &ov, "a shape") < 0)
            goto done;
        Py_ssize_t size = ov.len / 4 + 1;
        PyBuffer_Release(&ov);
        ov.obj = NULL;
        total += runs[3 * r + 2];
        if (runs[3 * r + 2] > 0 && size > (INT32_MAX - entries) / runs[3 * r + 2]) {
            PyErr_SetString(PyExc_OverflowError, "options: too many items in all");
            goto done;
        }
        entries += size * runs[3 * r + 2];
    }
    if (total != PyList_GET_SIZE(corners)) {
        PyErr_SetString(PyExc_ValueError, "options: the runs must count one placement per corner");
        goto done;
    }
    starts_obj = PyBytes_FromStringAndSize(NULL, (total + 1) * 4);
    items_obj = PyBytes_FromStringAndSize(NULL, entries * 4);
    if (starts_obj == NULL || items_obj == NULL)
        goto done;
    int32_t *starts = (int32_t *)PyBytes_AS_STRING(starts_obj), *items = (int32_t *)PyBytes_AS_STRING(items_obj);
    Py_ssize_t k = 0, e = 0;  /* the placement, the entry */
    starts[0] = 0;
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        if (int32_view(PyTuple_GET_ITEM(shapes, runs[3 * r + 1]), &ov, "a shape") < 0)
            goto done;
        const int32_t *offsets = (const int32_t *)ov.buf;
        Py_ssize_t n_offsets = ov.len / 4;
        if (e + runs[3 * r + 2] * (n_offsets + 1) > entries) {  /* a shape changed since it was measured */
            PyErr_SetString(PyExc_ValueError, "options: a shape changed while its options were made");
            goto done;
        }
        for (Py_ssize_t j = 0; j < runs[3 * r + 2]; j++, k++) {
            PyObject *corner = PyList_GET_ITEM(corners, k);
            Py_ssize_t base = 0;
            if (!PyTuple_Check(corner) || PyTuple_GET_SIZE(corner) != axes) {
                PyErr_SetString(PyExc_ValueError, "options: a corner must be a tuple of one int per axis");
                goto done;
            }
            for (Py_ssize_t i = 0; i < axes; i++) {
                Py_ssize_t c = PyLong_AsSsize_t(PyTuple_GET_ITEM(corner, i));
                if (c == -1 && PyErr_Occurred())
                    goto done;
                if (c < low[i] || c - low[i] > n_cells) {
                    base = -1;  /* off the board: refused below */
                    break;
                }
                base += (c - low[i]) * strides[i];
            }
            items[e++] = runs[3 * r];
            for (Py_ssize_t j2 = 0; j2 < n_offsets; j2++) {
                Py_ssize_t at = base < 0 ? -1 : base + offsets[j2];
                int32_t item = (at >= 0 && at < n_cells) ? table[at] : -1;
                if (item < 0) {
                    PyErr_Format(PyExc_ValueError, "options: placement %zd leaves the board (cell number %zd)", k, at);
                    goto done;
                }
                items[e++] = item;
            }
            starts[k + 1] = (int32_t)e;
        }
        PyBuffer_Release(&ov);
        ov.obj = NULL;
    }
    if (e != entries) {
        PyErr_SetString(PyExc_ValueError, "options: a shape changed while its options were made");
        goto done;
    }
    result = PyTuple_Pack(2, starts_obj, items_obj);
done:
    Py_XDECREF(starts_obj);
    Py_XDECREF(items_obj);
    if (ov.obj != NULL)
        PyBuffer_Release(&ov);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&tv);
    return result;
}

static PyMethodDef methods[] = {
    {"options", options, METH_VARARGS,
     "options(table, shapes, runs, corners, low, strides) -> (starts, items): the options of runs of placements "
     "of one shape, (first, table[corner's number + offset] for each offset of the shape) per placement, packed."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cover", NULL, -1, methods};

PyMODINIT_FUNC PyInit__cover(void) { return PyModule_Create(&module); }
