/* Area pruning's region test in C: the twin of the Python flood fill in
 * polyfit/puzzle/placements.py (_whole_board_regions gives the same answer either way); and
 * where a shape fits on a board, the twin of placements.py's _corners.
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
 *
 * fits_many(board, must, strides, oks, shapes, runs, corners, low) -> bytearray
 *   The same test for many placements in one call, a run of placements of one shape at a
 *   time: runs is an int32 buffer of triples (shape, areas, count), count placements of
 *   shapes[shape] (the places of its cells in the board's layout, an int32 buffer) whose
 *   areas are oks[areas]; corners holds each placement's corner (a tuple of coordinates, in
 *   order), whose place (its coordinates less low, times the strides, added up) the shape's
 *   places move up by. Placement k leaves free the cells of board (bytes, as free above) less
 *   its shape's. A place outside the board's words is a ValueError.
 *   Byte k of the answer is 1 when placement k fits. Each region is grown a whole word (64
 *   places of the box) at a time by shifts along the strides: a round sweeps each axis up
 *   the words and back down, in place, so that a region runs along a line of free cells to
 *   its end in one sweep (words a stride apart have grown before they are read; within a word
 *   the shift is repeated until it gains nothing), and a region is whole after about as many
 *   rounds as its paths turn corners (it is whole as soon as the sweeps along the other axes
 *   since the last one that grew it gain nothing: a sweep leaves it closed along its axis). After as many rounds as the board has cells per word of
 *   its box (and at most 48), a region still growing (a long winding one, or any on a board
 *   that fills little of its box) is finished cell by cell, so no fill costs much more than
 *   the cell-by-cell one.
 *
 * corners(masks, places, colours, strides, limits, low) -> list
 *   The corners where a shape lies on a board, in increasing order of their places. places:
 *   the places of the shape's cells at corner 0 (an int32 buffer, in the layout of free
 *   above); colours: empty, or one int32 per place: the number of the mask its cell must lie
 *   on (masks: a tuple of bytes, the board cells each colour of the shape may cover; without
 *   colours, masks[0]). A corner fits when every cell moved up by the corner's place is on its
 *   mask, and its coordinates (its place in strides) are at most limits (the box's size less
 *   the shape's along each axis, so that no cell of the shape wraps into the next row); each
 *   is returned as the tuple of its coordinates plus low, or with as_places (a seventh
 *   argument, true) all as their places, int32 bytes.
 *
 * places(numbers, radix, strides) -> bytes
 *   The places of cells given by their numbers (a tuple of ints, each a cell's coordinates as
 *   the digits of a number in base radix, the last coordinate the lowest digit): each the sum
 *   of its coordinates times the strides, as int32 bytes (the twin of orientations.places).
 *
 * fits_graph(starts, neighbours, must, oks, covered_starts, covered, areas) -> bytearray
 *   The test of fits_many on any lattice, its board given as a graph: cells are numbered 0 to
 *   n - 1, cell k's neighbours on the board are neighbours[starts[k]:starts[k + 1]] (starts
 *   holds n + 1 int32, from 0 up to the length of neighbours, an int32 buffer of cell numbers);
 *   must: n bytes, nonzero where the cell must be filled. Placement j covers the cells
 *   covered[covered_starts[j]:covered_starts[j + 1]] (int32 buffers, as starts and neighbours)
 *   and its pieces make the areas oks[areas[j]] (areas: one int32 per placement). The board's
 *   components are found once; a component the placement does not touch must fit whole, and
 *   the regions it leaves of the others are filled from its sides, all at once, until one is
 *   left growing: that one is the rest (see fill_sides). Byte j of the answer is 1 when
 *   placement j fits. Numbers out of range are a ValueError.
 *
 * pick(table, places, bases) -> bytes
 *   For each base in turn (an int32 buffer), table[base + place] for each place (int32
 *   buffers, as table), as int32 bytes: the board numbers of a shape's cells (places) at each
 *   of its corners (bases), table holding each place's number. An index off the table is a
 *   ValueError.
 *
 * sorted_images(table, items, starts) -> bytes
 *   The groups items[starts[j]:starts[j + 1]] (int32 buffers; starts run from 0 to the
 *   number of items) each mapped through table (int32: table[item]) and sorted, one after
 *   another, as int32 bytes: placements as cell numbers, sent by a symmetry (table: where it
 *   sends each cell). An item off the table is a ValueError.
 *
 * sums(table, items, starts) -> list
 *   For each group as in sorted_images, the sum of table[item] over its items (the colour
 *   difference of each placement, table the cells' parity weights).
 *
 * images(cells, colours, transforms, radix) -> list
 *   For each transform (a pair (perm, signs): coordinate i of an image is signs[i] times
 *   coordinate perm[i] of a cell), the key of the image of the normalized cells (a tuple of
 *   tuples of ints, each coordinate at least 0 and below radix) moved back to the least
 *   coordinate 0: the pair (numbers, colours) of its cells' numbers in base radix (the
 *   coordinates as digits, the first the highest) in increasing order, and the colours
 *   (a tuple with one per cell, or empty) in their order, () when there are none. The twin of
 *   orientations.numbered_images. A cell given twice is a ValueError.
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

/* The tuple of strides into ``strides`` (1 to MAX_AXES of them, each positive): 0, or -1 with
 * an error. */
