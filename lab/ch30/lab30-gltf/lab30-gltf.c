/* lab30-gltf.c - Skin a real glTF 2.0 asset: the article's glTF rules at work.
 *
 * Concepts: JOINTS_n index skin.joints (not scene nodes); a missing inverseBindMatrices
 * means identity matrices; the skinned mesh node's own transform is ignored, so skinned
 * positions live in the space of the joints' world matrices. Loads the asset, samples its
 * first animation at the given times, evaluates the node hierarchy, builds the joint
 * matrices J_j = G(skin.joints[j]) IBM_j, and skins every skinned primitive.
 *
 * Usage:  build/bin/lab30-gltf [--time T,...] [--method lbs|dqs] [--policy strict|normalize]
 *                              ASSET OUTDIR
 *
 * Writes into OUTDIR (which must exist), all or nothing:
 *   gltf30.png            one wireframe panel per time: camera fitted to the animated bounds,
 *                         joints as blue squares, bones as red lines
 *   gltf30-panel<k>.png   each panel alone
 *   gltf30.json           per time: joint world matrices, joint (skin) matrices, positions
 *
 * Exit codes: 0 success, 1 the asset was rejected (malformed, hostile or invalid skin data;
 * the message names the JSON pointer), 2 usage, 3 output directory or write failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/text.h"
#include "gltf/gltf.h"
#include "math/linalg.h"
#include "mesh/mesh.h"
#include "program/cli.h"
#include "skin/blend.h"
#include "skin/influences.h"

#include "gltf30.h"

#define LAB "lab30-gltf"

/* ---- the stages: each takes what it reads and fills what it makes ---------------------- */

/* Every primitive of every node that has both a mesh and a skin. */
static lab_error find_parts(const gltf_document *doc, gltf30_part **parts, int *count, lab_diag *d)
{
    int total = 0;
    for (int n = 0; n < doc->node_count; n++)
        if (doc->nodes[n].mesh >= 0)
            total += doc->meshes[doc->nodes[n].mesh].primitive_count;
    if (!(*parts = malloc(sizeof **parts * (size_t)(total ? total : 1))))
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "mesh primitives", "%d", total);
    for (int n = 0; n < doc->node_count; n++) { /* every mesh instance: a node with a mesh */
        const gltf_node *node = &doc->nodes[n];
        if (node->mesh < 0)
            continue;
        for (int p = 0; p < doc->meshes[node->mesh].primitive_count; p++)
            (*parts)[(*count)++] =
                (gltf30_part){n, node->mesh, p, gltf_primitive_vertex_count(doc, node->mesh, p), node->skin >= 0,
                              doc->meshes[node->mesh].primitives[p].target_count > 0};
    }
    return LAB_OK;
}

/* glTF 2.0, 3.7.3 "Skins", one skinned primitive of a node at one time: the joint matrices
 *     J_j = G(skin.joints[j]) IBM_j
 * (JOINTS_n index skin.joints, not the document's nodes; no inverseBindMatrices means
 * identity; the skinned mesh node's own transform is ignored, so the positions live in the
 * joints' world space), then the chapter's blend, LBS p' = sum_k w_k J_{j_k} p~ or DQS
 * (lab30-dqs), over the bind positions as the morph targets left them (3.7.2.2). The
 * library's gltf_skin_primitive is the same, tested against these lines. */
static lab_error skin_part(const gltf_document *doc, const gltf30_part *part, const mat4 *world,
                           const double *morph_weights, const gltf30_options *o, vec3 *out, int *normalized,
                           lab_diag *d)
{
    gltf_skin_input in; /* the morphed bind positions, influences under --policy, IBM_j */
    lab_error e = gltf_skin_input_read(doc, part->node, part->primitive, morph_weights, (skin_policy_kind)o->policy,
                                       &in, d);
    if (e != LAB_OK)
        return e;
    mat4 *J = malloc(sizeof(mat4) * (size_t)(in.joint_count > 0 ? in.joint_count : 1));
    if (!J)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "(skin)", "%d joints", in.joint_count);
    for (int j = 0; e == LAB_OK && j < in.joint_count; j++)
        J[j] = mat4_mul(world[in.joints[j]], in.inverse_bind[j]); /* J_j = G(skin.joints[j]) IBM_j */
    if (e == LAB_OK && in.influences.vertex_count == 0) /* no JOINTS_n: the mesh follows nothing */
        memcpy(out, in.bind, sizeof(vec3) * (size_t)in.vertex_count);
    else if (e == LAB_OK) /* LBS or DQS over every influence; DQS takes float32's rotations as rigid */
        e = skin_deform(in.bind, &in.influences, J, in.joint_count,
                        (skin_blend){.method = (skin_method)o->method, .rigid_tolerance = GLTF_RIGID_TOLERANCE}, out, d);
    if (e == LAB_OK)
        e = gltf_skinned_finite(doc, part->node, part->primitive, out, in.vertex_count, d);
    *normalized = e == LAB_OK ? in.normalized : 0;
    free(J);
    gltf_skin_input_free(&in);
    return e;
}

