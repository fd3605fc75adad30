/* evidence.c - JSON and CSV helpers with round-trip numbers (see evidence.h). */
#include "evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

cJSON *json_number(double x)
{
    char buf[32];
    if (!isfinite(x))
        return cJSON_CreateNull();
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

lab_error json_to_bytes(const cJSON *root, bytes *out, lab_diag *d)
{
    char *text = cJSON_Print(root);
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
    }
}