static int read_strides(PyObject *tuple, Py_ssize_t *strides, Py_ssize_t axes)
{
    if (axes < 1 || axes > MAX_AXES) {
        PyErr_Format(PyExc_ValueError, "1 to %d strides, not %zd", MAX_AXES, axes);
        return -1;
    }
    for (Py_ssize_t i = 0; i < axes; i++) {
        strides[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(tuple, i));
        if (strides[i] == -1 && PyErr_Occurred())
            return -1;
        if (strides[i] <= 0) {
            PyErr_SetString(PyExc_ValueError, "strides must be positive");
            return -1;
        }
    }
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
    if (read_strides(strides_obj, strides, axes) < 0)
        goto done;
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

/* -- fits_many: whole words at a time ---------------------------------------------------- */

#define WORD_ROUNDS 48

/* The set bits of a word: the builtin is one instruction where the compiler may use popcnt,
 * else a library call; these few shifts and adds are as quick as that call, without it. */
static inline int bits_set(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static int popcount_words(const uint64_t *w, Py_ssize_t n)
{
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        total += bits_set(w[i]);
    return (int)total;
}

/* bytes (little-endian bit order, maybe shorter than n words) into n words */
static void load_words(uint64_t *w, Py_ssize_t n, const uint8_t *bytes, Py_ssize_t length)
{
    memset(w, 0, (size_t)n * sizeof(uint64_t));
    for (Py_ssize_t i = 0; i < length && (i >> 3) < n; i++)
        w[i >> 3] |= (uint64_t)bytes[i] << (8 * (i & 7));
}

/* The places in an int32 buffer (each in 0 .. n * 64 - 1) as the bits of n words: 0, or -1 with
 * an error. */
static int load_places(uint64_t *w, Py_ssize_t n, PyObject *places)
{
    Py_buffer view;
    if (PyObject_GetBuffer(places, &view, PyBUF_SIMPLE) < 0)
        return -1;
    int status = 0;
    if (view.len % 4 != 0) {
        PyErr_SetString(PyExc_ValueError, "a shape must be an int32 buffer of places");
        status = -1;
    } else {
        memset(w, 0, (size_t)n * sizeof(uint64_t));
        const int32_t *place = view.buf;
        for (Py_ssize_t i = 0; i < view.len / 4; i++) {
            if (place[i] < 0 || place[i] >= n * 64) {
                PyErr_Format(PyExc_ValueError, "a shape's place %d is off the board's %zd places", place[i], n * 64);
                status = -1;
                break;
            }
            w[place[i] >> 6] |= (uint64_t)1 << (place[i] & 63);
        }
    }
    PyBuffer_Release(&view);
    return status;
}

/* One word of a region grown by steps of r bits (r < 64) up (towards higher bits) or down
 * until it gains nothing more, ``in`` being what the next word in that direction brings in;
 * the cells it gains are taken out of ``*left``. */
static uint64_t spread(uint64_t reg, uint64_t *left, uint64_t in, int r, int up)
{
    uint64_t added;
    while ((added = ((up ? reg << r : reg >> r) | in) & *left) != 0) {
        reg |= added;
        *left &= ~added;
        in = 0;
    }
    return reg;
}

/* Grow region (taking the cells it gains out of left) one step along the stride s both ways,
 * in place: a word moved up is read after the words below it have grown, so along a stride
 * of a word or more a region runs through every free cell in line in one sweep. Did it grow? */
static int sweep(uint64_t *region, uint64_t *left, Py_ssize_t n, Py_ssize_t s)
{
    Py_ssize_t q = s >> 6;
    int r = (int)(s & 63);
    uint64_t grew = 0;
    if (q == 0) {  /* within a word the step is taken again until nothing more is gained */
        for (Py_ssize_t i = 0; i < n; i++) {  /* up */
            uint64_t reg = spread(region[i], &left[i], i > 0 ? region[i - 1] >> (64 - r) : 0, r, 1);
            grew |= reg ^ region[i];
            region[i] = reg;
        }
        for (Py_ssize_t i = n - 1; i >= 0; i--) {  /* down */
            uint64_t reg = spread(region[i], &left[i], i + 1 < n ? region[i + 1] << (64 - r) : 0, r, 0);
            grew |= reg ^ region[i];
            region[i] = reg;
        }
        return grew != 0;
    }
    for (Py_ssize_t i = q; i < n; i++) {  /* up: the words below have grown already */
        uint64_t moved = region[i - q] << r;
        if (r && i > q)
            moved |= region[i - q - 1] >> (64 - r);
        uint64_t added = moved & left[i];
        region[i] |= added;
        left[i] &= ~added;
        grew |= added;
    }
    for (Py_ssize_t i = n - 1 - q; i >= 0; i--) {  /* down */
        uint64_t moved = region[i + q] >> r;
        if (r && i + q + 1 < n)
            moved |= region[i + q + 1] << (64 - r);
        uint64_t added = moved & left[i];
        region[i] |= added;
        left[i] &= ~added;
        grew |= added;
    }
    return grew != 0;
}

/* Every region of left (cleared on the way) has a makeable area? region and stack are scratch:
 * n words, and one index per cell of left. */
static int regions_fit(uint64_t *left, const uint64_t *must, Py_ssize_t n, const Py_ssize_t *strides,
                       Py_ssize_t axes, const uint8_t *ok, Py_ssize_t ok_length, int rounds, uint64_t *region,
                       Py_ssize_t *stack)
{
    for (Py_ssize_t w = 0; w < n; w++) {
        while (left[w]) {
            memset(region, 0, (size_t)n * sizeof(uint64_t));
            region[w] = left[w] & -left[w];
            left[w] &= left[w] - 1;
            /* A sweep leaves the region closed along its axis, so it is whole once the sweeps
             * along every other axis since the last one that grew it have gained nothing. */
            int done = 0;
            Py_ssize_t still = 0;  /* sweeps in a row that gained nothing */
            for (Py_ssize_t k = 0; k < (Py_ssize_t)rounds * axes; k++) {
                if (sweep(region, left, n, strides[k % axes]))
                    still = 0;
                else if (++still >= axes - 1 && k >= axes - 1) {
                    done = 1;
                    break;
                }
            }
            if (!done) {  /* finish cell by cell from every cell found so far */
                Py_ssize_t top = 0, total = n * 64;
                for (Py_ssize_t i = 0; i < n; i++)
                    for (uint64_t b = region[i]; b; b &= b - 1)
                        stack[top++] = i * 64 + __builtin_ctzll(b);
                while (top > 0) {
                    Py_ssize_t k = stack[--top];
                    for (Py_ssize_t i = 0; i < axes; i++) {
                        Py_ssize_t near[2] = {k - strides[i], strides[i] < total - k ? k + strides[i] : -1};
                        for (int j = 0; j < 2; j++) {
                            Py_ssize_t c = near[j];
                            if (c >= 0 && (left[c >> 6] >> (c & 63)) & 1) {
                                left[c >> 6] &= ~((uint64_t)1 << (c & 63));
                                region[c >> 6] |= (uint64_t)1 << (c & 63);
                                stack[top++] = c;
                            }
                        }
                    }
                }
            }
            Py_ssize_t area = popcount_words(region, n), needed = 0;
            for (Py_ssize_t i = 0; i < n; i++)
                needed += bits_set(region[i] & must[i]);
            if (!reaches(ok, ok_length, needed, area))
                return 0;
        }
    }
    return 1;
}

/* The place of a corner (a tuple of axes ints): its coordinates less low, times the strides,
 * added up; -1 with an error. */
static Py_ssize_t corner_place(PyObject *corner, const Py_ssize_t *low, const Py_ssize_t *strides, Py_ssize_t axes)
{
    if (!PyTuple_Check(corner) || PyTuple_GET_SIZE(corner) != axes) {
        PyErr_SetString(PyExc_ValueError, "a corner must be a tuple of one int per stride");
        return -1;
    }
    Py_ssize_t place = 0;
    for (Py_ssize_t i = 0; i < axes; i++) {
        Py_ssize_t c = PyLong_AsSsize_t(PyTuple_GET_ITEM(corner, i));
        if (c == -1 && PyErr_Occurred())
            return -1;
        if (c < low[i] || (c - low[i]) > (PY_SSIZE_T_MAX / 2 - place) / strides[i]) {
            PyErr_SetString(PyExc_ValueError, "a corner below the board's least coordinates, or far beyond it");
            return -1;
        }
        place += (c - low[i]) * strides[i];
    }
    return place;
}

/* The tuple of low coordinates into ``low`` (one per axis): 0, or -1 with an error. */
static int read_low(PyObject *tuple, Py_ssize_t *low, Py_ssize_t axes)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != axes) {
        PyErr_SetString(PyExc_ValueError, "low must be a tuple of one int per stride");
        return -1;
    }
    for (Py_ssize_t i = 0; i < axes; i++) {
        low[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(tuple, i));
        if (low[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

static PyObject *fits_many(PyObject *self, PyObject *args)
{
    Py_buffer board_view, must_view, runs_view;
    PyObject *strides_obj, *oks, *shapes, *corners, *low_obj;
    Py_ssize_t strides[MAX_AXES], low[MAX_AXES];
    if (!PyArg_ParseTuple(args, "y*y*O!O!O!y*O!O!", &board_view, &must_view, &PyTuple_Type, &strides_obj,
                          &PyTuple_Type, &oks, &PyTuple_Type, &shapes, &runs_view, &PyList_Type, &corners,
                          &PyTuple_Type, &low_obj))
        return NULL;
    PyObject *result = NULL;
    uint64_t *scratch = NULL;
    Py_ssize_t *stack = NULL;
    Py_ssize_t axes = PyTuple_GET_SIZE(strides_obj);
    Py_ssize_t count = PyList_GET_SIZE(corners), n_runs = runs_view.len / (3 * (Py_ssize_t)sizeof(int32_t));
    const int32_t *runs = runs_view.buf;
    if (read_strides(strides_obj, strides, axes) < 0 || read_low(low_obj, low, axes) < 0)
        goto done;
    if (runs_view.len % (3 * (Py_ssize_t)sizeof(int32_t)) != 0) {
        PyErr_SetString(PyExc_ValueError, "runs must be int32 triples (shape, areas, count)");
        goto done;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t r = 0; r < n_runs; r++) {
        if (runs[3 * r] < 0 || runs[3 * r] >= PyTuple_GET_SIZE(shapes) || runs[3 * r + 1] < 0 ||
            runs[3 * r + 1] >= PyTuple_GET_SIZE(oks) || runs[3 * r + 2] < 0) {
            PyErr_SetString(PyExc_ValueError, "a run's shape, areas or count is out of range");
            goto done;
        }
        total += runs[3 * r + 2];
    }
    if (total != count) {
        PyErr_SetString(PyExc_ValueError, "the runs must count one placement per corner");
        goto done;
    }
    if (board_view.len > PY_SSIZE_T_MAX / 64) {
        PyErr_SetString(PyExc_OverflowError, "board is too long");
        goto done;
    }
    Py_ssize_t n = (board_view.len + 7) / 8;
    if (n < 1)
        n = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(oks); i++)
        if (!PyBytes_Check(PyTuple_GET_ITEM(oks, i))) {
            PyErr_SetString(PyExc_TypeError, "oks must be bytes");
            goto done;
        }
    /* board, must, shape, left, region */
    scratch = malloc((size_t)n * 5 * sizeof(uint64_t));
    stack = malloc((size_t)n * 64 * sizeof(Py_ssize_t));
    result = PyByteArray_FromStringAndSize(NULL, count);
    if (scratch == NULL || stack == NULL || result == NULL) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
    uint64_t *board = scratch, *must = scratch + n, *shape = scratch + 2 * n, *left = scratch + 3 * n;
    uint64_t *region = scratch + 4 * n;
    load_words(board, n, board_view.buf, board_view.len);
    load_words(must, n, must_view.buf, must_view.len);
    Py_ssize_t per_word = popcount_words(board, n) / n;
    int rounds = per_word < WORD_ROUNDS ? (int)per_word : WORD_ROUNDS;
    char *answer = PyByteArray_AS_STRING(result);
    Py_ssize_t k = 0;  /* the placement */
    for (Py_ssize_t run = 0; run < n_runs; run++) {
      for (Py_ssize_t j = 0; j < runs[3 * run + 2]; j++, k++) {
        if (j == 0 && load_places(shape, n, PyTuple_GET_ITEM(shapes, runs[3 * run])) < 0) {
            Py_CLEAR(result);
            goto done;
        }
        Py_ssize_t shift = corner_place(PyList_GET_ITEM(corners, k), low, strides, axes);
        if (shift < 0 || shift > n * 64) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a corner off the board's words");
            Py_CLEAR(result);
            goto done;
        }
        PyObject *ok = PyTuple_GET_ITEM(oks, runs[3 * run + 1]);
        /* left = board & ~(shape << shift) */
        Py_ssize_t q = shift >> 6;
        int r = (int)(shift & 63);
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t moved = 0;
            if (i - q >= 0) {
                moved = shape[i - q] << r;
                if (r && i - q - 1 >= 0)
                    moved |= shape[i - q - 1] >> (64 - r);
            }
            left[i] = board[i] & ~moved;
        }
        answer[k] = (char)regions_fit(left, must, n, strides, axes, (const uint8_t *)PyBytes_AS_STRING(ok),
                                      PyBytes_GET_SIZE(ok), rounds, region, stack);
      }
    }
done:
    free(scratch);
    free(stack);
    PyBuffer_Release(&board_view);
    PyBuffer_Release(&must_view);
    PyBuffer_Release(&runs_view);
    return result;
}

/* -- corners: where a shape fits ----------------------------------------------------------- */

static PyObject *corners(PyObject *self, PyObject *args)
{
    PyObject *masks_obj, *strides_obj, *limits_obj, *low_obj;
    Py_buffer places_view, colours_view;
    int as_places = 0;
    if (!PyArg_ParseTuple(args, "O!y*y*O!O!O!|p", &PyTuple_Type, &masks_obj, &places_view, &colours_view,
                          &PyTuple_Type, &strides_obj, &PyTuple_Type, &limits_obj, &PyTuple_Type, &low_obj,
                          &as_places))
        return NULL;
    PyObject *result = NULL;
    uint64_t *words = NULL;
    Py_ssize_t strides[MAX_AXES], limits[MAX_AXES], low[MAX_AXES];
    Py_ssize_t axes = PyTuple_GET_SIZE(strides_obj), m = PyTuple_GET_SIZE(masks_obj);
    Py_ssize_t count = places_view.len / 4;
    const int32_t *place = places_view.buf, *colour = colours_view.buf;
    if (read_strides(strides_obj, strides, axes) < 0)
        goto done;
    if (PyTuple_GET_SIZE(limits_obj) != axes || PyTuple_GET_SIZE(low_obj) != axes) {
        PyErr_SetString(PyExc_ValueError, "corners: one limit and one low coordinate per stride");
        goto done;
    }
    for (Py_ssize_t i = 0; i < axes; i++) {
        limits[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(limits_obj, i));
        low[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(low_obj, i));
        if ((limits[i] == -1 || low[i] == -1) && PyErr_Occurred())
            goto done;
    }
    if (places_view.len % 4 != 0 || (colours_view.len != 0 && colours_view.len != places_view.len)) {
        PyErr_SetString(PyExc_ValueError, "corners: places are int32, and colours none or one int32 per place");
        goto done;
    }
    Py_ssize_t n = 1;
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *mask = PyTuple_GET_ITEM(masks_obj, k);
        if (!PyBytes_Check(mask)) {
            PyErr_SetString(PyExc_TypeError, "corners: masks must be bytes");
            goto done;
        }
        if ((PyBytes_GET_SIZE(mask) + 7) / 8 > n)
            n = (PyBytes_GET_SIZE(mask) + 7) / 8;
    }
    if (m < 1 || n > PY_SSIZE_T_MAX / 64 / (m + 1)) {
        PyErr_SetString(PyExc_ValueError, "corners: one mask or more, of a sensible size");
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (place[i] < 0 || place[i] >= n * 64 || (colours_view.len && (colour[i] < 0 || colour[i] >= m))) {
            PyErr_SetString(PyExc_ValueError, "corners: a place off the board, or a colour with no mask");
            goto done;
        }
    /* found, then each mask */
    words = malloc((size_t)n * (size_t)(m + 1) * sizeof(uint64_t));
    if (words == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t *found = words;
    for (Py_ssize_t k = 0; k < m; k++) {
        PyObject *mask = PyTuple_GET_ITEM(masks_obj, k);
        load_words(words + n * (k + 1), n, (const uint8_t *)PyBytes_AS_STRING(mask), PyBytes_GET_SIZE(mask));
    }
    /* The corners within limits to start from: a run of places along the last axis for each
     * choice of the other coordinates (an odometer over them). */
    memset(found, 0, (size_t)n * sizeof(uint64_t));
    int any = 1;
    for (Py_ssize_t i = 0; i < axes; i++)
        any &= limits[i] >= 0;
    Py_ssize_t at[MAX_AXES] = {0};
    while (any) {
        Py_ssize_t start = 0;
        for (Py_ssize_t i = 0; i + 1 < axes; i++)
            start += at[i] * strides[i];
        for (Py_ssize_t k = 0; k <= limits[axes - 1]; k++) {
            Py_ssize_t bit = start + k * strides[axes - 1];
            if (bit >= n * 64)
                break;
            found[bit >> 6] |= (uint64_t)1 << (bit & 63);
        }
        Py_ssize_t i = axes - 2;
        while (i >= 0 && at[i] == limits[i])
            at[i--] = 0;
        if (i < 0)
            break;
        at[i]++;
    }
    /* found &= mask >> p for each place p of the shape, with the mask of its colour, over the
     * words that still hold a corner (lo to hi) */
    Py_ssize_t lo = 0, hi = n - 1;
    for (Py_ssize_t c = 0; c < count && any; c++) {
        const uint64_t *mask = words + n * (1 + (colours_view.len ? colour[c] : 0));
        Py_ssize_t q = place[c] >> 6;
        int r = place[c] & 63;
        for (Py_ssize_t i = lo; i <= hi; i++) {
            uint64_t moved = 0;
            if (i + q < n) {
                moved = mask[i + q] >> r;
                if (r && i + q + 1 < n)
                    moved |= mask[i + q + 1] << (64 - r);
            }
            found[i] &= moved;
        }
        while (lo <= hi && found[lo] == 0)
            lo++;
        while (hi >= lo && found[hi] == 0)
            hi--;
        any = lo <= hi;
    }
    if (as_places) {  /* the corners' places, as int32 bytes */
        Py_ssize_t total = 0;
        for (Py_ssize_t w = 0; w < n && any; w++)
            total += bits_set(found[w]);
        result = PyBytes_FromStringAndSize(NULL, total * 4);
        if (result == NULL)
            goto done;
        int32_t *out = (int32_t *)PyBytes_AS_STRING(result);
        total = 0;
        for (Py_ssize_t w = 0; w < n && any; w++)
            for (uint64_t bits = found[w]; bits; bits &= bits - 1) {
                Py_ssize_t place = w * 64 + __builtin_ctzll(bits), rest = place;
                int inside = 1;
                for (Py_ssize_t i = 0; i < axes; i++) {
                    inside &= rest / strides[i] <= limits[i];
                    rest %= strides[i];
                }
                if (inside)
                    out[total++] = (int32_t)place;
            }
        if (_PyBytes_Resize(&result, total * 4) < 0)
            result = NULL;
        goto done;
    }
    result = PyList_New(0);
    for (Py_ssize_t w = 0; w < n && any && result != NULL; w++)
        for (uint64_t bits = found[w]; bits; bits &= bits - 1) {
            Py_ssize_t rest = w * 64 + __builtin_ctzll(bits), coordinate[MAX_AXES];
            int inside = 1;
            for (Py_ssize_t i = 0; i < axes; i++) {
                coordinate[i] = rest / strides[i];
                rest %= strides[i];
                inside &= coordinate[i] <= limits[i];
            }
            if (!inside)
                continue;
            PyObject *corner = PyTuple_New(axes);
            for (Py_ssize_t i = 0; i < axes && corner != NULL; i++) {
                PyObject *value = PyLong_FromSsize_t(coordinate[i] + low[i]);
                if (value == NULL)
                    Py_CLEAR(corner);
                else
                    PyTuple_SET_ITEM(corner, i, value);
            }
            if (corner == NULL || PyList_Append(result, corner) < 0) {
                Py_XDECREF(corner);
                Py_CLEAR(result);
                break;
            }
            Py_DECREF(corner);
        }
done:
    free(words);
    PyBuffer_Release(&places_view);
    PyBuffer_Release(&colours_view);
    return result;
}

/* -- places: cells' numbers to their places ------------------------------------------------ */

static PyObject *places(PyObject *self, PyObject *args)
{
    PyObject *numbers, *strides_obj;
    Py_ssize_t radix, strides[MAX_AXES];
    if (!PyArg_ParseTuple(args, "O!nO!", &PyTuple_Type, &numbers, &radix, &PyTuple_Type, &strides_obj))
        return NULL;
    Py_ssize_t axes = PyTuple_GET_SIZE(strides_obj), count = PyTuple_GET_SIZE(numbers);
    if (read_strides(strides_obj, strides, axes) < 0)
        return NULL;
    if (radix < 1) {
        PyErr_SetString(PyExc_ValueError, "places: the radix must be positive");
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, count * 4);
    if (result == NULL)
        return NULL;
    int32_t *place = (int32_t *)PyBytes_AS_STRING(result);
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(numbers, k)), total = 0;
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(result);
            return NULL;
        }
        if (n < 0) {
            Py_DECREF(result);
            PyErr_SetString(PyExc_ValueError, "places: a cell's number is negative");
            return NULL;
        }
        for (Py_ssize_t i = axes - 1; i >= 0; i--) {
            Py_ssize_t digit = i > 0 ? n % radix : n;
            n = i > 0 ? n / radix : 0;
            if (digit > (INT32_MAX - total) / strides[i]) {
                Py_DECREF(result);
                PyErr_SetString(PyExc_OverflowError, "places: a place beyond int32");
                return NULL;
            }
            total += digit * strides[i];
        }
        place[k] = (int32_t)total;
    }
    return result;
}

