/* grade30_sheets.c - the sheets of chapter 30's exercises (grade30_table.h): each sheet's
 * name, file, page and section (its exercises are those of the list (GRADE30_LIST) that name it), and the
 * chapter as the engine's grade_main takes it (src/grade/grader.h). */
#include "grade30.h"
#include "grade30_table.h"

/* Exercise 22 is a shader: the sheet's own runner, on this machine's EGL and GLES. */
static lab_error run_shader(const char *path, int x, uint64_t seed, grade_result *out, grade_picture *picture,
                            lab_diag *d)
{
    (void)x;
    return grade30_shader_run(path, seed, out, picture, d);
}

const grade_sheet grade30_sheets[GRADE30_SHEET_COUNT] = {
    {"lab30", "lab/ch30/exercises.c", "lab/ch30/README.md", "Write it yourself", "the chapter's formulas", NULL},
    {"skeleton", "lab/ch30/sheets/skeleton.c", "lab/ch30/lab30-gltf/README.md", "Exercises: the skeleton",
     "the hierarchy, the palette through skin.joints, the whole loop", NULL},
    {"dqs", "lab/ch30/sheets/dqs.c", "lab/ch30/lab30-dqs/README.md", "Exercises: dual quaternions",
     "dual quaternions from a rigid transform, normalised, moving a point; the rings' turns", NULL},
    {"normals", "lab/ch30/sheets/normals.c", "lab/ch30/lab30-normals/README.md", "Exercises: normals and policies",
     "a normal skinned three ways; the weight policies", NULL},
    {"palette", "lab/ch30/sheets/palette.c", "lab/ch30/lab30-palette/README.md", "Exercises: the packed vertex",
     "the four heaviest influences; the implied last weight", NULL},
    {"weights", "lab/ch30/sheets/weights.c", "lab/ch30/lab30-weights/README.md", "Exercises: bone heat",
     "the cotangent Laplacian's row; the heat system's row", NULL},
    {"shader", "lab/ch30/sheets/shader.glsl", "lab/ch30/lab30-gpu/README.md", "Exercises: the shader",
     "the palette in the GLSL vertex shader", run_shader},
    {"fixes", "lab/ch30/sheets/fixes.c", "lab/ch30/lab30-fixes/README.md", "Exercises: the fixes",
     "a vertex about its centre of rotation; a corrective shape before and after skinning", NULL},
};

/* The headers a sheet includes: their bytes name its object with its own (src/grade/build.h). */
static const char *const headers[] = {"lab/ch30/exercises30.h", "src/math/linalg.h", "src/math/quat.h",
                                      "src/math/dualquat.h", NULL};

const grade_chapter grade30_chapter = {
    "grade30",
    "Grades chapter 30's exercises (lab/ch30/exercises.c, lab/ch30/sheets/).",
    grade30_exercises,
    GRADE30_EXERCISE_COUNT,
    grade30_sheets,
    GRADE30_SHEET_COUNT,
    headers,
    "cc -std=c11 -Wall -Wextra -Wpedantic -O1 -g -Isrc -Ilab/ch30",
    sizeof(grade30_picture_data),
};

grade30_sheet_id grade30_sheet_of(int x) { return (grade30_sheet_id)grade30_exercises[x]->sheet; }

int grade30_sheet_exercises(int s, int *first)
{
    int n = 0;
    for (int x = GRADE30_EXERCISE_COUNT - 1; x >= 0; x--)
        if (grade30_exercises[x]->sheet == s)
            n++, *first = x;
    return n;
}
