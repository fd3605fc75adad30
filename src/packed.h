/* packed.h - engine-format skinning data in float32 (Game Engine Architecture 13.5):
 * at most four joints per vertex as 16-bit indices, three stored weights with the fourth
 * implied, and a matrix palette of float 3x4 rows rebuilt once per frame.
 *
 * Layout, chosen for the cache: one stream per attribute (structure of arrays), so a
 * positions-only pass never loads normals:
 *   position   float[3]        12 bytes      normal   float[3]          12 bytes
 *   joint      uint16[K]       2K bytes      weight   float[K-1]        4(K-1) bytes
 * K = 4 gives the GEA vertex's 44 bytes (32 for a positions-only pass). K may also be
 * 1, 2 or 8 for the benchmark; the implied weight is always the last, 1 - sum of the rest.
 * Influences are sorted by weight, heaviest first, so slot 0 is also DQS's pivot.
 */
#ifndef PACKED_H
#define PACKED_H

#include <stdint.h>

#include "dualquat.h"
#include "linalg.h"
#include "skin.h"

#define PACKED_MAX_INFLUENCES 8
/* A computed implied weight below -PACKED_WEIGHT_TOLERANCE is an error, not noise. */
#define PACKED_WEIGHT_TOLERANCE 1e-6f

typedef struct {
    int count;              /* vertices, 0 <= v < count */
    int influences;         /* K, 1 <= K <= PACKED_MAX_INFLUENCES */
    int max_joint;          /* the largest joint index used: the palette needs max_joint + 1 */
    float *position;        /* 3 per vertex */
    float *normal;          /* 3 per vertex */
    uint16_t *joint;        /* K per vertex */
    float *weight;          /* K - 1 per vertex (may be NULL when K = 1) */
} packed_mesh;

/* What packing dropped: vertices with more than K non-zero influences keep the K
 * heaviest, renormalised. */
typedef struct {
    int truncated_vertices;
    double largest_dropped_weight;
    int largest_dropped_vertex;     /* -1 when nothing was dropped */
} packed_report;

/* Packs the lab's double-precision influences (any K of skin.h, already validated: finite,
 * non-negative, summing to 1) into K = `influences` slots, heaviest first, truncating and
 * renormalising where a vertex has more (report says where). Allocates *out; free with
 * packed_mesh_free. */
lab_error packed_mesh_build(const vec3 *positions, const vec3 *normals, const skin_influences *in,
                            int influences, packed_mesh *out, packed_report *report, lab_diag *d);
void packed_mesh_free(packed_mesh *m);
size_t packed_bytes_per_vertex(int influences, int with_normals);

/* The implied weight of vertex v's last slot. */
float packed_implied_weight(const packed_mesh *m, int v);

/* Palette entries: K_j = G_j B_j^-1 (optionally merged with model-to-world, W K_j) as
 * float 3x4 rows (48 bytes), and the same transforms as dual quaternions (32 bytes). */
typedef struct { float m[3][4]; } palette_matrix;
typedef struct { float real[4], dual[4]; } palette_dualquat; /* {w, x, y, z} each */

void palette_from_mat4(const mat4 *skin, int joint_count, const mat4 *model_to_world,
                       palette_matrix *out);
void palette_from_dualquats(const dualquat *skin, int joint_count, palette_dualquat *out);

#endif