/* -- images: a piece's images under transforms, as sorted numbers --------------------------- */

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static PyObject *images(PyObject *self, PyObject *args)
{
    PyObject *cells, *colours, *transforms;
    Py_ssize_t radix;
    if (!PyArg_ParseTuple(args, "O!O!O!n", &PyTuple_Type, &cells, &PyTuple_Type, &colours, &PyTuple_Type, &transforms,
                          &radix))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(cells), dim = 0;
    if (n < 1 || !PyTuple_Check(PyTuple_GET_ITEM(cells, 0)) ||
        (dim = PyTuple_GET_SIZE(PyTuple_GET_ITEM(cells, 0))) < 1 || dim > MAX_AXES) {
        PyErr_SetString(PyExc_ValueError, "images: cells must be a non-empty tuple of tuples of 1 to 8 ints");
        return NULL;
    }
    if (PyTuple_GET_SIZE(colours) != 0 && PyTuple_GET_SIZE(colours) != n) {
        PyErr_SetString(PyExc_ValueError, "images: one colour per cell, or none");
        return NULL;
    }
    int64_t span = 1;  /* radix ** dim: every number is below it */
    for (Py_ssize_t i = 0; i < dim; i++) {
        if (radix < 1 || span > INT64_MAX / 4 / n / radix) {
            PyErr_SetString(PyExc_ValueError, "images: the radix must be positive and radix ** dim not too large");
            return NULL;
        }
        span *= radix;
    }
    PyObject *result = NULL;
    int64_t *coordinate = malloc((size_t)(n * dim) * sizeof(int64_t));
    int64_t *keys = malloc((size_t)n * sizeof(int64_t));  /* number * n + index of the cell */
    int64_t high[MAX_AXES] = {0};
    /* When the numbers span little more than the cells, they are sorted by a table of every
     * number (the cell at it, plus 1), not compared. */
    int32_t *slot = span <= 16 * (int64_t)n ? calloc((size_t)span, sizeof(int32_t)) : NULL;
    if (coordinate == NULL || keys == NULL || (span <= 16 * (int64_t)n && slot == NULL)) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *cell = PyTuple_GET_ITEM(cells, k);
        if (!PyTuple_Check(cell) || PyTuple_GET_SIZE(cell) != dim) {
            PyErr_SetString(PyExc_ValueError, "images: every cell must have the same number of coordinates");
            goto done;
        }
        for (Py_ssize_t i = 0; i < dim; i++) {
            long long c = PyLong_AsLongLong(PyTuple_GET_ITEM(cell, i));
            if (c == -1 && PyErr_Occurred())
                goto done;
            if (c < 0 || c >= radix) {
                PyErr_SetString(PyExc_ValueError, "images: a coordinate below 0 or not below the radix");
                goto done;
            }
            coordinate[k * dim + i] = c;
            if (c > high[i])
                high[i] = c;
        }
    }
    result = PyList_New(PyTuple_GET_SIZE(transforms));
    if (result == NULL)
        goto done;
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(transforms); t++) {
        PyObject *transform = PyTuple_GET_ITEM(transforms, t), *perm, *signs;
        Py_ssize_t p[MAX_AXES];
        int minus[MAX_AXES];
        if (!PyTuple_Check(transform) || PyTuple_GET_SIZE(transform) != 2 ||
            !PyTuple_Check(perm = PyTuple_GET_ITEM(transform, 0)) || !PyTuple_Check(signs = PyTuple_GET_ITEM(transform, 1)) ||
            PyTuple_GET_SIZE(perm) != dim || PyTuple_GET_SIZE(signs) != dim) {
            PyErr_SetString(PyExc_ValueError, "images: each transform is a pair (perm, signs) of one int per axis");
            goto fail;
        }
        for (Py_ssize_t i = 0; i < dim; i++) {
            p[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(perm, i));
            long sign = PyLong_AsLong(PyTuple_GET_ITEM(signs, i));
            if (PyErr_Occurred())
                goto fail;
            if (p[i] < 0 || p[i] >= dim || (sign != 1 && sign != -1)) {
                PyErr_SetString(PyExc_ValueError, "images: a perm entry off the axes, or a sign not 1 or -1");
                goto fail;
            }
            minus[i] = sign < 0;
        }
        for (Py_ssize_t i = 0; i < dim; i++)
            for (Py_ssize_t j = 0; j < i; j++)
                if (p[i] == p[j]) {
                    PyErr_SetString(PyExc_ValueError, "images: a perm that names an axis twice");
                    goto fail;
                }
        for (Py_ssize_t k = 0; k < n; k++) {
            const int64_t *x = coordinate + k * dim;
            int64_t number = 0;
            for (Py_ssize_t i = 0; i < dim; i++)
                number = number * radix + (minus[i] ? high[p[i]] - x[p[i]] : x[p[i]]);
            keys[k] = number * n + k;
        }
        if (slot != NULL) {
            for (Py_ssize_t k = 0; k < n; k++)
                slot[keys[k] / n] = (int32_t)k + 1;
            Py_ssize_t m = 0;
            for (int64_t number = 0; number < span && m < n; number++)
                if (slot[number]) {
                    keys[m++] = number * n + slot[number] - 1;
                    slot[number] = 0;
                }
            if (m != n) {  /* two cells with one number: the same cell twice */
                PyErr_SetString(PyExc_ValueError, "images: a cell given twice");
                goto fail;
            }
        } else {
            qsort(keys, (size_t)n, sizeof(int64_t), compare_int64);
            for (Py_ssize_t k = 1; k < n; k++)
                if (keys[k] / n == keys[k - 1] / n) {
                    PyErr_SetString(PyExc_ValueError, "images: a cell given twice");
                    goto fail;
                }
        }
        PyObject *numbers = PyTuple_New(n), *painted = PyTuple_New(PyTuple_GET_SIZE(colours) ? n : 0);
        PyObject *key = (numbers && painted) ? PyTuple_Pack(2, numbers, painted) : NULL;
        Py_XDECREF(numbers);
        Py_XDECREF(painted);
        if (key == NULL)
            goto fail;
        PyList_SET_ITEM(result, t, key);
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *value = PyLong_FromLongLong(keys[k] / n);
            if (value == NULL)
                goto fail;
            PyTuple_SET_ITEM(numbers, k, value);
            if (PyTuple_GET_SIZE(colours)) {
                PyObject *colour = PyTuple_GET_ITEM(colours, keys[k] % n);
                Py_INCREF(colour);
                PyTuple_SET_ITEM(painted, k, colour);
            }
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    free(coordinate);
    free(keys);
    free(slot);
    return result;
}

