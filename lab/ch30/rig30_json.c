/* rig30_json.c - the evidence of chapter 30's rigs as JSON (see rig30_json.h). */
#include "base/diag.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/evidence.h"
#include "skin/influences.h"

#include "rig30.h"
#include "rig30_cases.h"
#include "rig30_check.h"
#include "rig30_json.h"

cJSON *rig30_json_mesh(const rig30_rig *rig)
{
    const mesh *m = &rig->bind;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "rings", RIG30_RINGS);
    cJSON_AddNumberToObject(j, "segments", RIG30_SEGMENTS);
    json_add_number(j, "radius", RIG30_RADIUS);
    json_add_number(j, "height", RIG30_HEIGHT);
    cJSON_AddItemToObject(j, "vertices", json_vec3_array(m->vertices, m->vertex_count));
    cJSON *tris = cJSON_AddArrayToObject(j, "triangles");
    for (int t = 0; t < m->triangle_count; t++)
        cJSON_AddItemToArray(tris, cJSON_CreateIntArray(m->triangles[t].v, 3));
    cJSON_AddNumberToObject(j, "unique_edges", rig->stats.unique_edges);
    cJSON_AddNumberToObject(j, "boundary_edges", rig->stats.boundary_edges);
    json_add_number(j, "degenerate_area_threshold", RIG30_MIN_AREA);
    return j;
}

cJSON *rig30_json_joints(const rig30_rig *rig)
{
    cJSON *a = cJSON_CreateArray();
    for (int j = 0; j < RIG30_JOINTS; j++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", rig->bind_joints[j].name);
        cJSON_AddNumberToObject(o, "parent", rig->bind_joints[j].parent);
        cJSON_AddItemToObject(o, "bind_world", json_mat4(rig->bind_world[j]));
        cJSON_AddItemToObject(o, "inverse_bind", json_mat4(rig->inverse_bind[j]));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

cJSON *rig30_json_influences(const rig30_rig *rig)
{
    cJSON *a = cJSON_CreateArray();
    const skin_influences *in = &rig->influences;
    for (int v = 0; v < in->vertex_count; v++) {
        cJSON *o = cJSON_CreateObject();
        int k = in->per_vertex;
        cJSON_AddItemToObject(o, "joints", cJSON_CreateIntArray(in->joint + v * k, k));
        cJSON_AddItemToObject(o, "weights", json_number_array(in->weight + v * k, k));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

cJSON *rig30_json_check(const rig30_check *c)
{
    cJSON *o = cJSON_CreateObject();
    json_add_number(o, "max_position_error", c->max_position_error);
    json_add_number(o, "max_radius_error", c->max_radius_error);
    json_add_number(o, "max_mean_radius_error", c->max_mean_radius_error);
    json_add_number(o, "max_height_error", c->max_height_error);
    json_add_number(o, "max_end_ring_error", c->max_end_ring_error);
    return o;
}

cJSON *rig30_json_hand_control(const rig30_hand_control *h)
{
    static const char *const keys[HAND_ROWS] = {"correct", "missing_inverse_bind", "reversed_order"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "point", json_vec3(vec3_make(1, 1, 0)));
    cJSON_AddStringToObject(o, "bind_child", "Ty(1)");
    cJSON_AddStringToObject(o, "world_child", "Ty(1) Rz(90 deg)");
    cJSON_AddItemToObject(o, "weights", json_number_array((const double[]){0.5, 0.5}, 2));
    for (int k = 0; k < HAND_ROWS; k++) {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "computation", h->name[k]);
        cJSON_AddItemToObject(row, "position", json_vec3(h->computed[k]));
        cJSON_AddItemToObject(row, "article", json_vec3(h->article[k]));
        json_add_number(row, "difference_from_article",
                        vec3_length(vec3_sub(h->computed[k], h->article[k])));
        json_add_number(row, "error_vs_correct", h->error_vs_correct[k]);
        cJSON_AddItemToObject(o, keys[k], row);
    }
    cJSON_AddItemToObject(o, "in_bind_frame", json_vec3(h->in_bind_frame));
    cJSON_AddItemToObject(o, "child_moves_it", json_vec3(h->child_moves_it));
    cJSON_AddItemToObject(o, "row_vector_pT_CT", json_vec3(h->row_vector));
    json_add_number(o, "row_column_difference", h->row_column_difference);
    json_add_number(o, "reversed_order_on_cylinder", h->cylinder_reversed_difference);
    return o;
}

cJSON *rig30_json_invalid_cases(const lab_error *code, const lab_diag *diag, int count)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < count; i++) {
        const rig30_invalid_case *c = rig30_invalid_case_get(i);
        char msg[600];
        diag_format(&diag[i], msg, sizeof msg);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "case", c->name);
        cJSON_AddStringToObject(o, "category", c->category);
        cJSON_AddBoolToObject(o, "rejected", code[i] == c->expected);
        cJSON_AddStringToObject(o, "rule", lab_error_rule(c->expected));
        cJSON_AddStringToObject(o, "message", code[i] == LAB_OK ? "accepted" : msg);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}
