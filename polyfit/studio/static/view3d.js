// A 3D view of pieces (three.js): orbit with the mouse, explode, cut by layer, and slide pieces (a
// disassembly played move by move). Two kinds of figure: unit cubes grouped in pieces (show), a cell
// [z, row, col] with col as x, row running towards the viewer and z up (as polyfit draws it); or
// solids the server made (showMeshes: any lattice polyfit has solids for), in the same space.
import * as THREE from "three";
import { OrbitControls } from "three/addons/OrbitControls.js";

// The least and the greatest of each of three coordinates over the points.
function bounds(points) {
  const lo = [0, 1, 2].map((k) => Math.min(...points.map((p) => p[k])));
  const hi = [0, 1, 2].map((k) => Math.max(...points.map((p) => p[k])));
  return [lo, hi];
}

export class CubeView {
  constructor(container) {
    this.container = container;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.setClearColor(0xfbfbfc);
    container.appendChild(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.1, 1000);
    this.camera.up.set(0, 0, 1);
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8f99, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(4, -6, 10);
    this.scene.add(sun);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.addEventListener("change", () => this.render());
    this.controls.addEventListener("start", () => { this.userMoved = true; });
    this.userMoved = false;
    this.radius = 1;
    this.group = new THREE.Group();
    this.scene.add(this.group);
    this.pieces = [];
    this.explode = 0;
    this.layerCut = Infinity;
    this.target = new THREE.Vector3();  // where the camera looks, from the figure's middle
    new ResizeObserver(() => this.resize()).observe(container);
  }

  resize() {
    const w = this.container.clientWidth, h = this.container.clientHeight;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.renderer.domElement.style.width = "100%";
    this.renderer.domElement.style.height = "100%";
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (!this.userMoved) this.frame();
    this.render();
  }

