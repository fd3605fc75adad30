/* gltf.h - a glTF 2.0 reader on top of cJSON: .gltf (data-URI or external .bin buffers)
 * and .glb; accessors with strides, offsets, every component type, normalised integers and
 * sparse storage; node hierarchies with TRS or matrices; skins; every JOINTS_n / WEIGHTS_n
 * set; animations (STEP, LINEAR with slerp, CUBICSPLINE) sampled at any time.
 *
 * The rules the article insists on (glTF 2.0 section 3.7.3, 5.28.1):
 *   - JOINTS_n values index skin.joints, not scene nodes;
 *   - a missing inverseBindMatrices means identity matrices, never "invert the joint's
 *     bind world matrix";
 *   - the skinned mesh node's own transform is ignored: the skinned positions live in the
 *     space of the joints' world matrices (the scene's world).
 *
 * Parsing (gltf_parse) reads the JSON's shapes and decodes the buffers; validation
 * (gltf_validate) checks every index and byte range and the skinning data, and names the
 * JSON pointer of what it refuses ("/accessors/3/count"). Nothing reads a buffer before
 * validation has passed, so a hostile file gets an error, never an out-of-bounds read.
 * Matrices are converted from glTF's column-major order at this boundary.
 */
#ifndef GLTF_H
#define GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "math/dualquat.h"
#include "skin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How far a joint matrix's 3x3 part may be from a rotation for DQS: 1e-5, about 170
 * float32 roundoffs (2^-24); RiggedSimple's joint matrices are off by 3.5e-08. */
#define GLTF_RIGID_TOLERANCE 1e-5
#define GLTF_MAX_SETS 8                  /* JOINTS_0..7: up to 32 influences per vertex */

typedef struct {
    uint8_t *data;
    size_t size;
    bool fallback;                       /* EXT_meshopt_compression's: no data, never read */
} gltf_buffer;

/* EXT_meshopt_compression on a bufferView (gltf_meshopt.c): where the compressed bytes are,
 * and how they decode into the view's count x stride bytes. */
typedef enum { GLTF_MESHOPT_ATTRIBUTES, GLTF_MESHOPT_TRIANGLES, GLTF_MESHOPT_INDICES } gltf_meshopt_mode;
typedef enum { GLTF_MESHOPT_NONE, GLTF_MESHOPT_OCTAHEDRAL, GLTF_MESHOPT_QUATERNION, GLTF_MESHOPT_EXPONENTIAL } gltf_meshopt_filter;
typedef struct {
    bool on;
    int buffer;
    size_t offset, length, stride;
    long count;
    gltf_meshopt_mode mode;
    gltf_meshopt_filter filter;
} gltf_meshopt;

typedef struct {
    int buffer;
    size_t offset, length, stride;
    gltf_meshopt meshopt;                /* decoded by gltf_validate into a buffer of its own */
} gltf_view;

typedef struct {
    int view;                            /* -1: all zeros (a sparse accessor may fill it) */
    size_t offset;
    int component_type;                  /* 5120 byte .. 5126 float */
    int components;                      /* 1 SCALAR, 2, 3, 4 VEC, 4 MAT2, 9 MAT3, 16 MAT4 */
    bool normalized;
    int count;
    int sparse_count;                    /* 0: not sparse */
    int sparse_index_view, sparse_index_type;
    size_t sparse_index_offset;
    int sparse_value_view;
    size_t sparse_value_offset;
    bool has_bounds;                     /* a VEC3 accessor's min and max, as the file declares them */
    bool from_draco;                     /* its data decoded from a Draco stream (lossy: quantized there) */
    double min[3], max[3];
} gltf_accessor;

typedef struct {
    int parent;                          /* -1 for a root (derived from children) */
    double *weights;                     /* morph weights overriding its mesh's; NULL: none */
    int weight_count;
    int mesh, skin;                      /* -1 when absent */
    int *children, child_count;
    bool has_matrix;
    mat4 matrix;                         /* row-major, converted */
    vec3 translation, scale;
    quat rotation;
    char *name;                          /* the node's "name", NULL when it has none */
} gltf_node;

typedef struct { int *joints, joint_count, inverse_bind, skeleton; } gltf_skin; /* -1: absent */

/* A morph target: per-vertex deltas added to the base before skinning. */
typedef struct { int position, normal; } gltf_target; /* accessors; -1 when absent */

