"""A one-file polyfit plugin: load it with ``polyfit --plugins-dir plugins/examples ...``.

It adds the piece set ``tees``: the T tetromino and the T pentomino.
"""

from polyfit import hookimpl, parse_pieces_text

__version__ = "0.1.0"

TEES = """\
aaa.bbb
.a...b.
.....b.
"""


@hookimpl
def register_piece_sets(register):
    register("tees", lambda: parse_pieces_text(TEES, "tees"), "the T tetromino (a) and the T pentomino (b)")