/* One time: the animation's locals, every node's world matrix G, then every part: its
 * morph weights, then skinned (skin_part) or placed by its node's world matrix. */
static lab_error sample_time(const gltf30 *r, gltf30_time *at, lab_diag *d)
{
    int n = r->doc.node_count;
    mat4 *locals = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    at->world = malloc(sizeof(mat4) * (size_t)(n ? n : 1));
    at->positions = calloc((size_t)(r->part_count ? r->part_count : 1), sizeof(vec3 *));
    at->morph_weights = calloc((size_t)(r->part_count ? r->part_count : 1), sizeof(double *));
    lab_error e = (locals && at->world && at->positions && at->morph_weights)
                      ? gltf_sample_locals(&r->doc, r->animation, at->t, locals, d)
                      : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "nodes", "%d", n);
    if (e == LAB_OK) /* G_i = G_parent(i) L_i */
        e = gltf_world_matrices(&r->doc, locals, at->world, d);
    for (int p = 0; e == LAB_OK && p < r->part_count; p++) {
        int count, targets = gltf_node_target_count(&r->doc, r->parts[p].node);
        if (targets > 0) { /* the morph weights first: the targets move the bind pose */
            at->morph_weights[p] = malloc(sizeof(double) * (size_t)targets);
            e = at->morph_weights[p] ? gltf_sample_morph_weights(&r->doc, r->animation, at->t, r->parts[p].node, at->morph_weights[p], d)
                                     : diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "morph weights", "part %d", p);
        }
        at->positions[p] = e == LAB_OK ? malloc(sizeof(vec3) * (size_t)r->parts[p].vertex_count) : NULL;
        count = 0;
        if (e == LAB_OK && !at->positions[p])
            e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "positions", "part %d", p);
        else if (e == LAB_OK && r->parts[p].skinned) /* morph targets, then the skin */
            e = skin_part(&r->doc, &r->parts[p], at->world, at->morph_weights[p], &r->options, at->positions[p],
                          &count, d);
        else if (e == LAB_OK) /* morph targets, then the node's own world matrix */
            e = gltf_place_primitive(&r->doc, r->parts[p].node, r->parts[p].primitive, at->world, at->morph_weights[p],
                                     at->positions[p], d);
        at->normalized += e == LAB_OK ? count : 0;
    }
    free(locals);
    return e;
}

/* --anim N|NAME|name:NAME: the animation to sample; without it the first (-1 when the asset
 * has none). The rule between a number and a name: an argument of digits only is an index
 * (--anim 1 is animation 1, even where animation 0 is named "1"); anything else is a name,
 * and name:NAME is always one (name:1). A name that several animations share is refused
 * with their indices, and one the asset does not have lists what it has (usage errors). */
static lab_error choose_animation(const gltf_document *doc, const char *arg, int *animation, lab_diag *d)
{
    *animation = doc->animation_count > 0 ? 0 : -1;
    if (!arg)
        return LAB_OK;
    bool by_name = strncmp(arg, "name:", 5) == 0, number = !by_name && arg[0] != '\0';
    const char *name = by_name ? arg + 5 : arg;
    for (const char *c = arg; number && *c; c++)
        number = *c >= '0' && *c <= '9';
    char there[240] = "", shown[96];
    size_t used = 0;
    int found = -1, matches = 0;
    for (int i = 0; i < doc->animation_count; i++) {
        bool hit = number ? strlen(arg) < 10 && atol(arg) == i
                          : doc->animations[i].name && !strcmp(doc->animations[i].name, name);
        if (!hit)
            continue;
        found = found < 0 ? i : found;
        int n = snprintf(there + used, sizeof there - used, "%s%d", matches++ ? ", " : "", i);
        used += n > 0 && (size_t)n < sizeof there - used ? (size_t)n : 0;
    }
    if (matches == 1) {
        *animation = found;
        return LAB_OK;
    }
    text_printable(shown, sizeof shown, name);
    if (matches > 1) /* a name, never a number, can match twice */
        return diag_fail(d, LAB_ERR_USAGE, "--anim", "\"%s\" names animations %s: choose one by its index", shown,
                         there);
    used = 0;
    for (int i = 0; i < doc->animation_count && used + 1 < sizeof there; i++) {
        char one[64];
        int n = snprintf(there + used, sizeof there - used, "%s%d \"%s\"", i ? ", " : "", i,
                         text_printable(one, sizeof one, doc->animations[i].name ? doc->animations[i].name : ""));
        used += n > 0 && (size_t)n < sizeof there - used ? (size_t)n : sizeof there - used - 1;
    }
    return diag_fail(d, LAB_ERR_USAGE, "--anim", "\"%s\": the asset's animations are %s", shown,
                     doc->animation_count ? there : "none");
}