/* -- fits_graph: any lattice, as a graph -------------------------------------------------- */

/* The int32 entries of a buffer, its count into *count: NULL with a ValueError when its length
 * is not whole int32s. */
static const int32_t *named_int32s(const Py_buffer *view, const char *function, const char *name, Py_ssize_t *count)
{
    if (view->len % (Py_ssize_t)sizeof(int32_t) != 0) {
        PyErr_Format(PyExc_ValueError, "%s: %s must be int32s", function, name);
        return NULL;
    }
    *count = view->len / (Py_ssize_t)sizeof(int32_t);
    return view->buf;
}

static const int32_t *int32s(const Py_buffer *view, const char *name, Py_ssize_t *count)
{
    return named_int32s(view, "fits_graph", name, count);
}

/* Do starts (count entries) run from 0 up to total, never down, and every entry of items
 * (total of them) lie in 0..limit - 1? */
static int check_lists(const int32_t *starts, Py_ssize_t count, const int32_t *items, Py_ssize_t total,
                       Py_ssize_t limit, const char *name)
{
    if (count < 1 || starts[0] != 0 || starts[count - 1] != total) {
        PyErr_Format(PyExc_ValueError, "fits_graph: %s must run from 0 to the length of its list", name);
        return -1;
    }
    for (Py_ssize_t i = 1; i < count; i++)
        if (starts[i] < starts[i - 1]) {
            PyErr_Format(PyExc_ValueError, "fits_graph: %s must never go down", name);
            return -1;
        }
    for (Py_ssize_t i = 0; i < total; i++)
        if (items[i] < 0 || items[i] >= limit) {
            PyErr_Format(PyExc_ValueError, "fits_graph: a cell of %s is not a cell of the board", name);
            return -1;
        }
    return 0;
}

