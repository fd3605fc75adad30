# blender_weights.py - Blender's own "With Automatic Weights" (ARMATURE_AUTO) against
# lab30-weights's Blender model of it (src/weights/heat.h, HEAT_BLENDER). scripts/blender-check.sh
# runs it; make test does not (Blender is a 200 MB install).
#
#   blender --background --factory-startup --python scripts/blender_weights.py -- \
#       CYLINDER.gltf OUTDIR/weights30.json OUTDIR/weights30.csv OUTDIR/weights30-assets.csv \
#       RiggedSimple.gltf RiggedFigure.gltf
#
# The cylinder (lab30's export; both rigs share its mesh): the imported armature is replaced
# by one whose bones are exactly the lab's (weights30.json, "rigs"), so that only the heat
# differs; Blender's weight of every vertex for both joints is compared with the lab's
# (weights30.csv: blender_root_weight, blender_child_weight). A difference over 1e-4 fails.
#
# Each asset (RiggedSimple; RiggedFigure, whose joints own several bones): twice. With the
# lab's bones (weights30.json, "assets"), each a Blender bone of its own, so that only the
# heat differs: Blender cuts each bone's weights, and a joint's are the sum of its bones'
# groups; a difference from the lab's weights after Blender's cut (weights30-assets.csv:
# blender_cut_weight) over 1e-4 fails. With the bones Blender's glTF importer makes (their
# tails are the importer's choice, not the lab's): reported only.
import csv
import json
import sys

import bpy
import numpy as np
from mathutils import Matrix

# Debian's numpy 1.24 dropped np.bool, which Blender 3.4's glTF importer still uses.
if "bool" not in np.__dict__:
    np.bool = np.bool_

BUDGET = 1e-4
RINGS, SEGMENTS, HEIGHT = 9, 24, 2.0
# Vertices where Blender's single-precision ray cast and the lab's double one disagree on a
# bone's visibility (lab/ch30/lab30-weights/README.md, "Blender's bone heat is not the
# paper's"): RiggedFigure's quad 15-16-17-303, a component of its own at the neck, whose
# vertex 17 lies in the plane of the head's bottom face with its nearest bone 0.001 above
# it. Reported, and left out of the check; any other vertex over BUDGET fails.
EXPLAINED = {"RiggedFigure": {15, 16, 17, 303}}


def import_mesh(path):
    """The file's mesh object, unparented at the identity, its groups and modifiers gone,
    and the importer's armature object (or None when removed)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    mesh = next(o for o in bpy.data.objects if o.type == 'MESH')
    arma = next(o for o in bpy.data.objects if o.type == 'ARMATURE')
    world = mesh.matrix_world.copy()
    mesh.parent = None
    mesh.matrix_world = world
    mesh.vertex_groups.clear()
    for m in list(mesh.modifiers):
        mesh.modifiers.remove(m)
    return mesh, arma


def own_armature(mesh, bones, frame):
    """A new armature with the bones [(name, head, tail)], given in `frame` coordinates."""
    data = bpy.data.armatures.new("lab")
    arma = bpy.data.objects.new("lab", data)
    bpy.context.scene.collection.objects.link(arma)
    arma.matrix_world = frame
    bpy.context.view_layer.objects.active = arma
    bpy.ops.object.mode_set(mode='EDIT')
    for name, head, tail in bones:
        b = data.edit_bones.new(name)
        b.head, b.tail = head, tail
    bpy.ops.object.mode_set(mode='OBJECT')
    return arma


def automatic_weights(mesh, arma):
    """ARMATURE_AUTO; then every vertex's {group name: weight} (Blender drops weights it cut)."""
    bpy.ops.object.select_all(action='DESELECT')
    mesh.select_set(True)
    arma.select_set(True)
    bpy.context.view_layer.objects.active = arma
    bpy.ops.object.parent_set(type='ARMATURE_AUTO')
    names = {g.index: g.name for g in mesh.vertex_groups}
    return [{names[g.group]: g.weight for g in v.groups} for v in mesh.data.vertices]


def cylinder(path, rigs, rows):
    ok = True
    for rig in rigs:
        mesh, arma = import_mesh(path)
        bpy.data.objects.remove(arma)
        bones = [("joint%d" % b["joint"], b["from"], b["to"]) for b in rig["bones"]]
        arma = own_armature(mesh, bones, Matrix.Identity(4))
        got = automatic_weights(mesh, arma)
        lab = {int(r["vertex"]): r for r in rows if r["rig"] == rig["rig"]}
        worst, total, by_ring = 0.0, 0.0, [0.0] * RINGS
        for v, w in zip(mesh.data.vertices, got):
            p = mesh.matrix_world @ v.co  # the chapter's frame: z up, rings at z = 2 r / 8
            ring = round(p.z / (HEIGHT / (RINGS - 1)))
            segment = round(np.arctan2(p.y, p.x) / (2 * np.pi / SEGMENTS)) % SEGMENTS
            row = lab[ring * SEGMENTS + segment]
            for j, key in enumerate(("blender_root_weight", "blender_child_weight")):
                diff = abs(w.get("joint%d" % j, 0.0) - float(row[key]))
                worst, total = max(worst, diff), total + diff
            by_ring[ring] = w.get("joint1", 0.0)
        print("  %s rig: Blender's child weight by ring %s" % (rig["rig"], " ".join("%.4f" % x for x in by_ring)))
        print("  %s rig, %d vertices x 2 joints: largest difference from the lab's Blender model %.3e, mean %.3e"
              % (rig["rig"], len(got), worst, total / (2 * len(got))))
        if not worst <= BUDGET:
            print("  FAILED: %s rig: %.3e is over %g" % (rig["rig"], worst, BUDGET))
            ok = False
    return ok


