/* gltf30_record.c - lab30-gltf's evidence and report (see gltf30.h). */
#include "gltf30.h"

#include <stdlib.h>
#include <string.h>

#include "base/report.h"
#include "program/evidence.h"
#include "base/diag.h"
#include "base/text.h"
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
    for (int k = 0; k < r->time_count; k++) {
        fprintf(out, "  t = %-8g %d vertices whose weights were normalised\n", r->at[k].t, r->at[k].normalized);
        if (r->animation >= 0 && (r->at[k].t < r->start || r->at[k].t > r->end)) /* the sampler clamps */
            fprintf(out, "    (outside the animation's range %g..%g s: sampled at %g, its %s)\n", r->start, r->end,
                    r->at[k].t < r->start ? r->start : r->end, r->at[k].t < r->start ? "start" : "end");
    }
    if (r->doc.quantized) /* integer attributes, read as their accessors say */
        fprintf(out, "  KHR_mesh_quantization: integer positions, normals and morph deltas decoded\n");
    if (r->doc.unread_extensions) { /* used, not required: what they add is left out */
        char names[200];
        fprintf(out, "  extensions this reader ignores (used, not required): %s\n",
                text_printable(names, sizeof names, r->doc.unread_extensions));
    }
    fprintf(out, "  the asset's animations (--anim N|NAME|name:NAME chooses one):\n");
    for (int i = 0; i < r->doc.animation_count; i++) {
        double start = r->ranges[i].start, end = r->ranges[i].end;
        char name[160]; /* a name from the file, its control characters escaped */
        text_printable(name, sizeof name, r->doc.animations[i].name ? r->doc.animations[i].name : "");
        fprintf(out, "  %s%d \"%s\": %g..%g s (%g s), %d channels\n", i == r->animation ? "* " : "  ", i, name, start,
                end, end - start, r->doc.animations[i].channel_count);
    }
    if (r->doc.animation_count == 0)
        fprintf(out, "    none: the asset is sampled at its rest pose\n");
    return true;
}

bool gltf30_report_checks(const void *state, FILE *out)
{
    const gltf30 *r = state;
    const gltf30_checks *c = &r->checks;
    bool ok = true;
    char label[96];
    if (c->weight_vertices) {
        snprintf(label, sizeof label, "weight sums as skinned: max |W - 1| (%ld vertices)", c->weight_vertices);
        ok &= report_bound(out, label, c->weight_deviation, c->weight_bound);
    }
    snprintf(label, sizeof label, "non-finite coordinates (%ld sampled)", c->coordinates);
    ok &= report_count(out, label, c->not_finite, 0);
    if (c->keys_checked) {
        snprintf(label, sizeof label, "sampler at its keys: max rel. diff (%d keys, %d times)", c->keys_checked,
                 c->key_times);
        ok &= report_bound(out, label, c->key_difference, GLTF30_KEY_TOLERANCE);
    } else {
        fprintf(out, "  the sampler at its keys: %s\n", r->animation < 0 ? "no animation, no keys" : "no keys");
    }
    if (c->bind_parts) { /* every J_j = M at rest: skinning must give M p */
        snprintf(label, sizeof label, "rest pose skinned vs M p: max distance (%d parts)", c->bind_parts);
        ok &= report_bound(out, label, c->bind_difference, c->bind_bound);
        fprintf(out, "  (M: the joint matrices' common value at rest, %s)\n",
                c->bind_common <= GLTF30_REST_TOLERANCE ? "the identity: skinned = the mesh"
                                                         : "one transform the skin applies to the whole mesh");
    }
    if (c->rest_parts)
        fprintf(out, "  %d skinned part(s) whose rest pose is not their bind pose (the joint matrices differ\n"
                     "  by up to %.3g at rest): skinning there moves the mesh, and no identity is checked\n",
                c->rest_parts, c->rest_offset);
    return ok;
}
