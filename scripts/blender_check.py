# blender_check.py - opens the lab's glTF exports with Blender's own glTF importer and
# reports what a user sees there (scripts/blender-check.sh runs it; not part of make test).
#
#   blender --background --factory-startup --python scripts/blender_check.py -- FILE.gltf...
#
# For each file: the objects the importer made (name, type, data), every bone's length and
# world head and tail, the mesh's top in the world, and the largest between-key deviation:
# Blender blends the four quaternion components of its keys linearly (and renormalises),
# glTF's LINEAR rotation is slerp, so between keys Blender's mesh leaves glTF's. The
# reference pose is the two keys' slerp (mathutils) with the shape key's linear value; the
# deviation is the largest distance, over every vertex and STEPS times in every key
# interval, between the mesh Blender plays and the mesh in that pose. Exit status 1 when a
# deviation reaches 1e-4 or a check below fails.
import math
import sys

import bpy
import numpy as np
from mathutils import Quaternion

# Debian's numpy 1.24 dropped np.bool, which Blender 3.4's glTF importer still uses.
if "bool" not in np.__dict__:
    np.bool = np.bool_

BUDGET = 1e-4
STEPS = 16


def world_vertices(obj):
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    out = [evaluated.matrix_world @ v.co for v in mesh.vertices]
    evaluated.to_mesh_clear()
    return out


def set_frame(frame):
    whole = math.floor(frame)
    bpy.context.scene.frame_set(int(whole), subframe=frame - whole)


def check(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    print("file", path)
    failures = []
    arma = next(o for o in bpy.data.objects if o.type == 'ARMATURE')
    mesh = next(o for o in bpy.data.objects if o.type == 'MESH')
    for o in sorted(bpy.data.objects, key=lambda o: o.name):
        print("  object %-34r %-8s data %r" % (o.name, o.type, o.data.name if o.data else None))
    if mesh.name != mesh.data.name:
        failures.append("the mesh object %r is not named as its mesh %r" % (mesh.name, mesh.data.name))
    if mesh.data.shape_keys:
        print("  shape keys", [k.name for k in mesh.data.shape_keys.key_blocks])
    set_frame(0.0)
    top = max(v.z for v in world_vertices(mesh))
    print("  mesh top (world z) %.6f" % top)
    for b in arma.data.bones:
        head, tail = arma.matrix_world @ b.head_local, arma.matrix_world @ b.tail_local
        print("  bone %-10s length %.6f  head (%.4f, %.4f, %.4f)  tail (%.4f, %.4f, %.4f)"
              % (b.name, b.length, *head, *tail))
    child = arma.data.bones["child"]
    if abs((arma.matrix_world @ child.head_local).z - top) > 1e-5 or child.length > 0.25 + 1e-6:
        failures.append("the leaf joint's bone does not start at the mesh's top with 0.25 at most")

    # the keys, as the importer wrote them
    action = arma.animation_data.action
    rotation = 'pose.bones["child"].rotation_quaternion'
    curves = sorted((c for c in action.fcurves if c.data_path == rotation), key=lambda c: c.array_index)
    frames = [k.co.x for k in curves[0].keyframe_points]
    shape = mesh.data.shape_keys
    shape_curve = None
    if shape and shape.animation_data and shape.animation_data.action:
        shape_curve = shape.animation_data.action.fcurves[0]
    worst, worst_at = 0.0, None
    for k in range(len(frames) - 1):
        f0, f1 = frames[k], frames[k + 1]
        q0, q1 = (Quaternion([c.evaluate(f) for c in curves]) for f in (f0, f1))
        for s in range(1, STEPS):
            u = s / STEPS
            f = f0 + (f1 - f0) * u
            set_frame(f)
            played = world_vertices(mesh)
            # the reference: actions off, the pose set by hand
            arma_action = arma.animation_data.action
            arma.animation_data.action = None
            arma.pose.bones["child"].rotation_quaternion = q0.slerp(q1, u)
            if shape_curve:
                shape_action = shape.animation_data.action
                shape.animation_data.action = None
                w0, w1 = shape_curve.evaluate(f0), shape_curve.evaluate(f1)
                shape.key_blocks[1].value = w0 + (w1 - w0) * u
            set_frame(f)
            exact = world_vertices(mesh)
            arma.animation_data.action = arma_action
            if shape_curve:
                shape.animation_data.action = shape_action
            d = max((a - b).length for a, b in zip(played, exact))
            if d > worst:
                worst, worst_at = d, f / bpy.context.scene.render.fps
    print("  keys %d, largest between-key deviation over %d vertices: %.3e at t = %.4f s"
          % (len(frames), len(mesh.data.vertices), worst, worst_at))
    if not worst < BUDGET:
        failures.append("between-key deviation %.3e is not below %g" % (worst, BUDGET))
    for f in failures:
        print("  FAILED:", f)
    return not failures


ok = all([check(p) for p in sys.argv[sys.argv.index("--") + 1:]])
print("blender-check:", "ok" if ok else "FAILED")
sys.exit(0 if ok else 1)