/* The asset: read, validated (every MUST the reader knows), the animation chosen, its
 * skinned primitives found. */
static lab_error load_asset(const gltf30_options *o, gltf30 *r, lab_diag *d)
{
    lab_error e = gltf_load(o->asset, &r->doc, d);
    r->doc.limits = o->limits; /* --max-vertices, --max-nodes, --max-joints, --max-targets, --max-morph-deltas */
    if (e == LAB_OK)
        e = gltf_validate(&r->doc, d);
    if (e == LAB_OK)
        e = choose_animation(&r->doc, o->animation_arg, &r->animation, d);
    if (e == LAB_OK)
        e = find_parts(&r->doc, &r->parts, &r->part_count, d);
    if (e == LAB_OK && r->part_count == 0) /* valid glTF, with nothing to draw */
        e = diag_fail(d, LAB_ERR_NOTHING_TO_DO, o->asset, "%s",
                      "the asset is valid glTF but no node has a mesh: this lab draws meshes");
    return e;
}

/* A refusal that an option of this program would turn into a result says which: weights
 * off by more than glTF's tolerance are divided out by --policy normalize, and a count
 * over a limit is raised by the limit's option (which the limit's message names). */
static void locate_error(const gltf30_options *o, lab_diag *d)
{
    size_t n = strlen(d->where);
    if (d->code == LAB_ERR_WEIGHT_SUM && o->policy == SKIN_POLICY_STRICT && n + 1 < sizeof d->where)
        snprintf(d->where + n, sizeof d->where - n, " (--policy normalize divides its weights by their sum)");
}

/* Every sampled time (--time, or the animation's start, quarter, half and end), each
 * through sample_time; refused before anything is sampled when gltf30.json would hold
 * more numbers than --max-values. */
static lab_error sample_times(const gltf30_options *o, gltf30 *r, lab_diag *d)
{
    r->ranges = calloc((size_t)(r->doc.animation_count ? r->doc.animation_count : 1), sizeof *r->ranges);
    if (!r->ranges)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "animations", "%d time ranges", r->doc.animation_count);
    for (int i = 0; i < r->doc.animation_count; i++) {
        lab_error e = gltf_animation_range(&r->doc, i, &r->ranges[i].start, &r->ranges[i].end, d);
        if (e != LAB_OK)
            return e;
    }
    if (r->animation >= 0)
        r->start = r->ranges[r->animation].start, r->end = r->ranges[r->animation].end;
    double span = r->end - r->start;
    const double quarters[4] = {r->start, r->start + 0.25 * span, r->start + 0.5 * span, r->end};
    r->time_count = o->requested_count ? o->requested_count : (span > 0 ? 4 : 1);
    long values = 0; /* what gltf30.json will hold, before anything is sampled */
    for (int p = 0; p < r->part_count; p++) {
        const gltf_node *node = &r->doc.nodes[r->parts[p].node];
        values += 3L * r->parts[p].vertex_count + gltf_node_target_count(&r->doc, r->parts[p].node) +
                  16L * (node->skin >= 0 ? r->doc.skins[node->skin].joint_count : 1);
    }
    values *= r->time_count;
    if (values > o->max_values)
        return diag_fail(d, LAB_ERR_LIMIT, "gltf30.json", "%ld numbers (%d parts at %d times: positions, morph weights, "
                         "joint matrices), more than the limit (%d); --max-values raises it", values, r->part_count,
                         r->time_count, o->max_values);
    lab_error e = LAB_OK;
    for (int k = 0; e == LAB_OK && k < r->time_count; k++) {
        r->at[k].t = o->requested_count ? o->requested_times[k] : quarters[k];
        e = sample_time(r, &r->at[k], d);
    }
    return e;
}

