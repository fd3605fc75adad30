/* grade30_figure_fixes.c - the fixes' pictures (grade30_figure.h; exercises 23 and 24): the
 * twist's middle ring at 180 degrees by centres of rotation and by a corrective shape after
 * skinning, the lab's beside the student's. */
#include <math.h>
#include <stdlib.h>
#include "base/diag.h"
#include "draw/camera.h"
#include "draw/diagram.h"
#include "draw/figure.h"
#include "draw/plot.h"
#include "draw/raster.h"
#include "math/dualquat.h"
#include "math/linalg.h"
#include "math/quat.h"
#include "mesh/mesh.h"
#include "skin/blend.h"
#include "skin/influences.h"
#include "grade30_figure.h"
#include "grade30_table.h"
#include "rig30.h"
#include "rig30_check.h"
#include "rig30_fixes.h"

bool grade30_ring_at_180(middle_ring *m)
{
    rig30_rig rig;
    if (rig30_rig_build(&rig, RIG30_TWIST, NULL, NULL) != LAB_OK)
        return false;
    int n = rig.bind.vertex_count;
    vec3 *centres = malloc(sizeof *centres * (size_t)n), *deltas = malloc(sizeof *deltas * (size_t)n);
    dualquat dq[RIG30_JOINTS];
    bool ok = centres && deltas && rig30_palettes(&rig, deg_to_rad(FIX_DEG), m->palette, dq, NULL) == LAB_OK &&
              rig30_corrective_deltas(&rig, FIXES30_AFTER_SKINNING, deltas, NULL, NULL) == LAB_OK;
    if (ok)
        rig30_cor_centres(&rig, centres);
    for (int s = 0; ok && s < RIG30_SEGMENTS; s++) {
        int v = mesh_cylinder_index(RIG30_SEGMENTS, MIDDLE, s), K = rig.influences.per_vertex;
        m->p[s] = rig.bind.vertices[v], m->centre[s] = centres[v], m->delta[s] = deltas[v];
        m->blend[s] = skin_blend_matrix(rig.influences.joint + v * K, rig.influences.weight + v * K, K, m->palette);
        for (int i = 0; i < 2; i++)
            m->joint[s][i] = rig.influences.joint[v * K + i], m->weight[s][i] = rig.influences.weight[v * K + i];
        ok = rig30_blended_rotation(&rig.influences, v, dq, &m->rotation[s], NULL) == LAB_OK;
    }
    free(centres), free(deltas);
    rig30_rig_free(&rig);
    return ok;
}

void grade30_fix_points(grade30_fn f, bool cor, grade30_picture_data *out)
{
    static middle_ring m;
    out->count = RIG30_SEGMENTS + 1;
    out->drawn = grade30_ring_at_180(&m);
    for (int s = 0; out->drawn && s <= RIG30_SEGMENTS; s++) {
        int k = s % RIG30_SEGMENTS;
        out->yours[s] = cor ? f.cor_point(m.p[k], m.centre[k], m.rotation[k], m.joint[k], m.weight[k], 2, m.palette)
                            : f.corrective_point(m.p[k], m.delta[k], 1, m.blend[k], m.rotation[k], true);
    }
}

lab_error grade30_fix_draw(bool cor, const grade30_picture_data *yours, canvas *out, lab_diag *d)
{
    static middle_ring m;
    diagram g;
    lab_error e = diagram_init(&g, out, W, H, 250, 200, 80,
                               cor ? "23. the twist's middle ring at 180 deg by\ncentres of rotation; grey: LBS's line"
                                   : "24. the twist's middle ring at 180 deg by a\ncorrective shape after skinning (s = 1);\ngrey: LBS's line",
                               d);
    if (e != LAB_OK)
        return e;
    raster_text(out, 8, H - 30, FIGURE_TEXT_SCALE, "green: the lab's", LABS);
    raster_text(out, 220, H - 30, FIGURE_TEXT_SCALE, "red (dashed): yours", YOURS);
    if (!grade30_ring_at_180(&m))
        return diag_fail(d, LAB_ERR_LIMIT, "grade30", "the twist rig at 180 degrees");
    diagram_axes(&g, -1.5, 1.5, -1.5, 1.5, 1, "x", "y");
    vec3 lab[RIG30_SEGMENTS + 1], lbs[RIG30_SEGMENTS + 1];
    for (int s = 0; s <= RIG30_SEGMENTS; s++) {
        int k = s % RIG30_SEGMENTS;
        vec4 c = skin_lbs_point(m.centre[k], m.joint[k], m.weight[k], 2, m.palette);
        lbs[s] = mat4_transform_point(m.blend[k], m.p[k]);
        lab[s] = cor ? vec3_add(quat_rotate(m.rotation[k], vec3_sub(m.p[k], m.centre[k])), vec3_make(c.x, c.y, c.z))
                     : vec3_add(lbs[s], quat_rotate(m.rotation[k], m.delta[k]));
    }
    for (int s = 0; s < RIG30_SEGMENTS; s++) {
        diagram_segment(&g, lbs[s].x, lbs[s].y, lbs[s + 1].x, lbs[s + 1].y, 0, DIAGRAM_GREY);
        diagram_segment(&g, lab[s].x, lab[s].y, lab[s + 1].x, lab[s + 1].y, 0, LABS);
    }
    if (yours->drawn && grade30_finite_and_near(yours->yours, RIG30_SEGMENTS + 1))
        for (int s = 0; s < RIG30_SEGMENTS; s++)
            diagram_segment(&g, yours->yours[s].x, yours->yours[s].y, yours->yours[s + 1].x, yours->yours[s + 1].y, 4, YOURS);
    else
        grade30_not_drawn(out);
    return LAB_OK;
}