/* KHR_draco_mesh_compression on a primitive (gltf_draco.c): the bufferView of its Draco
 * stream and the Draco attribute ids of the attributes the reader uses. */
typedef struct {
    int view;                            /* -1: the primitive is not compressed */
    int position, normal;                /* -1 when the stream does not hold it */
    int joints[GLTF_MAX_SETS], weights[GLTF_MAX_SETS];
} gltf_draco;

/* A primitive named by its mesh and its place in the mesh. */
typedef struct { int mesh, primitive; } gltf_primitive_ref;

/* What a primitive's vertices draw (glTF's numbers; 4 when "mode" is absent). */
typedef enum {
    GLTF_POINTS, GLTF_LINES, GLTF_LINE_LOOP, GLTF_LINE_STRIP, GLTF_TRIANGLES, GLTF_TRIANGLE_STRIP, GLTF_TRIANGLE_FAN
} gltf_mode;
const char *gltf_mode_name(gltf_mode mode);   /* "TRIANGLES" */

typedef struct {
    gltf_draco draco;                    /* decoded by gltf_validate into plain accessors */
    gltf_mode mode;
    int position, indices;               /* accessors; indices -1 when absent */
    int normal;                          /* the NORMAL accessor, -1 when absent */
    gltf_target *targets;                /* target_count of them, any number */
    int target_count;
    int joints[GLTF_MAX_SETS], weights[GLTF_MAX_SETS];
    int sets;                            /* JOINTS_0 .. JOINTS_{sets-1} */
} gltf_primitive;

typedef struct {
    gltf_primitive *primitives;
    int primitive_count;
    double *weights;                     /* default morph weights; NULL: all zero */
    int weight_count;
} gltf_mesh;

typedef enum { GLTF_STEP, GLTF_LINEAR, GLTF_CUBICSPLINE } gltf_interpolation;
typedef enum { GLTF_TRANSLATION, GLTF_ROTATION, GLTF_SCALE, GLTF_MORPH_WEIGHTS } gltf_path;
typedef struct { int input, output; gltf_interpolation interpolation; } gltf_sampler;
typedef struct { int sampler, node; gltf_path path; } gltf_channel;
typedef struct {
    gltf_sampler *samplers;
    int sampler_count;
    gltf_channel *channels;
    int channel_count;
    char *name;                          /* the animation's "name", NULL when it has none */
} gltf_animation;

/* What one asset may ask for, checked by gltf_validate before anything is allocated for
 * it, so that the work and memory of a run are bounded by these numbers and the file's
 * size (GLTF_MAX_FILE), not by a count a few bytes of JSON can claim. A field left 0 takes
 * its default. lab30-gltf raises them with --max-vertices, --max-nodes, --max-joints,
 * --max-targets and --max-morph-deltas.
 *
 * The morph limits: a facial rig of blend shapes has tens to hundreds of targets (ARKit's
 * face tracking defines 52); 1,024 targets leaves room for the largest. Morphing costs
 * targets x vertices multiply-adds per primitive per sampled time, and a file can point
 * every target at one accessor and every node at one mesh, so that product, summed over
 * every node's primitives, is limited too: 2^26, a 65,536-vertex head with 1,024 targets. */
typedef struct {
    int max_vertices;          /* POSITION elements of one primitive; default 1,048,576 */
    int max_nodes;             /* nodes of the asset; default 65,536 */
    int max_joints;            /* joints of one skin; default 4,096 */
    int max_targets;           /* morph targets of one primitive; default 1,024 */
    int max_morph_deltas;      /* sum over nodes' primitives of targets x vertices; default 2^26 */
} gltf_limits;
#define GLTF_DEFAULT_MAX_VERTICES (1 << 20)
#define GLTF_DEFAULT_MAX_NODES (1 << 16)
#define GLTF_DEFAULT_MAX_JOINTS (1 << 12)
#define GLTF_DEFAULT_MAX_TARGETS (1 << 10)
#define GLTF_DEFAULT_MAX_MORPH_DELTAS (1 << 26)
/* Any accessor's element count is bounded by 8 x max_vertices (indices: about 6 per vertex). */
#define GLTF_ELEMENTS_PER_VERTEX 8

