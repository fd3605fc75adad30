/* weights30_report.c - lab30-weights's report, a section a step, each check printed beside
 * its bound (see weights30.h; the evidence is weights30_record.c). */
#include "weights30.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/report.h"
#include "weights/heat.h"
#include "rig30.h"
#include "skin/blend.h"

/* The next n rows of c from *next. */
static void rows(FILE *out, const report_checks *c, int *next, int n)
{
    for (int i = 0; i < n && *next < c->count; i++)
        report_row(out, &c->items[(*next)++]);
}

void weights30_report_laplacian(const weights30 *r, FILE *out)
{
    fprintf(out, "  six equilateral triangles of side 1 around a centre: every cot is 1/sqrt(3)\n");
    report_rows(out, &r->checks.laplacian);
}

/* Per rig: the paper's model's 4 checks and its closed form, Blender's model's 4, in the
 * order lab30-weights.c decided them. */
void weights30_report_heat(const weights30 *r, FILE *out)
{
    int next = 0;
    fprintf(out, "  heat: the paper's (-L + M H) w_j = M H p_j with c = %g; blender: Blender 3.4's variant\n"
            "  (its Laplacian a quarter of the paper's, boundary edges whole, distance over (cos + 1.001) / 2,\n"
            "  the nearest bone whether seen or not, weights below 0.05 cut and none normalised).\n"
            "  One CHOLMOD factorisation and one solve per joint each; the checks are on the solutions.\n",
            r->options.heat_c);
    for (int kind = 0; kind < 2; kind++) {
        const weights30_rig *w = &r->rig[kind];
        const heat_bone *b = w->bones;
        fprintf(out, "\n  %s rig: bones (%g,%g,%g)-(%g,%g,%g) and (%g,%g,%g)-(%g,%g,%g); %d vertices see no bone\n",
                rig30_kind_name((rig30_kind)kind), b[0].a.x, b[0].a.y, b[0].a.z, b[0].b.x, b[0].b.y, b[0].b.z,
                b[1].a.x, b[1].a.y, b[1].a.z, b[1].b.x, b[1].b.y, b[1].b.z, w->heat[HEAT_PAPER].hidden);
        fprintf(out, "  the paper's model\n");
        rows(out, &r->checks.heat, &next, 5);
        fprintf(out, "  Blender's model (%d vertices see no bone)\n", w->heat[HEAT_BLENDER].hidden);
        rows(out, &r->checks.heat, &next, 4);
        fprintf(out, "  after Blender's cut a vertex's weights sum to %.6f .. %.6f (Blender's armature divides\n"
                "  by the sum when it deforms; the poses below do the same)\n", w->cut_sum_lo, w->cut_sum_hi);
        fprintf(out, "  %-5s %-6s %-9s %-18s %-18s %-10s %-10s %-10s\n", "ring", "z", "hand w_1", "heat w_1",
                "closed form", "continuum", "blender w1", "blender w0");
        for (int ring = 0; ring < RIG30_RINGS; ring++) {
            int v = ring * RIG30_SEGMENTS;
            char continuum[16];
            snprintf(continuum, sizeof continuum, isnan(w->continuum[ring]) ? "none" : "%.6f", w->continuum[ring]);
            fprintf(out, "  %-5d %-6.3f %-9.6f %-18.15f %-18.15f %-10s %-10.6f %-10.6f\n", ring,
                    r->rigs[0][kind].bind.vertices[v].z, w->child[WEIGHTS30_HAND][v], w->child[WEIGHTS30_HEAT][v],
                    w->closed_form[ring], continuum, w->child[WEIGHTS30_BLENDER][v], w->root[v]);
        }
        for (int model = 0; model < HEAT_MODELS; model++) {
            const heat_result *h = &w->heat[model];
            fprintf(out, "  cost (%s): %d vertices, a Cholesky factor of %.0f nonzeros, %.0f flops, CHOLMOD's peak\n"
                    "  %zu bytes; factorisation %.3g ms, %d solves %.3g ms\n", heat_model_names[model],
                    h->vertex_count, h->factor_nonzeros, h->flops, h->peak_bytes, 1e3 * h->factor_seconds,
                    RIG30_JOINTS, 1e3 * h->solve_seconds);
        }
    }
}

