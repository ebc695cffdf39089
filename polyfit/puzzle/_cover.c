/* The exact cover's per-placement loop in C: the twin of the Python loop in
 * polyfit/puzzle/cover.py (_CellItems), which gives the same options either way.
 *
 * options(first, items, offsets, bases) -> list
 *   The options of the placements of one orientation of a piece: one per base, the tuple
 *   (first, items[base + offsets[0]], items[base + offsets[1]], ...). ``first`` is the piece's
 *   item; ``items`` a list, the item (an int) of each cell of a box by its number, and None where
 *   the box has no cell; ``offsets`` the numbers of the shape's cells at corner 0 and ``bases``
 *   the numbers of the placements' corners, both int32 buffers. An entry off the list, or one
 *   that is not an int, is a ValueError: a placement off the board is a bug upstream.
 *   The tuples share the list's int objects, so a big piece on a big board costs no allocation
 *   per cell.
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
    PyObject *first, *items, *offsets_obj, *bases_obj;
    if (!PyArg_ParseTuple(args, "OO!OO", &first, &PyList_Type, &items, &offsets_obj, &bases_obj))
        return NULL;
    Py_buffer ov, bv;
    if (int32_view(offsets_obj, &ov, "offsets") < 0)
        return NULL;
    if (int32_view(bases_obj, &bv, "bases") < 0) {
        PyBuffer_Release(&ov);
        return NULL;
    }
    const int32_t *offsets = (const int32_t *)ov.buf, *bases = (const int32_t *)bv.buf;
    Py_ssize_t n_offsets = ov.len / 4, n_bases = bv.len / 4, n_items = PyList_GET_SIZE(items);
    PyObject *result = PyList_New(n_bases);
    if (result == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < n_bases; k++) {
        PyObject *option = PyTuple_New(n_offsets + 1);
        if (option == NULL)
            goto fail;
        PyList_SET_ITEM(result, k, option);
        Py_INCREF(first);
        PyTuple_SET_ITEM(option, 0, first);
        for (Py_ssize_t j = 0; j < n_offsets; j++) {
            Py_ssize_t at = (Py_ssize_t)bases[k] + offsets[j];
            PyObject *item = (at >= 0 && at < n_items) ? PyList_GET_ITEM(items, at) : NULL;
            if (item == NULL || !PyLong_CheckExact(item)) {
                PyErr_Format(PyExc_ValueError, "options: placement %zd leaves the board (cell number %zd)", k, at);
                goto fail;
            }
            Py_INCREF(item);
            PyTuple_SET_ITEM(option, j + 1, item);
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    PyBuffer_Release(&ov);
    PyBuffer_Release(&bv);
    return result;
}

static PyMethodDef methods[] = {
    {"options", options, METH_VARARGS,
     "options(first, items, offsets, bases) -> list: the options of the placements of one "
     "orientation, (first, items[base + offset] for each offset) per base."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cover", NULL, -1, methods};

PyMODINIT_FUNC PyInit__cover(void) { return PyModule_Create(&module); }