typedef struct {
    gltf_limits limits;        /* zeros (the defaults) after parsing; set before gltf_validate */
    gltf_buffer *buffers;      int buffer_count;
    gltf_view *views;          int view_count;
    gltf_accessor *accessors;  int accessor_count;
    gltf_node *nodes;          int node_count;
    gltf_skin *skins;          int skin_count;
    gltf_mesh *meshes;         int mesh_count;
    gltf_animation *animations; int animation_count;
    bool quantized;            /* KHR_mesh_quantization: integer POSITION, NORMAL and deltas */
    size_t decoded_bytes;      /* what the compressed views and Draco streams decoded into */
    int parsed_buffer_count;   /* the file's buffers: the ones after them hold decoded data */
    char *unread_extensions;   /* extensionsUsed this reader ignores, ", "-separated; NULL: none */
    char *json;                /* the document's JSON text as read (json_size bytes and a NUL):
                                * what gltf_rewrite writes back */
    size_t json_size;
    char *base_dir;            /* where its external files are (a copy of gltf_parse's), or NULL */
    bool validated;
} gltf_document;

/* The extensions this reader reads, NULL-terminated. An asset that lists another in
 * extensionsRequired is refused (LAB_ERR_GLTF_EXTENSION, "uses X, which this reader does not
 * read"); one listed only in extensionsUsed is ignored and named in unread_extensions. The
 * three it reads: KHR_mesh_quantization (below), EXT_meshopt_compression and
 * KHR_draco_mesh_compression (decoded by gltf_validate, below).
 *   KHR_mesh_quantization: POSITION as float or any 8- or 16-bit integer, normalized or not;
 *     NORMAL as float, normalized byte or short; morph-target POSITION deltas as float,
 *     byte or short, normalized or not; NORMAL deltas as NORMAL. Read as doubles like any
 *     accessor (normalized: c / 127, c / 255, c / 32767, c / 65535, signed ones at least -1);
 *     the dequantizing transform is the file's own (a node's, or inverse binds). */
extern const char *const gltf_read_extensions[];

/* EXT_meshopt_compression: each compressed view's fields checked (its source range inside a
 * buffer that is not a fallback, count x byteStride = the view's byteLength, the strides and
 * filters each mode allows), then decoded with libmeshoptimizer, which only a child
 * process opens (src/base/library.h: a C++ library that glibc's loader may end the process
 * for), and only for an asset that uses the extension (meshopt_decodeVertexBuffer,
 * meshopt_decodeIndexBuffer, meshopt_decodeIndexSequence, and the octahedral, quaternion and
 * exponential filters) into a new buffer. The decoded views together hold at most
 * GLTF_MAX_DECODED bytes (with Draco's). A stream the library refuses is refused naming the view,
 * the function and its result. */
#define GLTF_MAX_DECODED (256u << 20)
lab_error gltf_meshopt_decode(gltf_document *doc, lab_diag *d);

/* KHR_draco_mesh_compression: each compressed primitive's stream (its bufferView checked
 * inside its buffer) decoded with Debian's libdraco through the one C++ file
 * (gltf_draco_bridge.h, built as build/lib/libskinlab-draco.so), in a child process, the
 * only one that opens it; then every attribute the reader uses (POSITION, NORMAL, JOINTS_n,
 * WEIGHTS_n, through the extension's attribute map) and the indices written into new
 * buffers in their accessors' componentType and normalization, the accessors pointed at
 * them: everything after reads plain accessors. Refused naming the primitive's extension:
 * a stream the decoder refuses (with its message), a point or face count that is not the
 * accessor's, a component count that differs, a value the accessor's type cannot hold.
 * Decoded data counts towards GLTF_MAX_DECODED with meshopt's. */
lab_error gltf_draco_decode_all(gltf_document *doc, lab_diag *d);

/* Parses .gltf JSON or .glb (told apart by the "glTF" magic). External buffers are read
 * relative to base_dir (NULL: none allowed); they must be plain relative paths. */
lab_error gltf_parse(const uint8_t *data, size_t size, const char *base_dir, gltf_document *out,
                     lab_diag *d);
/* Reads the file and parses it, resolving buffers next to it. */
lab_error gltf_load(const char *path, gltf_document *out, lab_diag *d);
void gltf_free(gltf_document *doc);

/* Every index, byte range, count and the skin data (joint indices inside skin.joints,
 * non-negative weights, no joint twice with a non-zero weight, affine inverse binds),
 * plus the node graph (one parent each, no cycles). Must pass before anything is read.
 * It first decodes the views compressed with EXT_meshopt_compression (gltf_meshopt_decode),
 * each into a new buffer the view then points to, so that everything after reads plain
 * views. */
