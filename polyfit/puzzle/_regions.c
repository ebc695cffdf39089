/* Area pruning's region test in C: the twin of the Python flood fill in
 * polyfit/puzzle/placements.py (_whole_board_regions gives the same answer either way).
 *
 * fits(free, must, strides, ok) -> bool
 *   free: the cells a placement leaves empty, as the bits of a little-endian byte string laid
 *   out as polyfit's BitGrid lays out a board on squares or cubes (a spare place after each row
 *   and layer, so that a step of one stride never lands on a cell of another row); must: the
 *   cells that must be filled, in the same layout (may be shorter: missing bytes are 0);
 *   strides: the step along each axis (positive; a cell's neighbours are one step either way);
 *   ok: the areas the pieces can make, as bits (bit a set when area a can be made).
 *   True when every face-connected region of free has an area the pieces can make, between its
 *   cells that must be filled and all of its cells.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_AXES 8

static int bit(const uint8_t *bits, Py_ssize_t length, Py_ssize_t k)
{
    return (k >> 3) < length && (bits[k >> 3] >> (k & 7)) & 1;
}

/* Some area in low..high among the set bits of ok? */
static int reaches(const uint8_t *ok, Py_ssize_t length, Py_ssize_t low, Py_ssize_t high)
{
    for (Py_ssize_t a = low; a <= high && (a >> 3) < length; a++)
        if (bit(ok, length, a))
            return 1;
    return 0;
}

static PyObject *fits(PyObject *self, PyObject *args)
{
    Py_buffer free_view, must_view, ok_view;
    PyObject *strides_obj;
    Py_ssize_t strides[MAX_AXES];
    if (!PyArg_ParseTuple(args, "y*y*O!y*", &free_view, &must_view, &PyTuple_Type, &strides_obj, &ok_view))
        return NULL;
    PyObject *result = NULL;
    uint8_t *left = NULL;
    Py_ssize_t *stack = NULL;
    Py_ssize_t axes = PyTuple_GET_SIZE(strides_obj);
    if (axes < 1 || axes > MAX_AXES) {
        PyErr_Format(PyExc_ValueError, "1 to %d strides, not %zd", MAX_AXES, axes);
        goto done;
    }
    for (Py_ssize_t i = 0; i < axes; i++) {
        strides[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides_obj, i));
        if (strides[i] == -1 && PyErr_Occurred())
            goto done;
        if (strides[i] <= 0) {
            PyErr_SetString(PyExc_ValueError, "strides must be positive");
            goto done;
        }
    }
    Py_ssize_t length = free_view.len;
    if (length > PY_SSIZE_T_MAX / 8) {
        PyErr_SetString(PyExc_OverflowError, "free is too long");
        goto done;
    }
    const uint8_t *must = must_view.buf, *ok = ok_view.buf;
    Py_ssize_t must_length = must_view.len, ok_length = ok_view.len;
    Py_ssize_t cells = 0;
    for (Py_ssize_t i = 0; i < length; i++)
        cells += __builtin_popcount(((const uint8_t *)free_view.buf)[i]);
    left = malloc(length > 0 ? (size_t)length : 1);
    stack = malloc((size_t)(cells > 0 ? cells : 1) * sizeof(Py_ssize_t));
    if (left == NULL || stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (length > 0)
        memcpy(left, free_view.buf, (size_t)length);
    int answer = 1;
    Py_ssize_t total = length * 8;
    for (Py_ssize_t byte = 0; byte < length && answer; byte++) {
        while (left[byte] && answer) {
            Py_ssize_t start = byte * 8 + __builtin_ctz(left[byte]);
            left[byte] &= (uint8_t)~(1u << (start & 7));
            Py_ssize_t top = 0, area = 0, needed = 0;
            stack[top++] = start;
            while (top > 0) {
                Py_ssize_t k = stack[--top];
                area++;
                needed += bit(must, must_length, k);
                for (Py_ssize_t i = 0; i < axes; i++) {
                    Py_ssize_t near[2] = {k - strides[i], strides[i] < total - k ? k + strides[i] : -1};
                    for (int j = 0; j < 2; j++) {
                        Py_ssize_t n = near[j];
                        if (n >= 0 && (left[n >> 3] >> (n & 7)) & 1) {
                            left[n >> 3] &= (uint8_t)~(1u << (n & 7));
                            stack[top++] = n;  /* each cell is pushed once: at most ``cells`` */
                        }
                    }
                }
            }
            answer = reaches(ok, ok_length, needed, area);
        }
    }
    result = PyBool_FromLong(answer);
done:
    free(left);
    free(stack);
    PyBuffer_Release(&free_view);
    PyBuffer_Release(&must_view);
    PyBuffer_Release(&ok_view);
    return result;
}

static PyMethodDef methods[] = {
    {"fits", fits, METH_VARARGS, "fits(free, must, strides, ok) -> bool"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_regions", NULL, -1, methods};

PyMODINIT_FUNC PyInit__regions(void)
{
    return PyModule_Create(&module);
}
