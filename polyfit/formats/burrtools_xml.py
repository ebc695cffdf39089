"""The XML of BurrTools' ``.xmpuzzle`` files, read safely: gzip inflated with ``zlib`` up to
polyfit's ``file-bytes`` limit, the encoding BurrTools meant (latin-1 when a file is not UTF-8
and names none), expat refusing any ``<!DOCTYPE`` (so no entity can expand), and every problem
a :class:`~polyfit.errors.ParseError` at its line and column (of the inflated XML). The tree is
plain :class:`Node` objects; :func:`int_attribute` reads a number from one.
"""

from __future__ import annotations

import re
import zlib
from xml.parsers import expat

from polyfit.errors import ParseError
from polyfit.limits import check, limit, number_problem
from polyfit.records import Record


class Node(Record):
    __slots__ = ("tag", "attrs", "line", "column", "children", "parts")

    def __init__(self, tag: str, attrs: dict, line: int, column: int):
        self.tag, self.attrs, self.line, self.column = tag, attrs, line, column
        self.children: list[Node] = []
        self.parts: list[str] = []  # the text inside, in pieces

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def find(self, tag):
        return [c for c in self.children if c.tag == tag]


def _decompress(data: bytes, path) -> bytes:
    """The XML of a gzip file, refusing more than the ``file-bytes`` limit of output."""
    most = limit("file-bytes")
    out = bytearray()
    rest = data
    while rest:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            chunk = inflater.decompress(rest, most + 1 - len(out))
            while inflater.unconsumed_tail and len(out) + len(chunk) <= most:
                chunk += inflater.decompress(inflater.unconsumed_tail, most + 1 - len(out) - len(chunk))
        except zlib.error as exc:
            raise ParseError(path, 1, 1, f"bad gzip data ({exc})") from None
        out += chunk
        if len(out) > most:
            check("file-bytes", len(out), f"{path} (decompressed)")
        if not inflater.eof:
            raise ParseError(path, 1, 1, "the gzip data is truncated (the file ends before its end)")
        rest = inflater.unused_data
        if rest and not rest.startswith(b"\x1f\x8b"):
            break  # trailing garbage after the member, as gzip itself tolerates
    return bytes(out)


# (compiled by re on first use: an ASCII file, most files, never asks)
_DECLARED_ENCODING = rb"\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*\bencoding\s*="


def _encoding(data: bytes) -> str | None:
    """BurrTools writes its strings' bytes as they are, under a declaration that names no
    encoding: on a Western machine a name with an umlaut is latin-1, which is not UTF-8. Such
    a file is read as latin-1 (every byte a character), as BurrTools reads it; a file that
    names its encoding, or is UTF-8, is read as it says."""
    if data.isascii() or re.match(_DECLARED_ENCODING, data):
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "ISO-8859-1"
    return None


def xml_tree(data: bytes, path) -> Node:
    """The root element of a file's bytes (gzip or plain XML), with its elements below it."""
    if data[:2] == b"\x1f\x8b":
        data = _decompress(data, path)
    parser = expat.ParserCreate(_encoding(data))
    stack: list[Node] = []
    root: list[Node] = []

    def where():
        return parser.CurrentLineNumber, parser.CurrentColumnNumber + 1

    def refuse(*_):
        line, column = where()
        raise ParseError(path, line, column, "a DOCTYPE or entity declaration: .xmpuzzle files have none, and polyfit does not expand them")

    def start(tag, attrs):
        line, column = where()
        node = Node(tag, attrs, line, column)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)
        if len(stack) > 64:
            raise ParseError(path, line, column, "the XML is nested too deeply")

    def end(tag):
        stack.pop()

    def text(chars):
        if stack:
            stack[-1].parts.append(chars)

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        message = expat.ErrorString(exc.code)
        raise ParseError(path, exc.lineno, exc.offset + 1, f"not well-formed XML: {message}") from None
    except RecursionError:
        raise ParseError(path, 1, 1, "the XML is nested too deeply") from None
    return root[0]


def int_attribute(node: Node, key: str, path, low=0, high=None, default=None) -> int:
    """The whole number of attribute ``key`` (from ``low`` to ``high``; ``default`` when it is
    missing, an error when there is no default)."""
    text = node.attrs.get(key)
    if text is None:
        if default is not None:
            return default
        raise ParseError(path, node.line, node.column, f"<{node.tag}> needs a '{key}' attribute")
    problem = number_problem(text, low, high)
    if problem is not None:
        raise ParseError(path, node.line, node.column, f"<{node.tag}> {key}={text[:40]!r}: {problem}")
    return int(text)
