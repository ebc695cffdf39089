/* The triangle, hex and prism lattices' transforms in C: the twin of
 * polyfit/lattices/triads.py's affine_images.
 *
 * affine_images(maps, cells, layers, normal) -> tuple
 *   The images of cells (r, c), or (z, r, c) when layers is 1 or -1 (their layer goes to
 *   layers * z), under a transform of the triangle or hex lattice given as two affine maps
 *   (a, b, ar, br, ak, bk), one for the cells with r + c even and one for the odd: with
 *   k = (c - r - parity) / 2, the image of (r, c) is (a + r*ar + k*ak, b + r*br + k*bk). In the
 *   order of cells, or with normal (true) moved to normal position (the least layer and row 0,
 *   the least column 0 or 1 so that the move is a translation of the lattice) and sorted. The
 *   twin of polyfit/lattices/triads.py's affine_images. Coordinates beyond 2**30 are a
 *   ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define AFFINE_LIMIT ((int64_t)1 << 30)

typedef struct {
    int64_t v[3];
} Triple;

static int compare_triples(const void *a, const void *b)
{
    const int64_t *x = ((const Triple *)a)->v, *y = ((const Triple *)b)->v;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i])
            return (x[i] > y[i]) - (x[i] < y[i]);
    return 0;
}

static int read_affine_map(PyObject *map, int64_t *into)
{
    if (!PyTuple_Check(map) || PyTuple_GET_SIZE(map) != 6) {
        PyErr_SetString(PyExc_ValueError, "affine_images: maps must be two tuples of 6 ints");
        return -1;
    }
    for (Py_ssize_t i = 0; i < 6; i++) {
        long long x = PyLong_AsLongLong(PyTuple_GET_ITEM(map, i));
        if (x == -1 && PyErr_Occurred())
            return -1;
        if (x <= -AFFINE_LIMIT || x >= AFFINE_LIMIT) {
            PyErr_SetString(PyExc_ValueError, "affine_images: a map's entry beyond 2**30");
            return -1;
        }
        into[i] = x;
    }
    return 0;
}

static PyObject *affine_images(PyObject *self, PyObject *args)
{
    PyObject *maps, *cells;
    int layers, normal;
    if (!PyArg_ParseTuple(args, "O!Oip", &PyTuple_Type, &maps, &cells, &layers, &normal))
        return NULL;
    int64_t m[2][6];
    if (PyTuple_GET_SIZE(maps) != 2) {
        PyErr_SetString(PyExc_ValueError, "affine_images: maps must be two tuples of 6 ints");
        return NULL;
    }
    if (read_affine_map(PyTuple_GET_ITEM(maps, 0), m[0]) < 0 || read_affine_map(PyTuple_GET_ITEM(maps, 1), m[1]) < 0)
        return NULL;
    if (layers < -1 || layers > 1) {
        PyErr_SetString(PyExc_ValueError, "affine_images: layers must be -1, 0 or 1");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(cells, "affine_images: cells must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), dim = layers ? 3 : 2;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *result = NULL;
    Triple *found = malloc((size_t)(n > 0 ? n : 1) * sizeof *found);
    if (found == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t low[3] = {0, 0, 0};
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *cell = items[k];
        if (!PyTuple_Check(cell) || PyTuple_GET_SIZE(cell) != dim) {
            PyErr_Format(PyExc_ValueError, "affine_images: every cell must be a tuple of %zd ints", dim);
            goto done;
        }
        int64_t x[3] = {0, 0, 0};
        for (Py_ssize_t i = 0; i < dim; i++) {
            long long value = PyLong_AsLongLong(PyTuple_GET_ITEM(cell, i));
            if (value == -1 && PyErr_Occurred())
                goto done;
            if (value <= -AFFINE_LIMIT || value >= AFFINE_LIMIT) {
                PyErr_SetString(PyExc_ValueError, "affine_images: a coordinate beyond 2**30");
                goto done;
            }
            x[i + 3 - dim] = value;
        }
        int64_t r = x[1], c = x[2], odd = (r + c) & 1;
        int64_t q = (c - odd - r) >> 1;  /* an exact half: c - odd - r is even */
        const int64_t *a = m[odd];
        int64_t *y = found[k].v;
        y[0] = layers * x[0];
        y[1] = a[0] + r * a[2] + q * a[4];
        y[2] = a[1] + r * a[3] + q * a[5];
        for (int i = 0; i < 3; i++)
            if (k == 0 || y[i] < low[i])
                low[i] = y[i];
    }
    if (normal && n > 0) {
        int64_t dr = -low[1], dc = -low[2];
        if ((dr + dc) & 1)
            dc++;
        for (Py_ssize_t k = 0; k < n; k++) {
            found[k].v[0] -= low[0];
            found[k].v[1] += dr;
            found[k].v[2] += dc;
        }
        qsort(found, (size_t)n, sizeof *found, compare_triples);
    }
    result = PyTuple_New(n);
    if (result == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *image = PyTuple_New(dim);
        if (image == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, k, image);
        for (Py_ssize_t i = 0; i < dim; i++) {
            PyObject *value = PyLong_FromLongLong(found[k].v[i + 3 - dim]);
            if (value == NULL) {
                Py_CLEAR(result);
                goto done;
            }
            PyTuple_SET_ITEM(image, i, value);
        }
    }
done:
    free(found);
    Py_DECREF(seq);
    return result;
}

static PyMethodDef methods[] = {
    {"affine_images", affine_images, METH_VARARGS, "affine_images(maps, cells, layers, normal) -> tuple of cells"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_affine", NULL, -1, methods};

PyMODINIT_FUNC PyInit__affine(void)
{
    return PyModule_Create(&module);
}
