/* test_json_writer.c - the streaming JSON writer against cJSON's printer (an independent
 * implementation of the same layout): the same document gives the same text, byte for
 * byte; a NaN is never written; misnesting is refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "program/evidence.h"
#include "program/json_writer.h"

static void test_json_writer_prints_as_cjson_does(void **state)
{
    (void)state;
    /* the document through cJSON */
    cJSON *root = json_evidence_root("writer");
    cJSON_AddStringToObject(root, "name", "walk\x1b[2J\n \"quoted\" back\\slash caf\xc3\xa9");
    cJSON_AddNumberToObject(root, "index", -3);
    cJSON_AddNullToObject(root, "none");
    cJSON *times = cJSON_AddArrayToObject(root, "times");
    for (int k = 0; k < 2; k++) {
        cJSON *t = cJSON_CreateObject();
        json_add_number(t, "time", 0.1 * (k + 1));
        cJSON_AddItemToObject(t, "points", json_vec3_array((const vec3[]){{1, -0.5, 1e-17}, {2.5, 3, 4}}, 2));
        cJSON_AddItemToObject(t, "matrix", json_mat4(mat4_translate(1, 2, 3)));
        cJSON_AddItemToArray(times, t);
    }
    bytes expected = {0};
    assert_int_equal(json_to_bytes(root, &expected, NULL), LAB_OK);
    /* the same through the writer */
    bytes text = {0};
    json_writer w;
    json_writer_begin(&w, &text);
    json_writer_string(&w, "lab", "writer");
    cJSON *conventions = json_conventions();
    json_writer_item(&w, "conventions", conventions);
    cJSON_Delete(conventions);
    json_writer_string(&w, "name", "walk\x1b[2J\n \"quoted\" back\\slash caf\xc3\xa9");
    json_writer_int(&w, "index", -3);
    json_writer_null(&w, "none");
    json_writer_array(&w, "times");
    for (int k = 0; k < 2; k++) {
        json_writer_object(&w, NULL);
        json_writer_number(&w, "time", 0.1 * (k + 1));
        json_writer_array(&w, "points");
        const double p[2][3] = {{1, -0.5, 1e-17}, {2.5, 3, 4}};
        for (int i = 0; i < 2; i++) {
            json_writer_array(&w, NULL);
            for (int c = 0; c < 3; c++)
                json_writer_number(&w, NULL, p[i][c]);
            json_writer_end(&w);
        }
        json_writer_end(&w);
        cJSON *m = json_mat4(mat4_translate(1, 2, 3));
        json_writer_item(&w, "matrix", m);
        cJSON_Delete(m);
        json_writer_end(&w);
    }
    json_writer_end(&w);
    assert_int_equal(json_writer_finish(&w, NULL), LAB_OK);
    assert_string_equal((const char *)text.data, (const char *)expected.data);
    cJSON_Delete(root);
    bytes_free(&expected);
    bytes_free(&text);
}

static void test_json_writer_refuses_nan_and_misnesting(void **state)
{
    (void)state;
    bytes text = {0};
    json_writer w;
    lab_diag d = {0};
    json_writer_begin(&w, &text);
    json_writer_array(&w, "positions");
    json_writer_number(&w, NULL, 1.0);
    json_writer_end(&w);
    json_writer_number(&w, "radius", NAN);
    assert_int_equal(json_writer_finish(&w, &d), LAB_ERR_NOT_FINITE);
    assert_string_equal(d.where, "radius");
    assert_null(strstr((const char *)text.data, "nan"));
    bytes_free(&text);
    json_writer_begin(&w, &text);
    json_writer_array(&w, "open");
    assert_int_equal(json_writer_finish(&w, &d), LAB_ERR_INVALID_ARGUMENT);
    bytes_free(&text);
    json_writer_begin(&w, &text);
    json_writer_end(&w); /* nothing to close */
    assert_int_equal(json_writer_finish(&w, &d), LAB_ERR_INVALID_ARGUMENT);
    bytes_free(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_writer_prints_as_cjson_does),
        cmocka_unit_test(test_json_writer_refuses_nan_and_misnesting),
    };
    return cmocka_run_group_tests_name("json_writer", tests, NULL, NULL);
}