/* Per rig, its 7 checks, then the table. */
void weights30_report_bbw(const weights30 *r, FILE *out)
{
    int next = 0;
    fprintf(out, "  min 1/2 w_j^T L M^-1 L w_j with 0 <= w <= 1, w = 1 on joint j's handles and 0 on the\n"
            "  others' (Jacobson et al. 2011); handles: the bottom ring (root) and the top ring (child);\n"
            "  active sets over CHOLMOD factorisations, one joint at a time, then each vertex's weights\n"
            "  divided by their sum\n");
    for (int kind = 0; kind < 2; kind++) {
        const weights30_rig *w = &r->rig[kind];
        const bbw_result *b = &w->bbw;
        fprintf(out, "\n  %s rig\n", rig30_kind_name((rig30_kind)kind));
        rows(out, &r->checks.bbw, &next, 7);
        fprintf(out, "  active-set rounds per joint: %d, %d; vertices held at a bound: %d; Q has %.0f entries\n",
                b->iterations[0], b->iterations[1], b->active, b->q_nonzeros);
        fprintf(out, "  %-5s %-6s %-9s %-18s %-18s %-10s\n", "ring", "z", "hand w_1", "bbw w_1", "ring system",
                "x 44");
        for (int ring = 0; ring < RIG30_RINGS; ring++) {
            int v = ring * RIG30_SEGMENTS;
            fprintf(out, "  %-5d %-6.3f %-9.6f %-18.15f %-18.15f %-10.6f\n", ring,
                    r->rigs[0][kind].bind.vertices[v].z, w->child[WEIGHTS30_HAND][v], w->child[WEIGHTS30_BBW][v],
                    w->bbw_ring[ring], 44.0 * w->bbw_ring[ring]);
        }
    }
}

void weights30_report_poses(const weights30 *r, FILE *out)
{
    fprintf(out, "  middle and top ring: each one's mean radius about its own centre (closed form: the\n"
            "  article's r'/r for an LBS twist, 1 for DQS); inner: the inner elbow's closest distance to\n"
            "  the joint; volume: against the bind mesh, ends closed; narrowest \"all\": every ring\n"
            "  within 1e-12\n");
    fprintf(out, "  %-12s %-7s %-4s %-18s %-18s %-8s %-13s %-8s %-8s\n", "pose", "w", "", "middle ring", "closed form",
            "top ring", "narrowest", "inner", "volume");
    for (int i = 0; i < WEIGHTS30_RESULTS; i++) {
        const weights30_result *x = &r->result[i];
        char pose[32], closed[32], inner[16];
        snprintf(pose, sizeof pose, "%s %g", rig30_kind_name(weights30_pose_kind[x->pose]), weights30_pose_deg[x->pose]);
        snprintf(closed, sizeof closed, isnan(x->closed_form_radius) ? "none" : "%.15f", x->closed_form_radius);
        snprintf(inner, sizeof inner, isnan(x->inner_elbow) ? "-" : "%.4f", x->inner_elbow);
        char narrowest[32];
        if (x->rings_equal) /* within RIG30_CHECK_TOLERANCE: no ring is the narrowest */
            snprintf(narrowest, sizeof narrowest, "all %.4f", x->narrowest_radius);
        else
            snprintf(narrowest, sizeof narrowest, "ring %d %.4f", x->narrowest_ring, x->narrowest_radius);
        fprintf(out, "  %-12s %-7s %-4s %-18.15f %-18s %-8.4f %-13s %-8s %-8.4f\n", pose, weights30_set_name(x->set),
                skin_method_name(x->method), x->middle_radius, closed, x->top_radius, narrowest, inner,
                x->volume_ratio);
    }
    fprintf(out, "\n");
    report_rows(out, &r->checks.poses);
}

/* Per asset and set: bbw's two KKT rows, bone heat's sums row, every set's backward error
 * row, in the order weights30_check_assets decided them. */
