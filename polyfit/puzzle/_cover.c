/* The exact cover's per-placement loop in C: the twin of the Python loop in
 * polyfit/puzzle/cover.py (_CellItems), which gives the same options either way.
 *
 * options(items, shapes, runs, corners, low, strides) -> list
 *   The options of placements, a run of placements of one shape at a time: runs is an int32
 *   buffer of triples (first, shape, count): count placements of shapes[shape] (the numbers
 *   of its cells at corner 0 in the box of ``strides``, an int32 buffer) whose first item is
 *   ``first`` (the piece's); corners holds each placement's corner (a tuple of coordinates),
 *   whose number is its coordinates less ``low``, times the strides, added up. A placement's
 *   option is the tuple (first, items[base + offsets[0]], items[base + offsets[1]], ...),
 *   base its corner's number and offsets its shape's. ``items`` is a list, the item (an int)
 *   of each cell of the box by its number, and None where the box has no cell. An entry off
 *   the list, or one that is not an int, is a ValueError: a placement off the board is a bug
 *   upstream. The tuples share the list's int objects, so a big piece on a big board costs no
 *   allocation per cell.
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
        return -1;
    }
    return 0;
}

static PyObject *options(PyObject *self, PyObject *args)
{
    PyObject *items, *shapes, *corners, *low_obj, *strides_obj;
    Py_buffer rv;
    if (!PyArg_ParseTuple(args, "O!O!y*O!O!O!", &PyList_Type, &items, &PyTuple_Type, &shapes, &rv, &PyList_Type,
                          &corners, &PyTuple_Type, &low_obj, &PyTuple_Type, &strides_obj))
        return NULL;
    PyObject *result = NULL;
    Py_buffer ov = {0};
    const int32_t *runs = (const int32_t *)rv.buf;
    Py_ssize_t n_runs = rv.len / 12, axes = PyTuple_GET_SIZE(strides_obj), n_items = PyList_GET_SIZE(items);
    Py_ssize_t low[8], strides[8];
    if (rv.len % 12 != 0 || axes < 1 || axes > 8 || PyTuple_GET_SIZE(low_obj) != axes) {
        PyErr_SetString(PyExc_ValueError, "options: runs are int32 triples, and low and strides one int per axis");
        goto done;
    }
    for (Py_ssize_t i = 0; i < axes; i++) {
        low[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(low_obj, i));
        strides[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides_obj, i));
        if (PyErr_Occurred())
            goto done;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        if (runs[3 * r + 1] < 0 || runs[3 * r + 1] >= PyTuple_GET_SIZE(shapes) || runs[3 * r + 2] < 0) {
            PyErr_SetString(PyExc_ValueError, "options: a run's shape or count is out of range");
            goto done;
        }
        total += runs[3 * r + 2];
    }
    if (total != PyList_GET_SIZE(corners)) {
        PyErr_SetString(PyExc_ValueError, "options: the runs must count one placement per corner");
        goto done;
    }
    result = PyList_New(total);
    if (result == NULL)
        goto done;
    Py_ssize_t k = 0;  /* the placement */
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        if (int32_view(PyTuple_GET_ITEM(shapes, runs[3 * r + 1]), &ov, "a shape") < 0)
            goto fail;
        const int32_t *offsets = (const int32_t *)ov.buf;
        Py_ssize_t n_offsets = ov.len / 4;
        PyObject *first = PyLong_FromLong(runs[3 * r]);
        if (first == NULL)
            goto fail;
        for (Py_ssize_t j = 0; j < runs[3 * r + 2]; j++, k++) {
            PyObject *corner = PyList_GET_ITEM(corners, k);
            Py_ssize_t base = 0;
            if (!PyTuple_Check(corner) || PyTuple_GET_SIZE(corner) != axes) {
                PyErr_SetString(PyExc_ValueError, "options: a corner must be a tuple of one int per axis");
                Py_DECREF(first);
                goto fail;
            }
            for (Py_ssize_t i = 0; i < axes; i++) {
                Py_ssize_t c = PyLong_AsSsize_t(PyTuple_GET_ITEM(corner, i));
                if (c == -1 && PyErr_Occurred()) {
                    Py_DECREF(first);
                    goto fail;
                }
                if (c < low[i] || c - low[i] > n_items) {
                    base = -1;  /* off the board: refused below */
                    break;
                }
                base += (c - low[i]) * strides[i];
            }
            PyObject *option = PyTuple_New(n_offsets + 1);
            if (option == NULL) {
                Py_DECREF(first);
                goto fail;
            }
            PyList_SET_ITEM(result, k, option);
            Py_INCREF(first);
            PyTuple_SET_ITEM(option, 0, first);
            for (Py_ssize_t j2 = 0; j2 < n_offsets; j2++) {
                Py_ssize_t at = base < 0 ? -1 : base + offsets[j2];
                PyObject *item = (at >= 0 && at < n_items) ? PyList_GET_ITEM(items, at) : NULL;
                if (item == NULL || !PyLong_CheckExact(item)) {
                    PyErr_Format(PyExc_ValueError, "options: placement %zd leaves the board (cell number %zd)", k, at);
                    Py_DECREF(first);
                    goto fail;
                }
                Py_INCREF(item);
                PyTuple_SET_ITEM(option, j2 + 1, item);
            }
        }
        Py_DECREF(first);
        PyBuffer_Release(&ov);
        ov.obj = NULL;
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    if (ov.obj != NULL)
        PyBuffer_Release(&ov);
    PyBuffer_Release(&rv);
    return result;
}

static PyMethodDef methods[] = {
    {"options", options, METH_VARARGS,
     "options(items, shapes, runs, corners, low, strides) -> list: the options of runs of placements of one "
     "shape, (first, items[corner's number + offset] for each offset of the shape) per placement."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cover", NULL, -1, methods};

PyMODINIT_FUNC PyInit__cover(void) { return PyModule_Create(&module); }