lab_error gltf_validate(gltf_document *doc, lab_diag *d);

/* Accessor a as doubles, count * components of them (normalised integers mapped to
 * [0, 1] or [-1, 1], sparse values applied). */
lab_error gltf_accessor_read(const gltf_document *doc, int a, double *out, lab_diag *d);

/* How many accessors this thread has decoded with gltf_accessor_read so far: the reader's
 * unit of cost. gltf_validate decodes each accessor at most once, however many nodes,
 * primitives or morph targets use it (tests count it on hostile files). */
long gltf_accessor_reads(void);

/* Animation `animation`'s time range [*start, *end] over all its samplers' inputs; 0, 0
 * when there is no such animation or the document is not validated.
 * LAB_ERR_OUT_OF_MEMORY when an input cannot be read for want of memory. */
lab_error gltf_animation_range(const gltf_document *doc, int animation, double *start, double *end, lab_diag *d);

/* Node locals at time t: TRS of every node with the animation's channels applied (times
 * clamped to the sampler's range). out[i] = local matrix of node i. */
lab_error gltf_sample_locals(const gltf_document *doc, int animation, double t, mat4 *out, lab_diag *d);

/* World matrices from locals along the hierarchy: G_i = G_parent L_i, each node once
 * (linear in the nodes, however deep). A world matrix that overflows (finite locals whose
 * product is not, e.g. scale 1e300 on two nested nodes) is refused naming the node. */
lab_error gltf_world_matrices(const gltf_document *doc, const mat4 *locals, mat4 *out_world, lab_diag *d);

/* The skinned positions of one primitive of a skinned mesh node: its morph targets first
 * (morph_weights, the mesh's target count of them; NULL: none applied), as the
 * specification orders them, then joint matrices J_j = G(skin.joints[j]) IBM_j and LBS
 * (sum w J p) or DQS over all the vertex's influences; DQS takes a joint matrix as rigid
 * within GLTF_RIGID_TOLERANCE, since glTF's float32 nodes and inverse binds give rotations
 * only to float precision. Weight sums follow the policy: strict rejects |W - 1| > 2e-7 per weight
 * component (the validator's tolerance), normalize divides and counts the vertices.
 * out_positions has the primitive's POSITION count; *normalized (may be NULL) counts the
 * vertices whose weights were divided by their sum. */
lab_error gltf_skin_primitive(const gltf_document *doc, int node, int primitive, const mat4 *world,
                              const double *morph_weights, skin_method method, skin_policy_kind policy,
                              vec3 *out_positions, int *normalized, lab_diag *d);

/* What a skinned primitive blends, read by glTF's rules: its bind positions with the
 * node's morph targets applied (morph_weights as above), its influences from JOINTS_n and
 * WEIGHTS_n (indices into skin.joints, not nodes) under the weight policy and renormalised
 * (none where the primitive has no JOINTS_n: influences.vertex_count is 0), and the skin's
 * inverse bind matrices IBM_j (identity where it has none). gltf_skin_primitive is this,
 * then J_j = G(skin.joints[j]) IBM_j and the blend; lab30-gltf.c writes those two steps in
 * its own lines. The caller frees a read input with gltf_skin_input_free (nothing to free
 * after an error). */
typedef struct {
    vec3 *bind;                   /* vertex_count positions, morphed */
    skin_influences influences;   /* joint indices into joints[] (skin.joints) */
    mat4 *inverse_bind;           /* joint_count IBM_j */
    const int *joints;            /* skin.joints: joint j's node (the document's) */
    int vertex_count, joint_count;
    int normalized;               /* vertices whose weights the policy divided by their sum */
} gltf_skin_input;
lab_error gltf_skin_input_read(const gltf_document *doc, int node, int primitive, const double *morph_weights,
                               skin_policy_kind policy, gltf_skin_input *out, lab_diag *d);
void gltf_skin_input_free(gltf_skin_input *in);
/* LAB_ERR_NOT_FINITE naming the first skinned position that overflowed (finite joints and
 * inverse binds may still overflow), or LAB_OK. */
lab_error gltf_skinned_finite(const gltf_document *doc, int node, int primitive, const vec3 *positions, int count,
                              lab_diag *d);

