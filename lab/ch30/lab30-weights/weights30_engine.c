/* weights30_engine.c - lab30-weights's assets: where they are found and read (the
 * shipped samples, or the one --asset names), and the asset written back with its
 * automatic weights, cut to the influences an engine keeps (see weights30.h). The methods are
 * src/weights/heat.c's and src/weights/bbw.c's; weights30_assets.c runs them on an asset. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/bytes.h"
#include "base/diag.h"
#include "base/text.h"
#include "base/report.h"
#include "gltf/gltf.h"
#include "gltf/gltf_rewrite.h"
#include "program/evidence.h"
#include "program/output.h"
#include "skin/influences.h"

#include "weights/heat.h"
#include "weights30.h"

/* The assets folder: --assets DIR, or else the repository's assets/ found from the
 * program's own location: the nearest folder above it (up to four levels: build/bin,
 * build/asan/bin) that holds assets/RiggedSimple.gltf, so that a run from any folder finds
 * it. A folder that is not there names the option. */
static lab_error assets_folder(const weights30_options *o, weights30 *r, lab_diag *d)
{
    r->assets_dir = o->assets_dir;
    static char found[4096];
    if (!r->assets_dir) {
        char exe[4000];
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len <= 0)
            return diag_fail(d, LAB_ERR_USAGE, "--assets", "the program cannot find its own location (%s): name the "
                             "assets folder with --assets DIR", strerror(errno));
        exe[len] = '\0';
        struct stat st;
        for (int up = 0; up < 5 && !r->assets_dir; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0'; /* the program's folder, then the ones above it */
            snprintf(found, sizeof found, "%s/assets/RiggedSimple.gltf", exe);
            if (stat(found, &st) == 0) {
                snprintf(found, sizeof found, "%s/assets", exe);
                r->assets_dir = found;
            }
        }
        if (!r->assets_dir)
            return diag_fail(d, LAB_ERR_INPUT_FILE, "--assets", "no assets/RiggedSimple.gltf in the four folders above "
                             "the program: name the folder with --assets DIR");
    }
    struct stat st;
    errno = 0;
    if (stat(r->assets_dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return diag_fail(d, LAB_ERR_INPUT_FILE, "--assets", "%s: %s (the folder with RiggedSimple.gltf and "
                         "RiggedFigure.gltf, as --assets named it)", r->assets_dir,
                         errno ? strerror(errno) : "not a folder");
    return LAB_OK;
}

lab_error weights30_read_assets(const weights30_options *o, weights30 *r, lab_diag *d)
{
    static const char *const names[WEIGHTS30_ASSETS] = {"RiggedSimple", "RiggedFigure"};
    static char stem[OUTPUT_MAX_NAME + 1];
    r->influences = 4 * (o->influence_choice + 1);
    if (o->asset_in) { /* --asset IN: that asset alone, named by its file, made a safe output name */
        const char *base = strrchr(o->asset_in, '/') ? strrchr(o->asset_in, '/') + 1 : o->asset_in;
        char raw[4096];
        snprintf(raw, sizeof raw, "%.*s", (int)(strrchr(base, '.') ? strrchr(base, '.') - base : (long)strlen(base)),
                 base);
        r->asset_name_changed = output_name_from_input(raw, "", stem);
        r->asset_count = 1;
        r->asset[0] = (weights30_asset){.name = stem, .influences = r->influences};
        return weights30_asset_run(&r->asset[0], o->asset_in, o, d);
    }
    lab_error e = assets_folder(o, r, d);
    r->asset_count = WEIGHTS30_ASSETS;
    for (int i = 0; e == LAB_OK && i < WEIGHTS30_ASSETS; i++) {
        char path[4096];
        r->asset[i] = (weights30_asset){.name = names[i], .influences = r->influences};
        if ((size_t)snprintf(path, sizeof path, "%s/%s.gltf", r->assets_dir, names[i]) >= sizeof path)
            e = diag_fail(d, LAB_ERR_USAGE, "--assets", "a path of %zu bytes, longer than %zu", strlen(r->assets_dir),
                          sizeof path - 32);
        else
            e = weights30_asset_run(&r->asset[i], path, o, d);
    }
    return e;
}


/* A vertex the set leaves without weight (Blender's, for a part that sees no bone, or one its
 * cut empties) cannot be written: glTF's weights sum to 1. It is written with the weights of
 * the bones nearest it (heat_sources_nearest: ties share), into its row of the cut table,
 * which is what the CSV and the read-back then hold; *filled: how many. */
static lab_error weight_the_weightless(weights30_asset *a, double *cut, int *filled, lab_diag *d)
{
    int J = a->joint_count;
    unsigned char *none = calloc((size_t)a->vertex_count + 1, 1);
    if (!none)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d vertices", a->vertex_count);
    *filled = 0;
    for (int v = 0; v < a->vertex_count; v++) {
        double total = 0.0;
        for (int j = 0; j < J; j++)
            total += cut[(size_t)v * J + j];
        none[v] = !(total > 0.0);
        *filled += none[v];
    }
    mesh own = {a->vertex_count, a->bind, a->triangle_count, a->triangles};
    lab_error e = *filled ? heat_sources_nearest(&own, HEAT_PAPER, a->bones, a->bone_count, J, none, cut, d) : LAB_OK;
    free(none);
    return e;
}

/* --asset IN: the chosen automatic set, cut to K a vertex (heaviest first, unused slots
 * joint 0 with weight 0), into IN's own document as JOINTS_n / WEIGHTS_n (gltf_rewrite.h),
 * then read back by the reader every program uses and compared with the cut weights. */
lab_error weights30_write_asset(const weights30_options *o, weights30 *r, report_checks *c, output_batch *out,
                                lab_diag *d)
{
    weights30_asset *a = &r->asset[0];
    weights30_versus *x = &a->versus[o->asset_weights];
    int K = a->influences, J = a->joint_count, n = a->vertex_count;
    gltf_document doc, back;
    lab_error e = gltf_load(o->asset_in, &doc, d);
    if (e == LAB_OK && (e = gltf_validate(&doc, d)) != LAB_OK)
        gltf_free(&doc);
    if (e == LAB_OK && (e = weight_the_weightless(a, x->cut, &r->weighted_for_gltf, d)) != LAB_OK)
        gltf_free(&doc);
    if (e != LAB_OK)
        return e;
    uint16_t *joints = malloc(((size_t)n * K + 1) * sizeof *joints);
    float *weights = malloc(((size_t)n * K + 1) * sizeof *weights);
    double *slot = malloc(((size_t)K + 1) * sizeof *slot);
    int *slot_joint = malloc(((size_t)K + 1) * sizeof *slot_joint);
    bytes glb = {0};
    if (!joints || !weights || !slot || !slot_joint)
        e = diag_fail(d, LAB_ERR_OUT_OF_MEMORY, a->name, "%d vertices x %d influences", n, K);
    for (int v = 0; e == LAB_OK && v < n; v++) {
        const double *w = x->cut + (size_t)v * J;
        int k = 0;
        for (int j = 0; j < J; j++) /* the kept ones, then heaviest first (the engine's order) */
            if (w[j] > 0.0)
                slot_joint[k] = j, slot[k++] = w[j];
        skin_sort_heaviest_first(slot_joint, slot, k);
        for (int i = 0; i < K; i++) /* unused slots: joint 0, weight 0 */
            joints[(size_t)v * K + i] = (uint16_t)(i < k ? slot_joint[i] : 0), slot[i] = i < k ? slot[i] : 0.0;
        gltf_rewrite_weights_to_float(slot, K, weights + (size_t)v * K);
    }
    gltf_rewrite_influences in = {a->parts, a->part_count, K / 4, joints, weights, "lab30-weights (automatic weights)"};
    if (e == LAB_OK)
        e = gltf_rewrite(&doc, &in, &glb, d);
    /* read back as any program reads an asset, weights compared with the cut ones */
    if (e == LAB_OK)
        e = gltf_parse(glb.data, glb.len, ".", &back, d);
    if (e == LAB_OK) {
        e = gltf_validate(&back, d);
        r->readback_sets = K / 4; /* the fewest any part holds */
        for (int p = 0; e == LAB_OK && p < a->part_count; p++) {
            skin_influences got;
            e = gltf_primitive_influences(&back, a->parts[p].mesh, a->parts[p].primitive, &got, d);
            if (e != LAB_OK)
                break;
            int sets = back.meshes[a->parts[p].mesh].primitives[a->parts[p].primitive].sets;
            r->readback_sets = sets < r->readback_sets ? sets : r->readback_sets;
            for (int u = 0; u < got.vertex_count; u++) {
                size_t v = (size_t)(a->part_first[p] + u);
                for (int j = 0; j < J; j++) {
                    double w = 0.0;
                    for (int k = 0; k < got.per_vertex; k++)
                        w += got.joint[u * got.per_vertex + k] == j ? got.weight[u * got.per_vertex + k] : 0.0;
                    r->readback_error = max_or_nan(r->readback_error, fabs(w - x->cut[v * J + j]));
                }
            }
            skin_influences_free(&got);
        }
        gltf_free(&back);
    }
    snprintf(r->asset_out, sizeof r->asset_out, "%.120s-%s.glb", a->name,
             weights30_set_name((weights30_set)(o->asset_weights + 1)));
    if (e == LAB_OK) { /* every set read back, and every weight as written */
        check_count(c, "JOINTS_n / WEIGHTS_n sets read back", r->readback_sets, K / 4);
        check_bound(c, "max |read back - cut weight|", r->readback_error, 1e-6);
        e = output_batch_add(out, r->asset_out, &glb, d);
    }
    bytes_free(&glb);
    free(joints), free(weights), free(slot), free(slot_joint);
    gltf_free(&doc);
    return e;
}

/* --asset: the one asset's evidence, and what was written and read back. */
lab_error weights30_asset_evidence(const weights30 *r, output_batch *out, lab_diag *d)
{
    cJSON *root = json_evidence_root("lab30-weights");
    json_add_number(root, "heat_c", r->options.heat_c);
    cJSON_AddItemToObject(root, "asset", weights30_asset_json(&r->asset[0]));
    cJSON *w = cJSON_AddObjectToObject(root, "written");
    cJSON_AddStringToObject(w, "file", r->asset_out);
    cJSON_AddStringToObject(w, "weights", weights30_set_name((weights30_set)(r->options.asset_weights + 1)));
    cJSON_AddNumberToObject(w, "influences", r->influences);
    cJSON_AddNumberToObject(w, "sets_read_back", r->readback_sets);
    cJSON_AddNumberToObject(w, "weightless_vertices_given_their_nearest_bones", r->weighted_for_gltf);
    json_add_number(w, "max_read_back_weight_error", r->readback_error);
    bytes json = {0}, csv = {0};
    lab_error e = json_to_bytes(root, &json, d);
    cJSON_Delete(root);
    /* the weights written, before they became floats: vertex, joint (a skin slot), weight */
    const weights30_asset *a = &r->asset[0];
    const double *cut = a->versus[r->options.asset_weights].cut;
    bytes_printf(&csv, "vertex,joint,weight\n");
    for (int v = 0; v < a->vertex_count; v++)
        for (int j = 0; j < a->joint_count; j++)
            if (cut[(size_t)v * a->joint_count + j] != 0.0) {
                bytes_printf(&csv, "%d,%d,", v, j);
                csv_row(&csv, &cut[(size_t)v * a->joint_count + j], 1);
            }
    if (e == LAB_OK)
        e = output_batch_add(out, "weights30-asset.json", &json, d);
    if (e == LAB_OK)
        e = output_batch_add(out, "weights30-asset.csv", &csv, d);
    bytes_free(&json);
    bytes_free(&csv);
    return e;
}

void weights30_report_written(const weights30 *r, FILE *out)
{
    const report_checks *c = &r->checks.written;
    if (r->asset_name_changed) { /* the input's name, escaped, and the safe name made of it */
        char shown[512];
        fprintf(out, "  the output is named after %s, made a plain file name: %s\n",
                text_printable(shown, sizeof shown, r->options.asset_in), r->asset[0].name);
    }
    fprintf(out, "  %s: the %s weights cut to %d a vertex as %d JOINTS_n / WEIGHTS_n set(s)\n"
            "  (unsigned shorts, floats), the file's nodes, skin and animations kept (a skinned mesh's\n"
            "  node made a root); read back by the reader every program uses\n",
            r->asset_out, weights30_set_name((weights30_set)(r->options.asset_weights + 1)), r->influences,
            r->influences / 4);
    fprintf(out, "  sets read back: %d\n", r->readback_sets);
    if (r->weighted_for_gltf)
        fprintf(out, "  %d vertices the set leaves without weight are written with their nearest bones' weights\n"
                "  (glTF's weights sum to 1; Blender would leave them at the bind pose)\n", r->weighted_for_gltf);
    for (int i = 1; i < c->count; i++) /* the first, the sets, is the line above */
        report_row(out, &c->items[i]);
}
