/* evidence.c - JSON and CSV helpers with round-trip numbers (see evidence.h). */
#include "program/evidence.h"

#include "base/json_memory.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* The failures json_memory had counted at the end of this thread's last json_to_bytes. */
static _Thread_local long failures_seen;

/* The marker of a non-finite number, found again by json_to_bytes. */
#define NOT_FINITE_MARKER "not-finite"

cJSON *json_number(double x)
{
    char buf[32];
    if (!isfinite(x))
        return cJSON_CreateRaw(NOT_FINITE_MARKER);
    /* cJSON's own printer may drop the 17th digit; a raw item keeps our exact text. */
    return cJSON_CreateRaw(format_double(buf, x));
}

cJSON *json_vec3(vec3 p)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, json_number(p.x));
    cJSON_AddItemToArray(a, json_number(p.y));
    cJSON_AddItemToArray(a, json_number(p.z));
    return a;
}

cJSON *json_mat4(mat4 m)
{
    cJSON *rows = cJSON_CreateArray();
    for (int i = 0; i < 4; i++)
        cJSON_AddItemToArray(rows, json_number_array(m.m[i], 4));
    return rows;
}

cJSON *json_vec3_array(const vec3 *points, int count)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < count; i++)
        cJSON_AddItemToArray(a, json_vec3(points[i]));
    return a;
}

cJSON *json_mat4_array(const mat4 *matrices, int count)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < count; i++)
        cJSON_AddItemToArray(a, json_mat4(matrices[i]));
    return a;
}

cJSON *json_number_or_null(double x)
{
    return isnan(x) ? cJSON_CreateNull() : json_number(x);
}

cJSON *json_number_or_null_array(const double *values, int count)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < count; i++)
        cJSON_AddItemToArray(a, json_number_or_null(values[i]));
    return a;
}

cJSON *json_number_array(const double *values, int count)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < count; i++)
        cJSON_AddItemToArray(a, json_number(values[i]));
    return a;
}

cJSON *json_add_number(cJSON *obj, const char *key, double x)
{
    cJSON *item = json_number(x);
    if (item && !cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return NULL;
    }
    return item;
}

cJSON *json_evidence_root(const char *lab)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "lab", lab);
    cJSON_AddItemToObject(root, "conventions", json_conventions());
    return root;
}

cJSON *json_conventions(void)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "handedness", "right-handed");
    cJSON_AddStringToObject(c, "vectors", "column vectors, p' = M p");
    cJSON_AddStringToObject(c, "storage", "row-major m[row][col], translation in m[0..2][3]");
    cJSON_AddStringToObject(c, "angles", "radians in the code, degrees in theta_deg and labels");
    cJSON_AddStringToObject(c, "skin_matrix", "C_j = G_j * B_j^-1");
    return c;
}

/* The JSON pointer of the first non-finite marker below item (at `path`), or false. */
static bool find_not_finite(const cJSON *item, char *path, size_t size)
{
    if (cJSON_IsRaw(item) && item->valuestring && !strcmp(item->valuestring, NOT_FINITE_MARKER))
        return true;
    size_t len = strlen(path);
    int index = 0;
    for (const cJSON *c = item->child; c; c = c->next, index++) {
        if (cJSON_IsObject(item))
            snprintf(path + len, size - len, "/%s", c->string ? c->string : "");
        else
            snprintf(path + len, size - len, "/%d", index);
        if (find_not_finite(c, path, size))
            return true;
    }
    path[len] = '\0';
    return false;
}

lab_error json_to_bytes(const cJSON *root, bytes *out, lab_diag *d)
{
    long failed = json_memory_failures() - failures_seen;
    failures_seen += failed;
    if (failed > 0 || !root)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "JSON document",
                         "%ld allocations failed while it was built", failed);
    char path[512] = "";
    if (find_not_finite(root, path, sizeof path))
        return diag_fail(d, LAB_ERR_NOT_FINITE, "JSON document", "the value at %s is NaN or infinite",
                         path[0] ? path : "/");
    char *text = cJSON_Print(root);
    failures_seen = json_memory_failures();
    if (!text)
        return diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "JSON printer", "%s", "cJSON_Print failed");
    bytes_append(out, text, strlen(text));
    bytes_append(out, "\n", 1);
    free(text);
    return out->failed ? diag_fail(d, LAB_ERR_OUT_OF_MEMORY, "JSON printer", "%s", "buffer")
                       : LAB_OK;
}

void csv_number(bytes *out, double x)
{
    char buf[32];
    if (isfinite(x)) {
        format_double(buf, x);
        bytes_append(out, buf, strlen(buf));
    } else if (out->not_finite_line == 0) {
        size_t line = 1;
        for (size_t i = 0; i < out->len; i++)
            line += out->data[i] == '\n';
        out->not_finite_line = line;
    }
}

void csv_number_or_empty(bytes *out, double x)
{
    if (!isnan(x))
        csv_number(out, x);
}

static void row(bytes *out, const double *fields, int count, void (*field)(bytes *, double))
{
    for (int f = 0; f < count; f++) {
        if (f)
            bytes_append(out, ",", 1);
        field(out, fields[f]);
    }
    bytes_append(out, "\n", 1);
}

void csv_row(bytes *out, const double *fields, int count) { row(out, fields, count, csv_number); }
void csv_row_or_empty(bytes *out, const double *fields, int count) { row(out, fields, count, csv_number_or_empty); }

cJSON *json_camera(const camera *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "view", json_mat4(c->view));
    cJSON_AddItemToObject(o, "projection", json_mat4(c->projection));
    cJSON_AddItemToObject(o, "viewport", cJSON_CreateIntArray((const int[]){c->viewport.x,
                                            c->viewport.y, c->viewport.width, c->viewport.height}, 4));
    return o;
}

cJSON *json_rejection(lab_error code, lab_error expected, const lab_diag *d)
{
    char msg[700];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "rejected", code == expected);
    diag_format(d, msg, sizeof msg);
    cJSON_AddStringToObject(o, "message", code == LAB_OK ? "accepted" : msg);
    return o;
}

lab_error output_batch_add_json(output_batch *batch, const char *name, cJSON *root, lab_diag *d)
{
    bytes text = {0};
    lab_error e = json_to_bytes(root, &text, d);
    cJSON_Delete(root);
    if (e == LAB_OK)
        return output_batch_add(batch, name, &text, d);
    bytes_free(&text);
    return e;
}
