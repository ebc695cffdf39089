/*
 * What the C search modules share: copying the arrays Python built, the buffer of solutions
 * found in one batch, and its conversion to a Python list of tuples of option indices. Each
 * solution is stored as its length followed by its option indices.
 */
#ifndef POLYFIT_BATCH_H
#define POLYFIT_BATCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A private copy of an array('i') (32-bit ints); sets *count. NULL with an exception set. */
static inline int32_t *copy_buffer(PyObject *obj, Py_ssize_t *count)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (view.itemsize != 4 || view.format == NULL || (strcmp(view.format, "i") && strcmp(view.format, "l"))) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "expected an array('i') of 32-bit integers");
        return NULL;
    }
    *count = view.len / 4;
    int32_t *out = PyMem_RawMalloc(view.len > 0 ? (size_t)view.len : 4);
    if (out == NULL) {
        PyBuffer_Release(&view);
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(out, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return out;
}

typedef struct {
    int32_t *data;
    Py_ssize_t len, cap;
} Found;

/* Append one solution; callable without the GIL. Returns -1 when memory ran out. */
static int found_append(Found *f, const int32_t *options, int32_t count)
{
    Py_ssize_t need = f->len + count + 1;
    if (need > f->cap) {
        Py_ssize_t cap = f->cap ? f->cap * 2 : 1024;
        while (cap < need)
            cap *= 2;
        int32_t *grown = PyMem_RawRealloc(f->data, sizeof(int32_t) * (size_t)cap);
        if (grown == NULL)
            return -1;
        f->data = grown;
        f->cap = cap;
    }
    f->data[f->len++] = count;
    memcpy(f->data + f->len, options, sizeof(int32_t) * (size_t)count);
    f->len += count;
    return 0;
}

/* The solutions of the batch as a list of tuples (needs the GIL). */
static PyObject *found_to_list(const Found *f)
{
    PyObject *batch = PyList_New(0);
    if (batch == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < f->len;) {
        int32_t length = f->data[k++];
        PyObject *solution = PyTuple_New(length);
        if (solution == NULL)
            goto fail;
        for (int32_t j = 0; j < length; j++) {
            PyObject *value = PyLong_FromLong(f->data[k++]);
            if (value == NULL) {
                Py_DECREF(solution);
                goto fail;
            }
            PyTuple_SET_ITEM(solution, j, value);
        }
        int appended = PyList_Append(batch, solution);
        Py_DECREF(solution);
        if (appended < 0)
            goto fail;
    }
    return batch;
fail:
    Py_DECREF(batch);
    return NULL;
}

/* Between stretches of search without the GIL: take it, let Python run its signal handlers
 * (Ctrl-C raises KeyboardInterrupt there), and release it again. Returns -1, keeping the GIL
 * (*save = NULL), when a handler raised; the caller saves its phase and returns -1. */
static int signals_pending(PyThreadState **save)
{
    PyEval_RestoreThread(*save);
    if (PyErr_CheckSignals()) {
        *save = NULL;
        return -1;
    }
    *save = PyEval_SaveThread();
    return 0;
}

/* Recording a solution ran out of memory: take the GIL back and raise MemoryError; the caller
 * marks its search done and returns -1. */
static int out_of_memory(PyThreadState **save)
{
    PyEval_RestoreThread(*save);
    *save = NULL;
    PyErr_NoMemory();
    return -1;
}

/* The argument of next_batch(k): a positive number of solutions, on an initialised search. */
static int batch_wanted(PyObject *args, int initialised, long long *wanted)
{
    if (!PyArg_ParseTuple(args, "L", wanted))
        return -1;
    if (*wanted < 1 || !initialised) {
        PyErr_SetString(PyExc_ValueError, "next_batch needs a positive count on an initialised search");
        return -1;
    }
    return 0;
}

/* What next_batch returns: (solutions, nodes, updates, done). */
static PyObject *batch_result(const Found *f, long long nodes, long long updates, int done)
{
    PyObject *batch = found_to_list(f);
    if (batch == NULL)
        return NULL;
    return Py_BuildValue("(NLLO)", batch, nodes, updates, done ? Py_True : Py_False);
}

/* What every search module ends with: next_batch() around the module's own run(), the Search
 * type and the module itself. The module defines its object struct TYPE (with fields found,
 * nodes, updates and phase, and a DONE phase), TYPE_init, TYPE_dealloc and
 * run(TYPE *, long long wanted, PyThreadState **save), then writes
 * SEARCH_MODULE(_name, TYPE, ready-expression-on-s, members, methods, "type doc", "module doc"),
 * where members is a PyMemberDef table of read-only attributes, or NULL, and methods are more
 * PyMethodDef entries, each followed by a comma, or NO_MORE_METHODS. */
#define NO_MORE_METHODS
#define SEARCH_MODULE(MODNAME, TYPE, READY, MEMBERS, METHODS, TYPE_DOC, MODULE_DOC)               \
    static PyObject *TYPE##_next_batch(TYPE *s, PyObject *args)                                  \
    {                                                                                            \
        long long wanted;                                                                        \
        if (batch_wanted(args, (READY), &wanted) < 0)                                            \
            return NULL;                                                                         \
        s->found.len = 0;                                                                        \
        PyThreadState *save = PyEval_SaveThread();                                               \
        int status = run(s, wanted, &save);                                                      \
        if (save != NULL)                                                                        \
            PyEval_RestoreThread(save);                                                          \
        if (status < 0)                                                                          \
            return NULL;                                                                         \
        return batch_result(&s->found, s->nodes, s->updates, s->phase == DONE);                  \
    }                                                                                            \
                                                                                                 \
    static PyMethodDef TYPE##_methods[] = {                                                      \
        {"next_batch", (PyCFunction)TYPE##_next_batch, METH_VARARGS,                             \
         "next_batch(k) -> (solutions, nodes, updates, done): search on until k more solutions."}, \
        METHODS                                                                                  \
        {NULL, NULL, 0, NULL},                                                                   \
    };                                                                                           \
                                                                                                 \
    static PyTypeObject TYPE##Type = {                                                           \
        PyVarObject_HEAD_INIT(NULL, 0)                                                           \
        .tp_name = "polyfit.dlx." #MODNAME ".Search",                                            \
        .tp_basicsize = sizeof(TYPE),                                                            \
        .tp_dealloc = (destructor)TYPE##_dealloc,                                                \
        .tp_flags = Py_TPFLAGS_DEFAULT,                                                          \
        .tp_doc = TYPE_DOC,                                                                      \
        .tp_methods = TYPE##_methods,                                                            \
        .tp_members = MEMBERS,                                                                   \
        .tp_init = (initproc)TYPE##_init,                                                        \
        .tp_new = PyType_GenericNew,                                                             \
    };                                                                                           \
                                                                                                 \
    static struct PyModuleDef TYPE##_module = {                                                  \
        PyModuleDef_HEAD_INIT, #MODNAME, MODULE_DOC, -1, NULL, NULL, NULL, NULL, NULL,           \
    };                                                                                           \
                                                                                                 \
    PyMODINIT_FUNC PyInit_##MODNAME(void)                                                        \
    {                                                                                            \
        if (PyType_Ready(&TYPE##Type) < 0)                                                       \
            return NULL;                                                                         \
        PyObject *m = PyModule_Create(&TYPE##_module);                                           \
        if (m == NULL)                                                                           \
            return NULL;                                                                         \
        Py_INCREF(&TYPE##Type);                                                                  \
        if (PyModule_AddObject(m, "Search", (PyObject *)&TYPE##Type) < 0) {                      \
            Py_DECREF(&TYPE##Type);                                                              \
            Py_DECREF(m);                                                                        \
            return NULL;                                                                         \
        }                                                                                        \
        return m;                                                                                \
    }

#endif