  // Look from the front, right and above, the whole figure in sight.
  frame() {
    const vfov = THREE.MathUtils.degToRad(this.camera.fov);
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * this.camera.aspect);
    const distance = (this.radius / Math.sin(Math.min(vfov, hfov) / 2)) * 1.08;
    this.camera.position.set(0.5, -0.85, 0.75).normalize().multiplyScalar(distance);
    this.controls.target.copy(this.target);
    this.controls.update();
  }

  clear() {
    for (const child of [...this.group.children]) {
      this.group.remove(child);
      child.traverse((o) => { o.geometry?.dispose(); o.material?.dispose?.(); });
    }
    this.pieces = [];
  }

  // A piece's group, its materials in its colour.
  node(piece) {
    const node = new THREE.Group();
    const material = new THREE.MeshStandardMaterial({ color: piece.colour, roughness: 0.55, metalness: 0.05, flatShading: true });
    const lines = new THREE.LineBasicMaterial({ color: new THREE.Color(piece.colour).multiplyScalar(0.55) });
    node.userData.name = piece.name;
    node.userData.offset = new THREE.Vector3();
    node.userData.materials = [material, lines];
    return node;
  }

  // pieces: [{name, colour: "#rrggbb", vertices: [[x, y, z], ...], faces: [[i, j, k], ...]}]: each
  // piece one solid, x right, y away from the viewer, z up, a cell's side long. Sliding them
  // (setOffsets) then takes vectors in that space, not cells.
  showMeshes(pieces, keepCamera = false) {
    this.clear();
    this.mode = "meshes";
    const all = pieces.flatMap((p) => p.vertices);
    if (!all.length) { this.render(); return; }
    const [lo, hi] = bounds(all);
    const centre = new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    for (const piece of pieces) {
      const node = this.node(piece);
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute("position", new THREE.Float32BufferAttribute(piece.vertices.flat(), 3));
      geometry.setIndex(piece.faces.flat());
      geometry.translate(-centre.x, -centre.y, -centre.z);
      geometry.computeVertexNormals();
      const [material, lines] = node.userData.materials;
      const edge = new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 25), lines);
      const mesh = new THREE.Mesh(geometry, material);
      mesh.userData.z = edge.userData.z = -Infinity;  // no layer cut: every part always shown
      node.add(mesh, edge);
      geometry.computeBoundingBox();
      node.userData.direction = geometry.boundingBox.getCenter(new THREE.Vector3());
      this.group.add(node);
      this.pieces.push(node);
    }
    this.centre = centre;
    this.target.set(0, 0, 0);
    this.baseRadius = 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    if (!keepCamera) this.userMoved = false;
    this.apply();
  }

  // pieces: [{name, colour: "#rrggbb", cells: [[z, row, col], ...]}]
  show(pieces, keepCamera = false) {
    this.clear();
    this.mode = "cells";
    const all = pieces.flatMap((p) => p.cells);
    if (!all.length) { this.render(); return; }
    const [lo, hi] = bounds(all);
    const centre = new THREE.Vector3((lo[2] + hi[2] + 1) / 2, -(lo[1] + hi[1] + 1) / 2, (lo[0] + hi[0] + 1) / 2);
    const cube = new THREE.BoxGeometry(0.94, 0.94, 0.94);
    const edges = new THREE.EdgesGeometry(cube);
    for (const piece of pieces) {
      const node = this.node(piece);
      const [material, lines] = node.userData.materials;
      const mid = new THREE.Vector3();
      for (const [z, r, c] of piece.cells) {
        const at = new THREE.Vector3(c + 0.5, -(r + 0.5), z + 0.5).sub(centre);
        const mesh = new THREE.Mesh(cube, material);
        mesh.position.copy(at);
        mesh.userData.z = z;
        const edge = new THREE.LineSegments(edges, lines);
        edge.position.copy(at);
        edge.userData.z = z;
        node.add(mesh, edge);
        mid.add(at);
      }
      mid.divideScalar(piece.cells.length);
      node.userData.direction = mid;
      this.group.add(node);
      this.pieces.push(node);
    }
    this.centre = centre;
    this.target.set(0, 0, 0);
    this.levels = [lo[0], hi[0]];
    this.baseRadius = 0.5 * Math.hypot(hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1);
    if (!keepCamera) this.userMoved = false;
    this.apply();
  }

  setExplode(fraction) { this.explode = fraction; this.apply(); }
  setLayerCut(top) { this.layerCut = top; this.apply(); }

  apply() {
    this.radius = (this.baseRadius || 1) * (1 + this.explode * 0.9);
    for (const node of this.pieces) {
      node.position.copy(node.userData.direction).multiplyScalar(this.explode * 1.2).add(node.userData.offset);
      for (const child of node.children) child.visible = child.userData.z < this.layerCut;
    }
    this.resize();
  }

  // Slide the pieces: offsets {name: [layers, rows, columns]} (cells, fractions while moving;
  // for solids, {name: [x, y, z]}) from where show() put them; the pieces named in ``faded``
  // are drawn see-through.
  setOffsets(offsets, faded = new Set()) {
    for (const node of this.pieces) {
      const by = offsets[node.userData.name] || [0, 0, 0];
      if (this.mode === "meshes") node.userData.offset.set(...by);
      else node.userData.offset.set(by[2], -by[1], by[0]);
      const opacity = faded.has(node.userData.name) ? 0.6 : 1;
      for (const m of node.userData.materials) { m.transparent = opacity < 1; m.opacity = opacity; m.depthWrite = opacity === 1; }
    }
    for (const node of this.pieces) node.position.copy(node.userData.direction).multiplyScalar(this.explode * 1.2).add(node.userData.offset);
    this.render();
  }

  // Keep the cells from lo to hi ([layer, row, column], inclusive) in sight: the camera looks
  // at their middle from far enough (unless the user has turned the view).
  frameCells(lo, hi) {
    const c = this.centre || new THREE.Vector3();
    this.target.set((lo[2] + hi[2] + 1) / 2 - c.x, -(lo[1] + hi[1] + 1) / 2 - c.y, (lo[0] + hi[0] + 1) / 2 - c.z);
    this.baseRadius = 0.5 * Math.hypot(hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1);
    this.apply();
  }

  // Keep the box from lo to hi ([x, y, z] in the solids' space) in sight, as frameCells does.
  frameBox(lo, hi) {
    const c = this.centre || new THREE.Vector3();
    this.target.set((lo[0] + hi[0]) / 2 - c.x, (lo[1] + hi[1]) / 2 - c.y, (lo[2] + hi[2]) / 2 - c.z);
    this.baseRadius = 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    this.apply();
  }

  // Each solid's box now ([lo, hi] in its space, as showMeshes was given it), for the tests.
  boxesNow() {
    const c = this.centre || new THREE.Vector3();
    const found = {};
    for (const node of this.pieces) {
      const box = new THREE.Box3().setFromObject(node.children[0]);
      found[node.userData.name] = [box.min.add(c).toArray(), box.max.add(c).toArray()];
    }
    return found;
  }

  // Where each piece's cubes are now, as cells [layer, row, column] (fractions while moving),
  // read back from the meshes in the scene.
  cellsNow() {
    const c = this.centre || new THREE.Vector3();
    const found = {};
    for (const node of this.pieces) {
      found[node.userData.name] = node.children.filter((o) => o.isMesh).map((mesh) => {
        const at = mesh.position.clone().add(node.position).add(c);
        return [at.z - 0.5, -at.y - 0.5, at.x - 0.5];
      });
    }
    return found;
  }

  render() { this.renderer.render(this.scene, this.camera); }
}