def swizzle(p):
    """glTF's y-up (x, y, z) as Blender's importer turns it: (x, -z, y)."""
    return (p[0], -p[2], p[1])


def asset(path, asset_json, rows, budget):
    """The asset's Blender weights against the lab's Blender model: with the lab's bones (one
    Blender bone, and so one vertex group, for each of the lab's; a joint with several bones
    sums its groups, as the lab sums a joint's bones after Blender's cut), checked against
    `budget` when it is not None; and with the bones Blender's importer makes, reported."""
    doc = json.load(open(path))
    joint_names = [doc["nodes"][n]["name"] for n in doc["skins"][0]["joints"]]
    lab = {}
    for r in rows:
        if r["asset"] == asset_json["asset"]:
            lab.setdefault(int(r["vertex"]), {})[int(r["joint"])] = float(r["blender_cut_weight"])
            lab[int(r["vertex"])]["p"] = (float(r["x"]), float(r["y"]), float(r["z"]))
    ok = True
    for bones_from in ("the lab's bones", "the importer's bones"):
        mesh, arma = import_mesh(path)
        if bones_from == "the lab's bones":
            bpy.data.objects.remove(arma)
            mesh.matrix_world = Matrix.Identity(4)  # heat is the same in any rigid frame
            bones = [("j%d_b%d" % (b["joint"], k), swizzle(b["from"]), swizzle(b["to"]))
                     for k, b in enumerate(asset_json["bones"])]
            group_joint = {name: int(name[1:name.index("_")]) for name, _, _ in bones}
            arma = own_armature(mesh, bones, Matrix.Identity(4))
        else:
            group_joint = {name: j for j, name in enumerate(joint_names)}
            for b in arma.data.bones:
                print("  importer's bone %-10s head (%.4f, %.4f, %.4f) tail (%.4f, %.4f, %.4f)"
                      % (b.name, *(arma.matrix_world @ b.head_local), *(arma.matrix_world @ b.tail_local)))
        got = automatic_weights(mesh, arma)
        order = max(abs(a - b) for v in mesh.data.vertices for a, b in zip(v.co, swizzle(lab[v.index]["p"])))
        if order > 1e-5:
            print("  FAILED: Blender's vertex order is not the file's (a position differs by %.3e)" % order)
            return False
        worst, where, total, over = 0.0, None, 0.0, {}
        explained = EXPLAINED.get(asset_json["asset"], set()) if bones_from == "the lab's bones" else set()
        for i, w in enumerate(got):
            per_joint = [0.0] * len(joint_names)
            for name, weight in w.items():
                per_joint[group_joint[name]] += weight
            for j in range(len(joint_names)):
                diff = abs(per_joint[j] - lab[i][j])
                total += diff
                if diff > BUDGET:
                    over.setdefault(i, []).append("%s %.4f/%.4f" % (joint_names[j], per_joint[j], lab[i][j]))
                if diff > worst and i not in explained:
                    worst, where = diff, (i, j)
        print("  %s with %s (%d bones), %d vertices x %d joints%s: largest difference from the lab's Blender model"
              " %.3e (vertex %d, joint %d), mean %.3e"
              % (asset_json["asset"], bones_from, len(asset_json["bones"]) if bones_from == "the lab's bones"
                 else len(arma.data.bones), len(got), len(joint_names),
                 " (vertices %s aside, explained)" % sorted(explained) if explained else "", worst, where[0], where[1],
                 total / (len(got) * len(joint_names))))
        if bones_from == "the lab's bones":
            for i in sorted(over)[:12]:  # each vertex over the budget: joint Blender's/lab's
                print("    vertex %d%s: %s" % (i, " (explained)" if i in explained else "", ", ".join(over[i])))
            if len(over) > 12:
                print("    and %d more vertices" % (len(over) - 12))
        if bones_from == "the lab's bones" and budget is not None and not worst <= budget:
            print("  FAILED: %s: %.3e is over %g" % (asset_json["asset"], worst, budget))
            ok = False
    return ok


args = sys.argv[sys.argv.index("--") + 1:]
cylinder_path, evidence_path, csv_path, asset_csv_path = args[:4]
evidence = json.load(open(evidence_path))
print("file", cylinder_path)
ok = cylinder(cylinder_path, evidence["rigs"], list(csv.DictReader(open(csv_path))))
rows = list(csv.DictReader(open(asset_csv_path)))
for asset_path in args[4:]:
    print("file", asset_path)
    name = asset_path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    ok &= asset(asset_path, next(a for a in evidence["assets"] if a["asset"] == name), rows, BUDGET)
print("blender-check (automatic weights):", "ok" if ok else "FAILED")
sys.exit(0 if ok else 1)
