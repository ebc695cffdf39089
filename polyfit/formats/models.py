"""3D model files: one STL per piece, or a coloured assembly as GLB, 3MF or OBJ.

STL has no colours, so each piece gets its own file. GLB and OBJ come from trimesh (each
piece a named mesh with its colour on every vertex). trimesh's own 3MF writer drops colours
and needs extra packages, so 3MF is written here: the core 3MF model with one object per
piece and a ``basematerials`` group holding the piece colours.

The ``stl``, ``glb``, ``3mf`` and ``obj`` exporters (the table at the end of this module)
model the first solution of a :class:`polyfit.formats.solution_set.SolutionSet`, ``unit``
millimetres a cell with ``gap`` millimetres between pieces that touch; ``polyfit solve
--stl DIR`` writes one STL per piece instead (:func:`write_piece_stls`).
numpy, trimesh and the XML and zip writers are imported when a model is made, not when this
module is (it is loaded at every start, to register its exporters).
"""

from __future__ import annotations

import re
from pathlib import Path

from polyfit.lattices.base import of as lattice_of
from polyfit.errors import PolyfitError
from polyfit.files import path_exists, path_is_dir, write_output
from polyfit.formats.export import register_table
from polyfit.hookspecs import hookimpl

UNIT = 15.0  # mm: a cell's edge
GAP = 0.2  # mm between pieces that touch


def file_stem(name: str) -> str:
    """A piece name as a file name: primes and other marks become words or underscores."""
    name = name.replace("'", "-mirror")
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


# -- one STL per piece ----------------------------------------------------------------------


def stl_paths(directory: Path, names) -> dict[str, Path]:
    """Where each piece's STL goes; checks the directory exists and is writable."""
    directory = Path(directory)
    if not path_exists(directory, "write"):
        raise PolyfitError(f"output directory {directory} does not exist")
    if not path_is_dir(directory, "write"):
        raise PolyfitError(f"{directory} is not a directory")
    paths = {name: directory / f"{file_stem(name)}.stl" for name in names}
    if len(set(paths.values())) != len(paths):
        raise PolyfitError("two pieces would share one STL file name")
    return paths


def check_stl_directory(directory: Path, names, force: bool) -> dict[str, Path]:
    """The STL paths, refusing to replace files already there unless forced."""
    paths = stl_paths(directory, names)
    existing = [p.name for p in paths.values() if path_exists(p, "write")]
    if existing and not force:
        shown = ", ".join(existing[:5]) + (", ..." if len(existing) > 5 else "")
        raise PolyfitError(
            f"{directory} already has {len(existing)} of these STL files ({shown}); "
            "use --force to overwrite them"
        )
    for path in paths.values():
        if path_is_dir(path, "write"):
            raise PolyfitError(f"{path} is a directory")
    return paths


def write_stls(meshes: dict, paths: dict, force: bool = False) -> None:
    """One STL per mesh; a file already there (even one that appeared after
    :func:`check_stl_directory` looked) is replaced only with ``force``."""
    for name, mesh in meshes.items():
        write_output(paths[name], mesh.export(file_type="stl"), force)


# -- coloured assemblies --------------------------------------------------------------------


def coloured_scene(meshes: dict, colours: dict):
    import numpy as np
    import trimesh

    scene = trimesh.Scene()
    for name, mesh in meshes.items():
        mesh = mesh.copy()
        mesh.visual.vertex_colors = np.array(list(colours[name]) + [255], dtype=np.uint8)
        scene.add_geometry(mesh, node_name=f"piece {name}", geom_name=f"piece {name}")
    return scene


def glb_bytes(meshes: dict, colours: dict) -> bytes:
    return coloured_scene(meshes, colours).export(file_type="glb")


def obj_bytes(meshes: dict, colours: dict) -> bytes:
    """Wavefront OBJ, one object per piece, colours as the common ``v x y z r g b`` extension."""
    text = coloured_scene(meshes, colours).export(file_type="obj")
    return text.encode("utf-8") if isinstance(text, str) else text


CORE_NS = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
    "</Types>\n"
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Target="/3D/3dmodel.model" Id="rel0" '
    'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>'
    "</Relationships>\n"
)


# XML 1.0 has no way to write these, not even escaped: tabs, newlines and returns are the only
# control characters it allows, and lone surrogates and U+FFFE, U+FFFF are not characters.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_name(name: str) -> str:
    """A piece name as XML 1.0 can hold it: each character it cannot becomes ``\\xNN`` or
    ``\\uNNNN``, so the name stays readable and two names stay apart."""
    return NOT_XML.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), name)