/* The positions of one primitive of a mesh node without a skin: its morph targets first
 * (morph_weights as for gltf_skin_primitive; NULL: none), then the node's own world matrix
 * (world[node], from gltf_world_matrices), as glTF places an unskinned mesh.
 * out_positions has the primitive's POSITION count. */
lab_error gltf_place_primitive(const gltf_document *doc, int node, int primitive, const mat4 *world,
                               const double *morph_weights, vec3 *out_positions, lab_diag *d);

/* One primitive of a skinned mesh node at time t of an animation (-1: none), in one call:
 * gltf_sample_locals, gltf_world_matrices, the node's morph weights
 * (gltf_sample_morph_weights, into morph_weights when it is not NULL: gltf_node_target_count
 * of them), then gltf_skin_primitive. Its node matrices are allocated here. */
lab_error gltf_skin_at(const gltf_document *doc, int animation, double t, int node, int primitive,
                       skin_method method, skin_policy_kind policy, vec3 *out_positions, double *morph_weights,
                       int *normalized, lab_diag *d);

/* ---- morph targets (glTF 2.0, 3.7.2.2) --------------------------------------------------
 * Every primitive of a mesh has the same number of targets; each target's POSITION and
 * NORMAL deltas are float VEC3 with the POSITION's count (a mismatch is refused, named by
 * its JSON pointer). The weights: node.weights, else mesh.weights, else zeros, each as
 * long as the targets; an animation channel with path "weights" replaces them over time
 * (STEP, LINEAR or CUBICSPLINE; its output holds keys x targets values, x3 for
 * CUBICSPLINE). Weights may lie outside [0, 1]: that rule is for skin weights only. */

/* The morph targets of node's mesh (0 when it has none or no mesh). */
int gltf_node_target_count(const gltf_document *doc, int node);
/* The node's morph weights at time t of the animation (-1: none), gltf_node_target_count
 * of them, into out. */
lab_error gltf_sample_morph_weights(const gltf_document *doc, int animation, double t, int node, double *out,
                                    lab_diag *d);
/* A primitive's morphed bind data: POSITION + sum w_k dPOSITION_k into positions, and
 * NORMAL + sum w_k dNORMAL_k into normals (may be NULL; the primitive must have NORMAL).
 * weights has the mesh's target count, or is NULL for the base alone. */
lab_error gltf_morph_primitive(const gltf_document *doc, int mesh, int primitive, const double *weights,
                               vec3 *positions, vec3 *normals, lab_diag *d);

/* Whether accessor a's data was decoded (EXT_meshopt_compression, KHR_draco_mesh_compression)
 * rather than stored as it is read. */
bool gltf_accessor_decoded(const gltf_document *doc, int a);

/* Vertex count of a primitive's POSITION accessor. */
int gltf_primitive_vertex_count(const gltf_document *doc, int mesh, int primitive);

/* The primitive's surface as a triangle list, 3 vertex indices a triangle, in a new *out
 * (free() it) of *count triangles: its indices, or 0, 1, 2, ... without them, read by its
 * mode (the specification's topology): TRIANGLES three at a time; TRIANGLE_STRIP triangle
 * i = (v_i, v_{i+1+i%2}, v_{i+2-i%2}), which keeps the strip's winding; TRIANGLE_FAN
 * triangle i = (v_{i+1}, v_{i+2}, v_0). A triangle that repeats an index draws nothing
 * (strips are joined that way) and is left out, counted in *dropped (may be NULL). POINTS
 * and the LINE modes have no surface: LAB_ERR_NOTHING_TO_DO at /meshes/M/primitives/P/mode.
 * A TRIANGLES count that is not a multiple of 3 is refused at .../indices (LAB_ERR_GLTF).
 * Indices must be in range (gltf_validate checks them). */
lab_error gltf_primitive_triangles(const gltf_document *doc, int mesh, int primitive, int **out, int *count,
                                   int *dropped, lab_diag *d);
/* A validated primitive's influences as stored, K = 4 per JOINTS_n / WEIGHTS_n set, into a
 * new *out (free with skin_influences_free); no weight policy applied. A primitive without
 * sets gives K = 0 and no arrays. */
lab_error gltf_primitive_influences(const gltf_document *doc, int mesh, int primitive, skin_influences *out,
                                    lab_diag *d);

#ifdef __cplusplus
}
#endif

#endif