/* The regions a placement leaves in the components it touches, filled from its sides at once:
 * a group of cells grows from each free neighbour of the placement, one cell per group in
 * turn (each group a queue threaded through next), and groups that meet merge (union-find on
 * root); a group whose queue runs out is a whole region, checked then. When one group is left
 * growing, it is the rest of the touched components (area and needed, less the regions
 * found): so a placement that leaves one region costs the cells around it until its sides'
 * groups meet, not the whole board. */
typedef struct {
    uint32_t *seen;  /* seen[k] == stamp: cell k is covered, or in a group (owner[k]) */
    const int32_t *starts, *neighbours;
    const uint8_t *must;
    int32_t *owner, *next, *root, *head, *tail, *active;
    Py_ssize_t *area, *needed;
} Fill;

static int32_t group_of(Fill *f, int32_t g)
{
    while (f->root[g] != g) {
        f->root[g] = f->root[f->root[g]];
        g = f->root[g];
    }
    return g;
}

static void add_cell(Fill *f, int32_t g, int32_t k, uint32_t stamp)
{
    f->seen[k] = stamp;
    f->owner[k] = g;
    f->next[k] = -1;
    if (f->head[g] < 0)
        f->head[g] = k;
    else
        f->next[f->tail[g]] = k;
    f->tail[g] = k;
    f->area[g]++;
    f->needed[g] += f->must[k] != 0;
}