/* ---- main: the stages, then the checks, the figures, the evidence and the report ------- */

int main(int argc, char **argv)
{
    static const char *const methods[] = {"lbs", "dqs", NULL};          /* skin_method order */
    static const char *const policies[] = {"strict", "normalize", NULL}; /* skin_policy_kind order */
    static gltf30 r = {.options = {.method = SKIN_LBS, .policy = SKIN_POLICY_STRICT, .max_values = GLTF30_DEFAULT_MAX_VALUES}};
    gltf30_options *o = &r.options;
    const cli_option options[] = {
        {"--time", CLI_DOUBLES, o->requested_times, .count = &o->requested_count, .min_count = 1,
         .max_count = GLTF30_MAX_TIMES, .value_name = "T[,T...]",
         .help = "sample times in seconds (default: start, quarter, half and end\n"
                 "of the animation)"},
        {"--anim", CLI_STRING, &o->animation_arg, .value_name = "N|NAME|name:NAME",
         .help = "the animation to sample (default: the first); digits only are an\n"
                 "index, anything else a name, name:NAME always a name (name:1);\n"
                 "a name several animations share is refused; the report lists them"},
        {"--method", CLI_CHOICE, &o->method, .choices = methods, .help = "lbs (default) or dqs"},
        {"--policy", CLI_CHOICE, &o->policy, .choices = policies,
         .help = "strict (default) rejects weight sums off by more than 2e-7 per\n"
                 "weight; normalize divides them and counts the vertices"},
        {"--max-vertices", CLI_INT, &o->limits.max_vertices, .min = 1, .max = 1 << 26, .value_name = "N",
         .help = "refuse a primitive of more vertices (default 1048576)"},
        {"--max-nodes", CLI_INT, &o->limits.max_nodes, .min = 1, .max = 1 << 24, .value_name = "N",
         .help = "refuse an asset of more nodes (default 65536)"},
        {"--max-joints", CLI_INT, &o->limits.max_joints, .min = 1, .max = 1 << 20, .value_name = "N",
         .help = "refuse a skin of more joints (default 4096)"},
        {"--max-values", CLI_INT, &o->max_values, .min = 1, .max = 1 << 30, .value_name = "N",
         .help = "refuse an asset whose evidence would hold more numbers (default 2097152):\n"
                 "every node that instances a mesh is sampled and written"},
        {"--max-targets", CLI_INT, &o->limits.max_targets, .min = 1, .max = 1 << 20, .value_name = "N",
         .help = "refuse a primitive of more morph targets (default 1024)"},
        {"--max-morph-deltas", CLI_INT, &o->limits.max_morph_deltas, .min = 1, .max = 1 << 30, .value_name = "N",
         .help = "refuse an asset whose nodes morph more targets x vertices in all\n"
                 "(default 67108864: 1024 targets on 65536 vertices)"},
    };
    const cli_program program = {LAB, "Skins a glTF 2.0 asset (.gltf or .glb) at sampled times.",
                                 options, CLI_COUNT(options), {"ASSET", "OUTDIR"}, 2, NULL};
    cli_run run;
    int code = cli_begin(&run, &program, argc, argv);
    if (code != CLI_RUN)
        return code;
    o->asset = run.args[0];

    lab_diag *d = &run.diag;
    lab_error e = load_asset(o, &r, d);
    if (e == LAB_OK)
        e = sample_times(o, &r, d);
    if (e == LAB_OK) /* gltf30_check.c */
        e = gltf30_check(&r, &r.checks, &r.verdicts, d);
    if (e == LAB_OK)
        e = gltf30_figures(&r, &run.out, d);
    if (e == LAB_OK)
        e = gltf30_evidence(&r, &run.out, d);
    if (e != LAB_OK)
        locate_error(o, d);

    if (e == LAB_OK && cli_report(&run, "glTF 2.0: an asset's meshes evaluated at sampled times")) {
        cli_section(&run, "The asset, sampled", NULL);
        gltf30_report(&r, stdout);
        cli_section(&run, "Checks", &r.verdicts);
        gltf30_report_checks(&r, stdout);
    }
    code = cli_end(&run, e);
    gltf30_free(&r);
    return code;
}
