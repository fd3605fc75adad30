/* gltf30_record.c - lab30-gltf's evidence and report (see gltf30.h). */
#include "gltf30.h"

#include <stdlib.h>
#include <string.h>

#include "program/evidence.h"
#include "base/diag.h"
#include "gltf/gltf.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "skin/blend.h"
#include "skin/influences.h"

void gltf30_release(void *state)
{
    gltf30 *r = state;
    for (int k = 0; k < r->time_count; k++) {
        for (int p = 0; p < r->part_count; p++) {
            free(r->at[k].positions ? r->at[k].positions[p] : NULL);
            free(r->at[k].morph_weights ? r->at[k].morph_weights[p] : NULL);
        }
        free(r->at[k].positions);
        free(r->at[k].morph_weights);
        free(r->at[k].world);
    }
    free(r->parts);
    free(r->ranges);
    gltf_free(&r->doc);
}


/* ---- the evidence ------------------------------------------------------------------------------ */

const char *gltf30_part_kind(const gltf30_part *part)
{
    return part->skinned ? (part->morphed ? "skinned and morphed" : "skinned") : part->morphed ? "morphed" : "rigid";
}

static cJSON *time_json(const gltf30 *r, const gltf30_time *at)
{
    cJSON *t = cJSON_CreateObject();
    json_add_number(t, "time", at->t);
    cJSON_AddNumberToObject(t, "normalized_vertices", at->normalized);
    cJSON *parts = cJSON_AddArrayToObject(t, "parts");
    for (int p = 0; p < r->part_count; p++) {
        const gltf30_part *part = &r->parts[p];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "node", part->node);
        cJSON_AddNumberToObject(j, "mesh", part->mesh);
        cJSON_AddNumberToObject(j, "primitive", part->primitive);
        cJSON_AddStringToObject(j, "kind", gltf30_part_kind(part));
        if (part->skinned) { /* the joints' world matrices the skin used */
            const gltf_skin *s = &r->doc.skins[r->doc.nodes[part->node].skin];
            cJSON *worlds = cJSON_AddArrayToObject(j, "joint_world");
            for (int k = 0; k < s->joint_count; k++)
                cJSON_AddItemToArray(worlds, json_mat4(at->world[s->joints[k]]));
        } else { /* the node's own world matrix placed it */
            cJSON_AddItemToObject(j, "node_world", json_mat4(at->world[part->node]));
        }
        if (at->morph_weights[p]) /* applied before skinning */
            cJSON_AddItemToObject(j, "morph_weights", json_number_array(at->morph_weights[p],
                                                                        gltf_node_target_count(&r->doc, part->node)));
        cJSON_AddItemToObject(j, "positions", json_vec3_array(at->positions[p], part->vertex_count));
        cJSON_AddItemToArray(parts, j);
    }
    return t;
}

lab_error gltf30_evidence(void *state, lab_diag *d)
{
    gltf30 *r = state;
    output_batch *b = &r->out;
    cJSON *root = json_evidence_root("lab30-gltf");
    const char *slash = strrchr(r->args[0], '/');
    cJSON_AddStringToObject(root, "asset", slash ? slash + 1 : r->args[0]);
    cJSON_AddStringToObject(root, "method", skin_method_name((skin_method)r->method));
    cJSON_AddStringToObject(root, "policy", skin_policy_name((skin_policy_kind)r->policy));
    cJSON_AddStringToObject(root, "space", "the joints' world space: the skinned mesh node's transform is ignored");
    cJSON *anim = cJSON_AddObjectToObject(root, "animation"); /* the one sampled (--anim) */
    cJSON_AddNumberToObject(anim, "index", r->animation);
    if (r->animation >= 0 && r->doc.animations[r->animation].name)
        cJSON_AddStringToObject(anim, "name", r->doc.animations[r->animation].name);
    else
        cJSON_AddNullToObject(anim, "name"); /* none, or an animation without a name */
    cJSON *range = cJSON_AddArrayToObject(root, "animation_range");
    cJSON_AddItemToArray(range, json_number(r->start));
    cJSON_AddItemToArray(range, json_number(r->end));
    cJSON *times = cJSON_AddArrayToObject(root, "times");
    for (int k = 0; k < r->time_count; k++)
        cJSON_AddItemToArray(times, time_json(r, &r->at[k]));
    return output_batch_add_json(b, "gltf30.json", root, d);
}


bool gltf30_report(const void *state, FILE *out)
{
    const gltf30 *r = state;
    fprintf(out, "  %s: %d mesh primitive(s), animation %g..%g s, %s, policy %s\n", r->args[0],
            r->part_count, r->start, r->end, skin_method_name((skin_method)r->method), skin_policy_name((skin_policy_kind)r->policy));
    for (int p = 0; p < r->part_count; p++)
        fprintf(out, "  part %d: node %d, mesh %d primitive %d, %d vertices, %s\n", p, r->parts[p].node,
                r->parts[p].mesh, r->parts[p].primitive, r->parts[p].vertex_count, gltf30_part_kind(&r->parts[p]));
    for (int k = 0; k < r->time_count; k++)
        fprintf(out, "  t = %-8g %d vertices whose weights were normalised\n", r->at[k].t,
                r->at[k].normalized);
    fprintf(out, "  the asset's animations (--anim N|NAME chooses one):\n");
    for (int i = 0; i < r->doc.animation_count; i++) {
        double start = r->ranges[i].start, end = r->ranges[i].end;
        fprintf(out, "  %s%d \"%s\": %g..%g s (%g s), %d channels\n", i == r->animation ? "* " : "  ", i,
                r->doc.animations[i].name ? r->doc.animations[i].name : "", start, end, end - start,
                r->doc.animations[i].channel_count);
    }
    if (r->doc.animation_count == 0)
        fprintf(out, "    none: the asset is sampled at its rest pose\n");
    return true; /* no self-checks: the asset's own numbers are the result */
}