static int fill_sides(Fill *f, uint32_t stamp, const int32_t *covered, Py_ssize_t count, Py_ssize_t area,
                      Py_ssize_t needed, const uint8_t *ok, Py_ssize_t ok_length)
{
    int32_t groups = 0, growing = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        int32_t k = covered[i];
        for (int32_t e = f->starts[k]; e < f->starts[k + 1]; e++) {
            int32_t near = f->neighbours[e];
            if (f->seen[near] != stamp) {
                f->root[groups] = groups;
                f->head[groups] = -1;
                f->area[groups] = f->needed[groups] = 0;
                add_cell(f, groups, near, stamp);
                f->active[growing++] = groups++;
            }
        }
    }
    while (growing > 1) {
        int32_t kept = 0;
        for (int32_t a = 0; a < growing; a++) {
            int32_t g = f->active[a];
            if (f->root[g] != g)
                continue;  /* merged into another group */
            int32_t k = f->head[g];
            if (k < 0) {  /* a whole region */
                if (!reaches(ok, ok_length, f->needed[g], f->area[g]))
                    return 0;
                area -= f->area[g];
                needed -= f->needed[g];
                continue;
            }
            f->head[g] = f->next[k];
            for (int32_t e = f->starts[k]; e < f->starts[k + 1]; e++) {
                int32_t near = f->neighbours[e];
                if (f->seen[near] != stamp) {
                    add_cell(f, g, near, stamp);
                } else if (f->owner[near] >= 0) {
                    int32_t other = group_of(f, f->owner[near]);
                    if (other != g) {  /* g takes the other group in */
                        f->root[other] = g;
                        f->area[g] += f->area[other];
                        f->needed[g] += f->needed[other];
                        if (f->head[other] >= 0) {
                            if (f->head[g] < 0)
                                f->head[g] = f->head[other];
                            else
                                f->next[f->tail[g]] = f->head[other];
                            f->tail[g] = f->tail[other];
                        }
                    }
                }
            }
            f->active[kept++] = g;
        }
        growing = kept;
    }
    /* what is left: the last group's region, or nothing */
    return area == 0 || reaches(ok, ok_length, needed, area);
}

