/* gltf30_record.c - lab30-gltf's evidence and report (see gltf30.h). */
#include "gltf30.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/report.h"
#include "program/evidence.h"
#include "program/json_writer.h"
#include "base/diag.h"
#include "base/text.h"
#include "gltf/gltf.h"
#include "mesh/mesh.h"
#include "program/output.h"
#include "skin/blend.h"
#include "skin/influences.h"

void gltf30_free(gltf30 *r)
{
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
    report_checks_free(&r->verdicts);
}


/* ---- the evidence ------------------------------------------------------------------------------ */

const char *gltf30_part_kind(const gltf30_part *part)
{
    return part->skinned ? (part->morphed ? "skinned and morphed" : "skinned") : part->morphed ? "morphed" : "rigid";
}

/* A matrix as 4 rows of 4 numbers, member key (NULL in an array), as evidence.h writes it. */
static void write_mat4(json_writer *w, const char *key, mat4 m)
{
    json_writer_array(w, key);
    for (int row = 0; row < 4; row++) {
        json_writer_array(w, NULL);
        for (int col = 0; col < 4; col++)
            json_writer_number(w, NULL, m.m[row][col]);
        json_writer_end(w);
    }
    json_writer_end(w);
}

static void write_time(json_writer *w, const gltf30 *r, const gltf30_time *at)
{
    json_writer_object(w, NULL);
    json_writer_number(w, "time", at->t);
    json_writer_int(w, "normalized_vertices", at->normalized);
    json_writer_array(w, "parts");
    for (int p = 0; p < r->part_count; p++) {
        const gltf30_part *part = &r->parts[p];
        json_writer_object(w, NULL);
        json_writer_int(w, "node", part->node);
        json_writer_int(w, "mesh", part->mesh);
        json_writer_int(w, "primitive", part->primitive);
        json_writer_string(w, "kind", gltf30_part_kind(part));
        if (part->skinned) { /* the joints' world matrices the skin used */
            const gltf_skin *s = &r->doc.skins[r->doc.nodes[part->node].skin];
            json_writer_array(w, "joint_world");
            for (int k = 0; k < s->joint_count; k++)
                write_mat4(w, NULL, at->world[s->joints[k]]);
            json_writer_end(w);
        } else { /* the node's own world matrix placed it */
            write_mat4(w, "node_world", at->world[part->node]);
        }
        if (at->morph_weights[p]) { /* applied before skinning */
            json_writer_array(w, "morph_weights");
            for (int k = 0; k < gltf_node_target_count(&r->doc, part->node); k++)
                json_writer_number(w, NULL, at->morph_weights[p][k]);
            json_writer_end(w);
        }
        json_writer_array(w, "positions");
        for (int v = 0; v < part->vertex_count; v++) {
            vec3 q = at->positions[p][v];
            json_writer_array(w, NULL);
            json_writer_number(w, NULL, q.x), json_writer_number(w, NULL, q.y), json_writer_number(w, NULL, q.z);
            json_writer_end(w);
        }
        json_writer_end(w);
        json_writer_end(w);
    }
    json_writer_end(w);
    json_writer_end(w);
}

/* gltf30.json, written as it is produced (src/program/json_writer.h): up to --max-values
 * numbers, which a cJSON tree would hold at about 100 bytes each before printing them. */
lab_error gltf30_evidence(const gltf30 *r, output_batch *out, lab_diag *d)
{
    bytes text = {0};
    json_writer w;
    json_writer_begin(&w, &text);
    json_writer_string(&w, "lab", "lab30-gltf");
    cJSON *conventions = json_conventions();
    json_writer_item(&w, "conventions", conventions);
    cJSON_Delete(conventions);
    const char *slash = strrchr(r->options.asset, '/');
    json_writer_string(&w, "asset", slash ? slash + 1 : r->options.asset);
    json_writer_string(&w, "method", skin_method_name((skin_method)r->options.method));
    json_writer_string(&w, "policy", skin_policy_name((skin_policy_kind)r->options.policy));
    json_writer_string(&w, "space", "the joints' world space: the skinned mesh node's transform is ignored");
    json_writer_object(&w, "animation"); /* the one sampled (--anim) */
    json_writer_int(&w, "index", r->animation);
    if (r->animation >= 0 && r->doc.animations[r->animation].name)
        json_writer_string(&w, "name", r->doc.animations[r->animation].name);
    else
        json_writer_null(&w, "name"); /* none, or an animation without a name */
    json_writer_end(&w);
    json_writer_array(&w, "animation_range");
    json_writer_number(&w, NULL, r->start);
    json_writer_number(&w, NULL, r->end);
    json_writer_end(&w);
    json_writer_array(&w, "times");
    for (int k = 0; k < r->time_count; k++)
        write_time(&w, r, &r->at[k]);
    json_writer_end(&w);
    lab_error e = json_writer_finish(&w, d);
    if (e == LAB_OK)
        e = output_batch_add(out, "gltf30.json", &text, d);
    bytes_free(&text);
    return e;
}


void gltf30_report(const gltf30 *r, FILE *out)
{
    fprintf(out, "  %s: %d mesh primitive(s), animation %g..%g s, %s, policy %s\n", r->options.asset,
            r->part_count, r->start, r->end, skin_method_name((skin_method)r->options.method), skin_policy_name((skin_policy_kind)r->options.policy));
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
}

/* The rows of the checks gltf30_check decided, in its order, with the notes between. */
void gltf30_report_checks(const gltf30 *r, FILE *out)
{
    const gltf30_checks *c = &r->checks;
    const report_checks *v = &r->verdicts;
    int next = 0;
    if (c->weight_vertices && next < v->count)
        report_row(out, &v->items[next++]);
    if (next < v->count)
        report_row(out, &v->items[next++]); /* the non-finite coordinates */
    if (c->keys_checked && next < v->count)
        report_row(out, &v->items[next++]);
    else if (!c->keys_checked)
        fprintf(out, "  the sampler at its keys: %s\n", r->animation < 0 ? "no animation, no keys" : "no keys");
    if (c->bind_parts) { /* every J_j = M at rest: skinning must give M p */
        if (next < v->count)
            report_row(out, &v->items[next++]);
        fprintf(out, "  (M: the joint matrices' common value at rest, %s)\n",
                c->bind_common <= GLTF30_REST_TOLERANCE ? "the identity: skinned = the mesh"
                                                         : "one transform the skin applies to the whole mesh");
    }
    if (c->decoded_values && next < v->count) /* compressed data decoded: against its declared bounds */
        report_row(out, &v->items[next++]);
    if (c->draco_values)
        fprintf(out, "  %ld POSITION values decoded from Draco: quantized inside the stream on a step the JSON\n"
                     "  does not declare, so not compared with its min/max here\n", c->draco_values);
    if (c->rest_parts)
        fprintf(out, "  %d skinned part(s) whose rest pose is not their bind pose (the joint matrices differ\n"
                     "  by up to %.3g at rest): skinning there moves the mesh, and no identity is checked\n",
                c->rest_parts, c->rest_offset);
}
