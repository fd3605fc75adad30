/* test_weights_csv.c - the student-editable weights file: round trip and every error. */
#include <stdlib.h>
#include <string.h>

#include "cmocka_all.h"
#include "skin/weights_csv.h"

static void expect_error(const char *text, const char *where, const char *value)
{
    int joint[6];
    double weight[6];
    skin_influences out = {3, 2, joint, weight};
    lab_diag d = {0};
    assert_int_equal(weights_csv_parse(text, &out, &d), LAB_ERR_WEIGHTS_FILE);
    assert_string_equal(d.where, where);
    if (!strstr(d.value, value))
        fail_msg("\"%s\" does not mention \"%s\"", d.value, value);
}

static void test_weights_csv_errors_name_line_and_rule(void **state)
{
    (void)state;
    expect_error("vertex,weight\n", "line 1", "the header must be");
    expect_error("", "line 1", "the header must be");
    expect_error(WEIGHTS_CSV_HEADER "\n0,0,1,1\n", "line 2", "4 fields, expected 5");
    expect_error(WEIGHTS_CSV_HEADER "\n0,0,one,1,0\n", "line 2", "field 3 (weight0)");
    expect_error(WEIGHTS_CSV_HEADER "\n0,0.5,1,1,0\n", "line 2", "field 2 (joint0)");
    expect_error(WEIGHTS_CSV_HEADER "\n3,0,1,1,0\n", "line 2", "vertex 3 is outside [0, 3)");
    expect_error(WEIGHTS_CSV_HEADER "\n0,0,1,1,0\n1,0,1,1,0\n0,0,1,1,0\n", "line 4", "vertex 0 is given twice");
    expect_error(WEIGHTS_CSV_HEADER "\n0,0,1,1,0\n2,0,1,1,0\n", "line 3", "vertex 1 has no row");
}

static void test_weights_csv_round_trip_keeps_every_bit(void **state)
{
    (void)state;
    int joint[6] = {0, 1, 1, 0, 0, 7};
    double weight[6] = {0.1, 0.9, 1.0 / 3.0, 2.0 / 3.0, 0.4, 0.4};
    skin_influences in = {3, 2, joint, weight};
    bytes b = {0};
    assert_int_equal(weights_csv_write(&in, &b, NULL), LAB_OK);
    assert_true(strncmp((char *)b.data, WEIGHTS_CSV_HEADER "\n0,0,0.1,1,0.9\n", 36) == 0);
    int back_joint[6];
    double back_weight[6];
    skin_influences back = {3, 2, back_joint, back_weight};
    assert_int_equal(weights_csv_parse((char *)b.data, &back, NULL), LAB_OK);
    /* slot 7 and a sum of 0.8 are kept as written */
    assert_memory_equal(joint, back_joint, sizeof joint);
    assert_memory_equal(weight, back_weight, sizeof weight);
    bytes_free(&b);
    /* any order, CRLF line ends and a trailing blank line are fine */
    const char *text = WEIGHTS_CSV_HEADER "\r\n2,0,1,1,0\r\n0,0,1,1,0\r\n1,1,0.5,0,0.5\r\n\r\n";
    assert_int_equal(weights_csv_parse(text, &back, NULL), LAB_OK);
    assert_int_equal(back_joint[2], 1);
    assert_true(back_weight[3] == 0.5);
    /* the format holds two influences a vertex: other K are refused, not truncated */
    skin_influences four = {1, 4, back_joint, back_weight};
    assert_int_equal(weights_csv_write(&four, &b, NULL), LAB_ERR_INVALID_ARGUMENT);
    assert_int_equal(weights_csv_parse(text, &four, NULL), LAB_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_weights_csv_errors_name_line_and_rule),
        cmocka_unit_test(test_weights_csv_round_trip_keeps_every_bit),
    };
    return cmocka_run_group_tests_name("weights_csv", tests, NULL, NULL);
}
