/* grade30_sheets.c - the sheets of chapter 30's exercises (grade30_table.h): each sheet's
 * name, file, page and section, and which exercises of the table are its. */
#include "grade30_table.h"

const grade30_sheet grade30_sheets[GRADE30_SHEET_COUNT] = {
    {"lab30", "lab/ch30/exercises.c", "lab/ch30/README.md", "Write it yourself", "the chapter's formulas", GRADE30_WORLD_MATRIX, 7},
    {"skeleton", "lab/ch30/sheets/skeleton.c", "lab/ch30/lab30-gltf/README.md", "Exercises: the skeleton",
     "the hierarchy, the palette through skin.joints, the whole loop", GRADE30_SKELETON_WORLD, 3},
    {"dqs", "lab/ch30/sheets/dqs.c", "lab/ch30/lab30-dqs/README.md", "Exercises: dual quaternions",
     "dual quaternions from a rigid transform, normalised, moving a point; the rings' turns", GRADE30_DQ_FROM_RIGID, 5},
    {"normals", "lab/ch30/sheets/normals.c", "lab/ch30/lab30-normals/README.md", "Exercises: normals and policies",
     "a normal skinned three ways; the weight policies", GRADE30_SKIN_NORMAL, 2},
    {"palette", "lab/ch30/sheets/palette.c", "lab/ch30/lab30-palette/README.md", "Exercises: the packed vertex",
     "the four heaviest influences; the implied last weight", GRADE30_KEEP_HEAVIEST, 2},
    {"weights", "lab/ch30/sheets/weights.c", "lab/ch30/lab30-weights/README.md", "Exercises: bone heat",
     "the cotangent Laplacian's row; the heat system's row", GRADE30_COTAN_ROW, 2},
    {"shader", "lab/ch30/sheets/shader.glsl", "lab/ch30/lab30-gpu/README.md", "Exercises: the shader", "the palette in the GLSL vertex shader",
     GRADE30_SHADER, 1},
    {"fixes", "lab/ch30/sheets/fixes.c", "lab/ch30/lab30-fixes/README.md", "Exercises: the fixes",
     "a vertex about its centre of rotation; a corrective shape before and after skinning", GRADE30_COR_POINT, 2},
};

grade30_sheet_id grade30_sheet_of(int x)
{
    for (int s = 0; s < GRADE30_SHEET_COUNT; s++)
        if (x >= grade30_sheets[s].first && x < grade30_sheets[s].first + grade30_sheets[s].count)
            return (grade30_sheet_id)s;
    return GRADE30_SHEET_LAB30;
}