void weights30_report_assets(const weights30 *r, FILE *out)
{
    int next = 0;
    fprintf(out, "  each asset's bind mesh and its skeleton as bones: bone heat (the paper's) on the mesh\n"
            "  welded where vertices share a position, Blender's on the vertices as glTF splits them (as\n"
            "  Blender's importer keeps them); the artist's weights from JOINTS_0 / WEIGHTS_0, used\n"
            "  divided by their sum\n");
    for (int i = 0; i < r->asset_count; i++) {
        const weights30_asset *a = &r->asset[i];
        fprintf(out, "\n  %s: %d vertices (%d welded), %d triangles (%d more repeat an index and draw nothing; %d\n"
                "  folded by welding), %d joints as %d bones\n", a->name, a->vertex_count, a->welded.vertex_count,
                a->triangle_count, a->repeated, a->folded, a->joint_count, a->bone_count);
        for (int set = 1; set < WEIGHTS30_SETS; set++) {
            const weights30_versus *x = &a->versus[set - 1];
            const heat_result *h = &a->heat[set == WEIGHTS30_BLENDER ? HEAT_BLENDER : HEAT_PAPER];
            if (x->not_computed[0]) {
                fprintf(out, "  %s: not computed (not the set written): %s\n", weights30_set_name((weights30_set)set),
                        x->not_computed);
                continue;
            }
            if (set == WEIGHTS30_BBW) {
                const bbw_result *b = &a->bbw;
                int most = 0, total = 0;
                for (int j = 0; j < a->joint_count; j++)
                    most = b->iterations[j] > most ? b->iterations[j] : most, total += b->iterations[j];
                fprintf(out, "  bbw: %d handle vertices (each joint's nearest within 1.1 times the nearest one's\n"
                        "  distance); active-set rounds %d in all, %d at most for one joint; %d vertex values held\n"
                        "  at a bound at the end; %.4g operations (--bbw-budget %.4g)\n", a->handle_count,
                        total, most, b->active, b->work, r->options.bbw_budget);
                if (a->handle_parts)
                    fprintf(out, "  %d connected parts had no handle: each took its vertex nearest a bone, and follows\n"
                            "  that joint whole\n", a->handle_parts);
                rows(out, &r->checks.assets, &next, 2);
                fprintf(out, "  the joints' minimisers summed to 1 within %.3g before the division\n", b->sum_error);
            } else {
                fprintf(out, "  %s: %d obtuse triangles, %d vertices see no bone\n", weights30_set_name((weights30_set)set),
                        h->obtuse_triangles, h->hidden);
                if (h->unseen_parts)
                    fprintf(out, "  %d connected parts (%d vertices) see no bone at all: %s\n", h->unseen_parts,
                            h->unseen_vertices, set == WEIGHTS30_BLENDER ? "no weight (Blender leaves them unweighted)"
                                                                         : "their nearest bones' weights");
            }
            rows(out, &r->checks.assets, &next, set != WEIGHTS30_BBW ? 2 : 1);
            if (x->negative_count == 0)
                fprintf(out, "  smallest weight %.3g: none below 0 (with obtuse triangles that is not guaranteed)\n",
                        x->min_weight);
            else /* a negative cotangent weight: -L + M H is no longer an M-matrix */
                fprintf(out, "  smallest weight %.3g: %d weights below -1e-12, which obtuse triangles allow (a negative\n"
                        "  cotangent makes -L + M H other than an M-matrix); kept as solved\n", x->min_weight,
                        x->negative_count);
            if (set == WEIGHTS30_BLENDER)
                fprintf(out, "  after the cut, %d vertices keep no weight (Blender leaves them at the bind pose)\n",
                        x->weightless);
            fprintf(out, "  against the artist's: largest difference %.4f (vertex %d, joint %d), mean over\n"
                    "  vertices of the largest %.4f\n", x->max_weight_difference, x->max_weight_vertex,
                    x->max_weight_joint, x->mean_weight_difference);
            fprintf(out, "  mean difference per joint:");
            for (int j = 0; j < a->joint_count; j++)
                fprintf(out, "%s %d: %.3f", j % 6 == 0 ? "\n   " : "", j, x->joint_difference[j]);
            fprintf(out, "\n  skinned over the animation (%d times from %g to %g s), LBS: largest distance %.4f\n"
                    "  of the model's size %.4f (at %g s), mean %.4f\n", WEIGHTS30_ASSET_TIMES, a->t0, a->t1,
                    x->max_position_difference, a->size, x->max_position_time, x->mean_position_difference);
            fprintf(out, "  cut to the %d heaviest a vertex (%d vertices had more): weights change by %.3g at most,\n"
                    "  positions over the animation by %.3g of the model's size at most\n", a->influences, x->over_k,
                    x->cut_weight_change, x->cut_position_change);
            if (a->influences > 4)
                fprintf(out, "  some engines read only the first JOINTS_0 / WEIGHTS_0 set, its 4 heaviest divided by\n"
                        "  their sum (three.js's glTF loader): this asset then deforms by up to %.3g of its size\n"
                        "  differently from the %d weights written\n", x->first_set_change, a->influences);
            if (set != WEIGHTS30_BBW)
                fprintf(out, "  cost: a Cholesky factor of %.0f nonzeros, %.0f flops, CHOLMOD's peak %zu bytes;\n"
                        "  factorisation %.3g ms, %d solves %.3g ms\n", h->factor_nonzeros, h->flops, h->peak_bytes,
                        1e3 * h->factor_seconds, a->joint_count, 1e3 * h->solve_seconds);
        }
    }
}