static PyObject *fits_graph(PyObject *self, PyObject *args)
{
    Py_buffer starts_view, neighbours_view, must_view, covered_starts_view, covered_view, areas_view;
    PyObject *oks, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*O!y*y*y*", &starts_view, &neighbours_view, &must_view, &PyTuple_Type, &oks,
                          &covered_starts_view, &covered_view, &areas_view))
        return NULL;
    uint32_t *seen = NULL;
    int32_t *stack = NULL;
    Py_ssize_t n = must_view.len, n_starts, n_neighbours, n_covered_starts, n_covered, n_areas;
    const uint8_t *must = must_view.buf;
    const int32_t *starts = int32s(&starts_view, "starts", &n_starts);
    const int32_t *neighbours = starts ? int32s(&neighbours_view, "neighbours", &n_neighbours) : NULL;
    const int32_t *covered_starts = neighbours ? int32s(&covered_starts_view, "covered_starts", &n_covered_starts) : NULL;
    const int32_t *covered = covered_starts ? int32s(&covered_view, "covered", &n_covered) : NULL;
    const int32_t *areas = covered ? int32s(&areas_view, "areas", &n_areas) : NULL;
    if (areas == NULL)
        goto done;
    if (n_starts != n + 1 || n > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "fits_graph: starts must hold one more entry than must has cells");
        goto done;
    }
    if (check_lists(starts, n_starts, neighbours, n_neighbours, n, "starts") < 0 ||
        check_lists(covered_starts, n_covered_starts, covered, n_covered, n, "covered_starts") < 0)
        goto done;
    Py_ssize_t m = n_covered_starts - 1;
    if (n_areas != m || m >= UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "fits_graph: areas must hold one entry per placement");
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++)
        if (areas[j] < 0 || areas[j] >= PyTuple_GET_SIZE(oks) || !PyBytes_Check(PyTuple_GET_ITEM(oks, areas[j]))) {
            PyErr_SetString(PyExc_ValueError, "fits_graph: an entry of areas is not an index of oks (bytes)");
            goto done;
        }
    size_t cells = (size_t)(n > 0 ? n : 1);
    seen = calloc(cells, sizeof *seen);
    stack = malloc(cells * sizeof *stack);
    int32_t *component = malloc(cells * sizeof *component);
    Fill fill = {0};
    fill.owner = malloc(cells * sizeof(int32_t));
    fill.next = malloc(cells * sizeof(int32_t));
    fill.root = malloc(cells * sizeof(int32_t));
    fill.head = malloc(cells * sizeof(int32_t));
    fill.tail = malloc(cells * sizeof(int32_t));
    fill.area = malloc(cells * sizeof(Py_ssize_t));
    fill.needed = malloc(cells * sizeof(Py_ssize_t));
    fill.active = malloc(cells * sizeof(int32_t));
    Py_ssize_t *component_area = malloc(cells * sizeof *component_area);
    Py_ssize_t *component_needed = malloc(cells * sizeof *component_needed);
    uint32_t *touched = calloc(cells, sizeof *touched);
    result = PyByteArray_FromStringAndSize(NULL, m);
    if (seen == NULL || stack == NULL || component == NULL || fill.owner == NULL || fill.next == NULL ||
        fill.root == NULL || fill.head == NULL || fill.tail == NULL || fill.area == NULL || fill.needed == NULL ||
        fill.active == NULL || component_area == NULL || component_needed == NULL || touched == NULL || result == NULL) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto release;
    }
    /* The board's components, once: a region a placement leaves lies in one, and the
     * components it does not touch stay whole. */
    Py_ssize_t components = 0;
    for (Py_ssize_t k = 0; k < n; k++)
        component[k] = -1;
    for (Py_ssize_t start = 0; start < n; start++) {
        if (component[start] >= 0)
            continue;
        Py_ssize_t top = 0, area = 0, needed = 0;
        component[start] = (int32_t)components;
        stack[top++] = (int32_t)start;
        while (top > 0) {
            int32_t k = stack[--top];
            area++;
            needed += must[k] != 0;
            for (int32_t i = starts[k]; i < starts[k + 1]; i++)
                if (component[neighbours[i]] < 0) {
                    component[neighbours[i]] = (int32_t)components;
                    stack[top++] = neighbours[i];  /* each cell is pushed once: at most n */
                }
        }
        component_area[components] = area;
        component_needed[components] = needed;
        components++;
    }
    fill.seen = seen;
    fill.starts = starts;
    fill.neighbours = neighbours;
    fill.must = must;
    char *answer = PyByteArray_AS_STRING(result);
    for (Py_ssize_t j = 0; j < m; j++) {
        uint32_t stamp = (uint32_t)j + 1;
        PyObject *ok = PyTuple_GET_ITEM(oks, areas[j]);
        const uint8_t *ok_bits = (const uint8_t *)PyBytes_AS_STRING(ok);
        Py_ssize_t ok_length = PyBytes_GET_SIZE(ok);
        /* the components the placement touches: what is left of them is filled from its
         * sides; each other one must be fillable whole */
        Py_ssize_t area = 0, needed = 0;
        for (Py_ssize_t i = covered_starts[j]; i < covered_starts[j + 1]; i++) {
            int32_t k = covered[i];
            seen[k] = stamp;
            fill.owner[k] = -1;
            area--;
            needed -= must[k] != 0;
            if (touched[component[k]] != stamp) {
                touched[component[k]] = stamp;
                area += component_area[component[k]];
                needed += component_needed[component[k]];
            }
        }
        int fits = 1;
        for (Py_ssize_t c = 0; c < components && fits; c++)
            if (touched[c] != stamp)
                fits = reaches(ok_bits, ok_length, component_needed[c], component_area[c]);
        if (fits)
            fits = fill_sides(&fill, stamp, covered + covered_starts[j], covered_starts[j + 1] - covered_starts[j],
                              area, needed, ok_bits, ok_length);
        answer[j] = (char)fits;
    }
release:
    free(component);
    free(fill.owner);
    free(fill.next);
    free(fill.root);
    free(fill.head);
    free(fill.tail);
    free(fill.area);
    free(fill.needed);
    free(fill.active);
    free(component_area);
    free(component_needed);
    free(touched);
done:
    free(seen);
    free(stack);
    PyBuffer_Release(&starts_view);
    PyBuffer_Release(&neighbours_view);
    PyBuffer_Release(&must_view);
    PyBuffer_Release(&covered_starts_view);
    PyBuffer_Release(&covered_view);
    PyBuffer_Release(&areas_view);
    return result;
}

