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
 * canonical_batch(batch, option_placement, tables, n_placements) -> list
 *   For solutions as a search finds them (a list of tuples of option indices; option_placement:
 *   an int32 buffer, option index -> placement index): ``(placements, fixed)`` for each one that
 *   is canonical, in order, ``placements`` a tuple of placement indices in the search's order and
 *   ``fixed`` as canonical() gives it. The twin of canonical() on each solution mapped: it spares
 *   the many solutions that are not canonical every step through Python.
 * least(solution, tables, ranks, n_placements) -> (image, order)
 *   Of the images of a solution (a tuple of placement indices) under the tables, the one whose
 *   places (ranks: a table of n_placements places after each table, the place of each image)
 *   sorted come first, the first such table winning a tie: that image (a tuple, in the
 *   solution's order) and its places sorted (a tuple). The twin of the Python loop in
 *   polyfit/longsearch/disassembly.py (_Images.least).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Mode 0: 0 when some table maps the sorted key to a set of placements whose sorted indices
 * come first, else 1 + the tables that map it onto itself. Mode 1: 1 when some table maps it
 * onto itself, else 0. -1 with an error when a table sends a placement out of range. */
static long classify_key(const int32_t *key, int32_t *image, Py_ssize_t k, const int32_t *tables,
                         Py_ssize_t n_tables, Py_ssize_t n_placements, int mode)
{
    long fixed = 1;  /* mode 0: the identity, and each table that maps the solution onto itself */
    for (Py_ssize_t t = 0; t < n_tables; t++) {
        const int32_t *table = tables + t * n_placements;
        int32_t low = INT32_MAX;
        for (Py_ssize_t j = 0; j < k; j++) {
            int32_t x = table[key[j]];
            if (x < 0 || x >= n_placements) {
                PyErr_Format(PyExc_IndexError, "table %zd sends a placement to %ld", t, (long)x);
                return -1;
            }
            image[j] = x;
            if (x < low)
                low = x;
        }
        if (mode == 0) {
            if (k > 0 && low > key[0])
                continue;
            if (k > 0 && low < key[0])
                return 0;
            sort(image, k);
            Py_ssize_t j = 0;
            while (j < k && image[j] == key[j])
                j++;
            if (j == k)
                fixed++;
            else if (image[j] < key[j])
                return 0;
        } else {
            sort(image, k);
            int same = 1;
            for (Py_ssize_t j = 0; j < k && same; j++)
                same = image[j] == key[j];
            if (same)
                return 1;
        }
    }
    return mode == 0 ? fixed : 0;
}

/* The tables buffer checked: how many tables it holds, or -1 with an error. */
static Py_ssize_t count_tables(Py_buffer *view, Py_ssize_t n_placements)
{
    if (n_placements <= 0) {
        PyErr_SetString(PyExc_ValueError, "n_placements must be positive");
        return -1;
    }
    if (view->len % (4 * n_placements) != 0) {
        PyErr_SetString(PyExc_ValueError, "tables: not a whole number of int32 tables of n_placements entries");
        return -1;
    }
    return view->len / (4 * n_placements);
}

/* Shared by canonical() and symmetric(): mode 0 asks "canonical?", mode 1 "symmetric?". */
static PyObject *run(PyObject *args, int mode)
{
    PyObject *solution, *tables_obj;
    Py_ssize_t n_placements;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "O!On", &PyTuple_Type, &solution, &tables_obj, &n_placements))
        return NULL;
    if (PyObject_GetBuffer(tables_obj, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(solution);
    int32_t stack[2 * ON_STACK], *solved = stack, *key, *image;
    Py_ssize_t n_tables = count_tables(&view, n_placements);
    if (n_tables < 0)
        goto done;
    if (k > ON_STACK && !(solved = malloc(2 * (size_t)k * sizeof(int32_t)))) {
        PyErr_NoMemory();
        goto done;
    }
    key = solved;
    image = solved + (k > ON_STACK ? k : ON_STACK);
    if (read_solution(solution, key, k, n_placements) < 0)
        goto done;
    sort(key, k);
    long answer = classify_key(key, image, k, view.buf, n_tables, n_placements, mode);
    if (answer >= 0)
        result = mode == 0 ? PyLong_FromLong(answer) : PyBool_FromLong(answer);
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

/* Both objects' buffers, or neither (-1 with an error). */
static int two_buffers(PyObject *a, Py_buffer *va, PyObject *b, Py_buffer *vb)
{
    if (PyObject_GetBuffer(a, va, PyBUF_SIMPLE) < 0)
        return -1;
    if (PyObject_GetBuffer(b, vb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(va);
        return -1;
    }
    return 0;
}

static PyObject *canonical_batch(PyObject *self, PyObject *args)
{
    PyObject *batch, *map_obj, *tables_obj;
    Py_ssize_t n_placements;
    Py_buffer map, view;
    if (!PyArg_ParseTuple(args, "O!OOn", &PyList_Type, &batch, &map_obj, &tables_obj, &n_placements))
        return NULL;
    if (two_buffers(map_obj, &map, tables_obj, &view) < 0)
        return NULL;
    PyObject *result = NULL, *found = NULL;
    int32_t stack[3 * ON_STACK], *work = stack;
    Py_ssize_t room = ON_STACK;
    Py_ssize_t n_tables = count_tables(&view, n_placements);
    Py_ssize_t n_options = map.len / 4;
    const int32_t *placement_of = map.buf;
    if (n_tables < 0)
        goto fail;
    if (map.len % 4 != 0) {
        PyErr_SetString(PyExc_ValueError, "option_placement: not an int32 buffer");
        goto fail;
    }
    if (!(found = PyList_New(0)))
        goto fail;
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(batch); s++) {
        PyObject *options = PyList_GET_ITEM(batch, s);
        if (!PyTuple_Check(options)) {
            PyErr_SetString(PyExc_TypeError, "a solution is a tuple of option indices");
            goto fail;
        }
        Py_ssize_t k = PyTuple_GET_SIZE(options);
        if (k > room) {
            int32_t *more = malloc(3 * (size_t)k * sizeof(int32_t));
            if (!more) {
                PyErr_NoMemory();
                goto fail;
            }
            if (work != stack)
                free(work);
            work = more;
            room = k;
        }
        int32_t *placed = work, *key = work + room, *image = work + 2 * room;
        for (Py_ssize_t j = 0; j < k; j++) {
            long option = PyLong_AsLong(PyTuple_GET_ITEM(options, j));
            if (option == -1 && PyErr_Occurred())
                goto fail;
            if (option < 0 || option >= n_options) {
                PyErr_Format(PyExc_IndexError, "option %ld is not below %zd", option, n_options);
                goto fail;
            }
            int32_t placement = placement_of[option];
            if (placement < 0 || placement >= n_placements) {
                PyErr_Format(PyExc_IndexError, "placement %ld is not below %zd", (long)placement, n_placements);
                goto fail;
            }
            placed[j] = key[j] = placement;
        }
        sort(key, k);
        long fixed = classify_key(key, image, k, view.buf, n_tables, n_placements, 0);
        if (fixed < 0)
            goto fail;
        if (fixed == 0)
            continue;
        PyObject *placements = PyTuple_New(k);
        if (!placements)
            goto fail;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *number = PyLong_FromLong(placed[j]);
            if (!number) {
                Py_DECREF(placements);
                goto fail;
            }
            PyTuple_SET_ITEM(placements, j, number);
        }
        PyObject *pair = Py_BuildValue("(Nl)", placements, fixed);
        if (!pair || PyList_Append(found, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
    }
    result = found;
    found = NULL;
fail:
    Py_XDECREF(found);
    if (work != stack)
        free(work);
    PyBuffer_Release(&view);
    PyBuffer_Release(&map);
    return result;
}

static PyObject *least(PyObject *self, PyObject *args)
{
    PyObject *solution, *tables_obj, *ranks_obj;
    Py_ssize_t n_placements;
    Py_buffer view, ranks;
    if (!PyArg_ParseTuple(args, "O!OOn", &PyTuple_Type, &solution, &tables_obj, &ranks_obj, &n_placements))
        return NULL;
    if (two_buffers(tables_obj, &view, ranks_obj, &ranks) < 0)
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(solution);
    int32_t stack[3 * ON_STACK], *work = stack;
    Py_ssize_t n_tables = count_tables(&view, n_placements);
    if (n_tables < 0)
        goto done;
    if (ranks.len != view.len) {
        PyErr_SetString(PyExc_ValueError, "ranks: one table of places for each table");
        goto done;
    }
    if (n_tables == 0) {
        PyErr_SetString(PyExc_ValueError, "least: no tables");
        goto done;
    }
    if (k > ON_STACK && !(work = malloc(3 * (size_t)k * sizeof(int32_t)))) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t room = k > ON_STACK ? k : ON_STACK;
    int32_t *placed = work, *order = work + room, *best = work + 2 * room;
    if (read_solution(solution, placed, k, n_placements) < 0)
        goto done;
    const int32_t *tables = view.buf, *places = ranks.buf;
    Py_ssize_t chosen = -1;
    for (Py_ssize_t t = 0; t < n_tables; t++) {
        const int32_t *ranked = places + t * n_placements;
        for (Py_ssize_t j = 0; j < k; j++)
            order[j] = ranked[placed[j]];
        sort(order, k);
        Py_ssize_t j = 0;
        if (chosen >= 0) {
            while (j < k && order[j] == best[j])
                j++;
            if (j == k || order[j] > best[j])
                continue;
        }
        memcpy(best, order, (size_t)k * sizeof(int32_t));
        chosen = t;
    }
    const int32_t *table = tables + chosen * n_placements;
    PyObject *image = PyTuple_New(k), *sorted_places = PyTuple_New(k);
    if (!image || !sorted_places) {
        Py_XDECREF(image);
        Py_XDECREF(sorted_places);
        goto done;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        int32_t x = table[placed[j]];
        if (x < 0 || x >= n_placements) {
            PyErr_Format(PyExc_IndexError, "table %zd sends a placement to %ld", chosen, (long)x);
            Py_DECREF(image);
            Py_DECREF(sorted_places);
            goto done;
        }
        PyObject *a = PyLong_FromLong(x), *b = PyLong_FromLong(best[j]);
        if (!a || !b) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            Py_DECREF(image);
            Py_DECREF(sorted_places);
            goto done;
        }
        PyTuple_SET_ITEM(image, j, a);
        PyTuple_SET_ITEM(sorted_places, j, b);
    }
    result = PyTuple_Pack(2, image, sorted_places);
    Py_DECREF(image);
    Py_DECREF(sorted_places);
done:
    if (work != stack)
        free(work);
    PyBuffer_Release(&ranks);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef methods[] = {
    {"canonical", canonical, METH_VARARGS, "canonical(solution, tables, n_placements) -> int"},
    {"symmetric", symmetric, METH_VARARGS, "symmetric(solution, tables, n_placements) -> bool"},
    {"canonical_batch", canonical_batch, METH_VARARGS,
     "canonical_batch(batch, option_placement, tables, n_placements) -> [(placements, fixed)]"},
    {"least", least, METH_VARARGS, "least(solution, tables, ranks, n_placements) -> (image, order)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_classify", NULL, -1, methods};

PyMODINIT_FUNC PyInit__classify(void)
{
    return PyModule_Create(&module);
}
