/* Classifying a found solution against the puzzle's symmetry tables: the C twin of the Python
 * loops in polyfit/puzzle/cover.py (Cover.classify and Cover.mirror_symmetric give the same
 * answer either way). A table says where one symmetry sends each placement.
 *
 * canonical(solution, tables, n_placements) -> int
 *   solution: a tuple of placement indices; tables: an int32 buffer, one table of n_placements
 *   entries after another. 0 when some table maps the solution to a set of placements whose
 *   sorted indices come first; else (the solution is the least of its images: it stands for its
 *   class) 1 + the number of tables that map it onto itself (the identity and those: how many
 *   symmetries fix it).
 * symmetric(solution, tables, n_placements) -> bool
 *   True when some table maps the solution onto itself, as a set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define ON_STACK 64

static void sort(int32_t *a, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {  /* a solution has a few dozen placements at most */
        int32_t x = a[i];
        Py_ssize_t j = i;
        while (j > 0 && a[j - 1] > x) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

/* The solution's indices (checked against n_placements) into key, sorted; 0, or -1 with an error. */
static int read_solution(PyObject *solution, int32_t *key, Py_ssize_t k, Py_ssize_t n_placements)
{
    for (Py_ssize_t j = 0; j < k; j++) {
        long value = PyLong_AsLong(PyTuple_GET_ITEM(solution, j));
        if (value == -1 && PyErr_Occurred())
            return -1;
        if (value < 0 || value >= n_placements) {
            PyErr_Format(PyExc_IndexError, "placement %ld is not below %zd", value, n_placements);
            return -1;
        }
        key[j] = (int32_t)value;
    }
    return 0;
}

/* Shared by both functions: mode 0 asks "canonical?", mode 1 "symmetric?". */
static PyObject *run(PyObject *args, int mode)
{
    PyObject *solution, *tables_obj;
    Py_ssize_t n_placements;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "O!On", &PyTuple_Type, &solution, &tables_obj, &n_placements))
        return NULL;
    if (n_placements <= 0) {
        PyErr_SetString(PyExc_ValueError, "n_placements must be positive");
        return NULL;
    }
    if (PyObject_GetBuffer(tables_obj, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(solution);
    int32_t stack[2 * ON_STACK], *solved = stack, *key, *image;
    if (view.len % (4 * n_placements) != 0) {
        PyErr_SetString(PyExc_ValueError, "tables: not a whole number of int32 tables of n_placements entries");
        goto done;
    }
    if (k > ON_STACK && !(solved = malloc(2 * (size_t)k * sizeof(int32_t)))) {
        PyErr_NoMemory();
        goto done;
    }
    key = solved;
    image = solved + (k > ON_STACK ? k : ON_STACK);
    if (read_solution(solution, key, k, n_placements) < 0)
        goto done;
    sort(key, k);
    const int32_t *tables = view.buf;
    Py_ssize_t n_tables = view.len / (4 * n_placements);
    int answer = mode == 0;  /* canonical until an image comes first; symmetric once one is itself */
    long fixed = 1;  /* mode 0: the identity, and each table that maps the solution onto itself */
    for (Py_ssize_t t = 0; t < n_tables && answer == (mode == 0); t++) {
        const int32_t *table = tables + t * n_placements;
        int32_t low = INT32_MAX;
        for (Py_ssize_t j = 0; j < k; j++) {
            int32_t x = table[key[j]];
            if (x < 0 || x >= n_placements) {
                PyErr_Format(PyExc_IndexError, "table %zd sends a placement to %ld", t, (long)x);
                goto done;
            }
            image[j] = x;
            if (x < low)
                low = x;
        }
        if (mode == 0) {
            if (k > 0 && low > key[0])
                continue;
            if (k > 0 && low < key[0]) {
                answer = 0;
                break;
            }
            sort(image, k);
            Py_ssize_t j = 0;
            while (j < k && image[j] == key[j])
                j++;
            if (j == k)
                fixed++;
            else if (image[j] < key[j])
                answer = 0;
        } else {
            sort(image, k);
            int same = 1;
            for (Py_ssize_t j = 0; j < k && same; j++)
                same = image[j] == key[j];
            if (same)
                answer = 1;
        }
    }
    result = mode == 0 ? PyLong_FromLong(answer ? fixed : 0) : PyBool_FromLong(answer);
done:
    if (solved != stack)
        free(solved);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *canonical(PyObject *self, PyObject *args)
{
    return run(args, 0);
}

static PyObject *symmetric(PyObject *self, PyObject *args)
{
    return run(args, 1);
}

static PyMethodDef methods[] = {
    {"canonical", canonical, METH_VARARGS, "canonical(solution, tables, n_placements) -> bool"},
    {"symmetric", symmetric, METH_VARARGS, "symmetric(solution, tables, n_placements) -> bool"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_classify", NULL, -1, methods};

PyMODINIT_FUNC PyInit__classify(void)
{
    return PyModule_Create(&module);
}