/* -- pick, sorted_images, sums: a placement as the numbers of its cells --------------------- */

static PyObject *pick(PyObject *self, PyObject *args)
{
    Py_buffer table_view, places_view, bases_view;
    if (!PyArg_ParseTuple(args, "y*y*y*", &table_view, &places_view, &bases_view))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n_table, n_places, n_bases;
    const int32_t *table = named_int32s(&table_view, "pick", "table", &n_table);
    const int32_t *places = table ? named_int32s(&places_view, "pick", "places", &n_places) : NULL;
    const int32_t *bases = places ? named_int32s(&bases_view, "pick", "bases", &n_bases) : NULL;
    if (bases == NULL)
        goto done;
    int32_t low = INT32_MAX, high = INT32_MIN;
    for (Py_ssize_t j = 0; j < n_places; j++) {
        low = places[j] < low ? places[j] : low;
        high = places[j] > high ? places[j] : high;
    }
    for (Py_ssize_t i = 0; i < n_bases && n_places; i++)
        if ((int64_t)bases[i] + low < 0 || (int64_t)bases[i] + high >= n_table) {
            PyErr_SetString(PyExc_ValueError, "pick: a base plus a place is off the table");
            goto done;
        }
    if (n_places && n_bases > PY_SSIZE_T_MAX / 4 / n_places) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, n_bases * n_places * 4);
    if (result == NULL)
        goto done;
    int32_t *out = (int32_t *)PyBytes_AS_STRING(result);
    for (Py_ssize_t i = 0; i < n_bases; i++) {
        const int32_t *at = table + bases[i];
        for (Py_ssize_t j = 0; j < n_places; j++)
            *out++ = at[places[j]];
    }
done:
    PyBuffer_Release(&table_view);
    PyBuffer_Release(&places_view);
    PyBuffer_Release(&bases_view);
    return result;
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The int32 buffers (table, items, starts) of sorted_images and sums, checked: starts run from 0
 * up to the number of items, never down, and every item is an index of the table. */
static int read_groups(PyObject *args, const char *function, Py_buffer *views, const int32_t **table,
                       Py_ssize_t *n_table, const int32_t **items, const int32_t **starts, Py_ssize_t *groups)
{
    if (!PyArg_ParseTuple(args, "y*y*y*", &views[0], &views[1], &views[2]))
        return -1;
    Py_ssize_t n_items, n_starts;
    *table = named_int32s(&views[0], function, "table", n_table);
    *items = *table ? named_int32s(&views[1], function, "items", &n_items) : NULL;
    *starts = *items ? named_int32s(&views[2], function, "starts", &n_starts) : NULL;
    if (*starts == NULL)
        return -1;
    if (n_starts < 1 || (*starts)[0] != 0 || (*starts)[n_starts - 1] != n_items) {
        PyErr_Format(PyExc_ValueError, "%s: starts must run from 0 to the number of items", function);
        return -1;
    }
    for (Py_ssize_t j = 1; j < n_starts; j++)
        if ((*starts)[j] < (*starts)[j - 1]) {
            PyErr_Format(PyExc_ValueError, "%s: starts must never go down", function);
            return -1;
        }
    for (Py_ssize_t i = 0; i < n_items; i++)
        if ((*items)[i] < 0 || (*items)[i] >= *n_table) {
            PyErr_Format(PyExc_ValueError, "%s: an item is not an index of the table", function);
            return -1;
        }
    *groups = n_starts - 1;
    return 0;
}

static void release_groups(Py_buffer *views)
{
    for (int k = 0; k < 3; k++)
        if (views[k].obj != NULL)
            PyBuffer_Release(&views[k]);
}

static PyObject *sorted_images(PyObject *self, PyObject *args)
{
    Py_buffer views[3] = {{0}};
    const int32_t *table, *items, *starts;
    Py_ssize_t n_table, groups;
    PyObject *result = NULL;
    if (read_groups(args, "sorted_images", views, &table, &n_table, &items, &starts, &groups) == 0) {
        Py_ssize_t total = starts[groups];
        result = PyBytes_FromStringAndSize(NULL, total * 4);
        if (result != NULL) {
            int32_t *out = (int32_t *)PyBytes_AS_STRING(result);
            for (Py_ssize_t i = 0; i < total; i++)
                out[i] = table[items[i]];
            for (Py_ssize_t j = 0; j < groups; j++)
                qsort(out + starts[j], (size_t)(starts[j + 1] - starts[j]), sizeof *out, compare_int32);
        }
    }
    release_groups(views);
    return result;
}

static PyObject *sums(PyObject *self, PyObject *args)
{
    Py_buffer views[3] = {{0}};
    const int32_t *table, *items, *starts;
    Py_ssize_t n_table, groups;
    PyObject *result = NULL;
    if (read_groups(args, "sums", views, &table, &n_table, &items, &starts, &groups) == 0) {
        result = PyList_New(groups);
        for (Py_ssize_t j = 0; result != NULL && j < groups; j++) {
            long long total = 0;
            for (Py_ssize_t i = starts[j]; i < starts[j + 1]; i++)
                total += table[items[i]];
            PyObject *value = PyLong_FromLongLong(total);
            if (value == NULL)
                Py_CLEAR(result);
            else
                PyList_SET_ITEM(result, j, value);
        }
    }
    release_groups(views);
    return result;
}

static PyMethodDef methods[] = {
    {"fits", fits, METH_VARARGS, "fits(free, must, strides, ok) -> bool"},
    {"fits_many", fits_many, METH_VARARGS,
     "fits_many(board, must, strides, oks, shapes, runs, corners, low) -> bytearray"},
    {"corners", corners, METH_VARARGS,
     "corners(masks, places, colours, strides, limits, low[, as_places]) -> list of corners, or their places"},
    {"places", places, METH_VARARGS, "places(numbers, radix, strides) -> int32 bytes"},
    {"images", images, METH_VARARGS, "images(cells, colours, transforms, radix) -> list of (numbers, colours)"},
    {"fits_graph", fits_graph, METH_VARARGS,
     "fits_graph(starts, neighbours, must, oks, covered_starts, covered, areas) -> bytearray"},
    {"pick", pick, METH_VARARGS, "pick(table, places, bases) -> int32 bytes"},
    {"sorted_images", sorted_images, METH_VARARGS, "sorted_images(table, items, starts) -> int32 bytes"},
    {"sums", sums, METH_VARARGS, "sums(table, items, starts) -> list of ints"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_regions", NULL, -1, methods};

PyMODINIT_FUNC PyInit__regions(void)
{
    return PyModule_Create(&module);
}