def threemf_model(meshes: dict, colours: dict) -> bytes:
    """The 3D/3dmodel.model part: a base material (colour) per piece, an object per piece."""
    from xml.etree import ElementTree as ET

    model = ET.Element("model", {"unit": "millimeter", "xml:lang": "en-US", "xmlns": CORE_NS})
    resources = ET.SubElement(model, "resources")
    materials = ET.SubElement(resources, "basematerials", {"id": "1"})
    names = list(meshes)
    for name in names:
        r, g, b = colours[name]
        ET.SubElement(materials, "base", {"name": xml_name(name), "displaycolor": f"#{r:02X}{g:02X}{b:02X}FF"})
    build = ET.Element("build")
    for index, name in enumerate(names):
        object_id = str(index + 2)
        obj = ET.SubElement(resources, "object", {
            "id": object_id, "name": f"piece {xml_name(name)}", "type": "model", "pid": "1", "pindex": str(index)
        })
        mesh = ET.SubElement(obj, "mesh")
        vertices = ET.SubElement(mesh, "vertices")
        for x, y, z in meshes[name].vertices:
            ET.SubElement(vertices, "vertex", {"x": f"{x:.4f}", "y": f"{y:.4f}", "z": f"{z:.4f}"})
        triangles = ET.SubElement(mesh, "triangles")
        for a, b, c in meshes[name].faces:
            ET.SubElement(triangles, "triangle", {"v1": str(a), "v2": str(b), "v3": str(c)})
        ET.SubElement(build, "item", {"objectid": object_id})
    model.append(build)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(model, encoding="utf-8")


def threemf_bytes(meshes: dict, colours: dict) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        # A fixed timestamp keeps the archive identical from one run to the next.
        for name, data in (("[Content_Types].xml", CONTENT_TYPES.encode()),
                           ("_rels/.rels", RELS.encode()),
                           ("3D/3dmodel.model", threemf_model(meshes, colours))):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


WRITERS = {"glb": glb_bytes, "3mf": threemf_bytes, "obj": obj_bytes}


def write_model(kind: str, meshes: dict, colours: dict, path: Path, force: bool = False) -> None:
    """A coloured assembly; an existing file is replaced only with ``force``."""
    write_output(path, WRITERS[kind](meshes, colours), force)


def solution_meshes(solutions, number: int = 0, sizes=None) -> dict:
    """The meshes of one solution of a SolutionSet, ``{piece name: trimesh}``, each piece in its
    place, on any lattice with solids (cubes; squares as tiles; prisms, sub-cells and spheres:
    :mod:`polyfit.render.solids`)."""
    from polyfit.render.meshes import Sizes, assembly

    if not solutions.solutions:
        raise PolyfitError("no solution to make a model of")
    from polyfit.render.solids import only_solids

    only_solids(solutions.pieces, "a 3D model of a solution")
    sizes = sizes or Sizes()
    lattice = lattice_of(solutions.pieces[0])
    if lattice.dim == 3 and lattice.name != "cubic":  # prisms, sub-cells, spheres
        from polyfit.render.solids import placed_solids

        return placed_solids(solutions.solutions[number], solutions.board_cells, lattice, sizes)
    return assembly(solutions.solutions[number], solutions.board_cells, sizes)


def write_piece_stls(solutions, directory: Path, unit: float = UNIT, gap: float = GAP, force: bool = False) -> str:
    """One STL per piece of the first solution, each in its place, into an existing folder;
    files already there are replaced only with ``force``. One line saying what was written."""
    from polyfit.errors import plural

    meshes = solution_meshes(solutions, 0, model_sizes(unit, gap))
    paths = stl_paths(directory, meshes)  # checked before the search; each file again as it is written
    write_stls(meshes, paths, force)
    return f"wrote {plural(len(paths), 'STL file')} to {directory}"


# -- exporters ------------------------------------------------------------------------------


def model_sizes(unit: float, gap: float):
    from polyfit.render.meshes import Sizes

    return Sizes(unit=unit, gap=gap)


def check_model(solutions, unit: float = UNIT, gap: float = GAP) -> None:
    from polyfit.render.solids import only_solids

    only_solids(solutions.pieces, "a 3D model of a solution")
    model_sizes(unit, gap)


def model_exporter(kind):
    def export(solutions, path: Path, *, unit: float = UNIT, gap: float = GAP) -> None:
        from polyfit.render.palette import solution_colours

        meshes = solution_meshes(solutions, 0, model_sizes(unit, gap))
        write_model(kind, meshes, solution_colours(solutions.pieces, solutions.solutions[:1]), path)

    export.check = check_model
    return export


def export_stl(solutions, path: Path, *, unit: float = UNIT, gap: float = GAP) -> None:
    import trimesh

    meshes = solution_meshes(solutions, 0, model_sizes(unit, gap))
    merged = trimesh.util.concatenate(list(meshes.values()))
    write_output(path, merged.export(file_type="stl"))


export_stl.check = check_model

EXPORTERS = {
    "stl": ((".stl",), export_stl, "the first solution's pieces in place, as one STL (no colours)"),
    "glb": ((".glb",), model_exporter("glb"), "the first solution as a coloured glTF assembly"),
    "3mf": ((".3mf",), model_exporter("3mf"), "the first solution as a coloured 3MF assembly"),
    "obj": ((".obj",), model_exporter("obj"), "the first solution as OBJ with vertex colours"),
}


@hookimpl
def register_exporters(register):
    register_table(register, EXPORTERS)
